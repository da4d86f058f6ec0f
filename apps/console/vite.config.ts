import { resolve } from 'node:path';
import { defineConfig } from 'vite';

/**
 * The operator console (CONTRACT 17): a single-page app served by the API at /console from
 * dist/console. Everything it loads is in that folder (no CDN); the HTML has no inline script
 * (the console's Content-Security-Policy forbids it) and the bundles are named by content hash.
 */
export default defineConfig({
  root: __dirname,
  base: '/console/',
  publicDir: false,
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: resolve(__dirname, '../../dist/console'),
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    target: 'es2022',
    reportCompressedSize: false,
  },
  logLevel: 'warn',
});
