const { dirname, join, relative } = require('node:path');

/**
 * `nest build <app>` for every app of nest-cli.json: Nest's webpack defaults (ts-loader, the
 * tsconfig paths of the libs, node_modules left external for Node to load), one file per entry,
 * named after it beside the app's main: dist/apps/api/main.js, dist/apps/cli/main.js,
 * dist/bench/main.js. Apps with a second program list it here.
 *
 * No plugins: Nest's defaults add a type checker (fork-ts-checker), which would check the whole
 * tree once per app; `npm run typecheck` checks it once (npm test runs it before the build). Their
 * other plugin ignores optional Nest packages that are never bundled here anyway (all of
 * node_modules stays external).
 */
const SECOND_ENTRIES = {
  'apps/api/src': { 'write-openapi': './apps/api/src/write-openapi.ts' },
  'apps/cli/src': { 'write-command-table': './apps/cli/src/write-command-table.ts' },
  bench: {
    'ceiling-server': './bench/ceiling-server.ts',
    'bare-ceiling-server': './bench/bare-ceiling-server.ts',
    report: './bench/report.ts',
  },
};

module.exports = (options) => {
  const sources = relative(__dirname, dirname(options.entry));
  return {
    ...options,
    entry: { main: options.entry, ...SECOND_ENTRIES[sources] },
    output: { ...options.output, filename: join(dirname(options.output.filename), '[name].js') },
    plugins: [],
  };
};
