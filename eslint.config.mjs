// @ts-check
/**
 * Lint: typescript-eslint's type-aware rules over the service, the CLI, the libraries, the tests
 * and the bench; the console (a browser app with its own tsconfig) gets the same rules through
 * its own project. Formatting is Prettier's (eslint-config-prettier turns off the rules it owns).
 * The layer rules of STYLE.md section 3 are stated here as import restrictions, beside
 * dependency-cruiser (`npm run depcheck`), which also checks cycles and paths.
 */
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

const FRAMEWORK_AND_ORM = [
  '@nestjs/*',
  'typeorm',
  'typeorm/*',
  'class-validator',
  'class-transformer',
  'better-sqlite3',
  'pg',
  'mysql2',
  'mysql2/*',
  'ioredis',
  'jose',
  'fastify',
  '@aws-sdk/*',
];

export default tseslint.config(
  {
    ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'data/**', '**/*.js', '**/*.mjs', '**/*.cjs', 'apps/console/src/api-schema.ts'],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Nest modules are classes that only carry decorators.
      '@typescript-eslint/no-extraneous-class': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
    },
  },
  {
    // Tests read JSON answers of real HTTP calls: `any` there is the wire's own looseness (supertest's
    // `response.body`, parsed log lines and CLI output), so the no-unsafe-* rules, which would flag
    // every such read, hold for the service, the CLI, the libraries and the bench, not for tests.
    files: ['test/**/*.ts', '**/*.spec.ts', '**/*.e2e-spec.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['libs/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: FRAMEWORK_AND_ORM, message: 'The domain is plain TypeScript: no framework, ORM, driver or validator (STYLE.md 1).' },
            { group: ['@svc/*', '!@svc/domain'], message: 'The domain imports nothing outside itself.' },
          ],
        },
      ],
    },
  },
  {
    files: ['libs/application/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@nestjs/common',
              allowImportNames: ['Injectable'],
              message: 'Use cases take only Injectable from Nest (STYLE.md 3).',
            },
          ],
          patterns: [
            {
              group: FRAMEWORK_AND_ORM.filter((p) => p !== '@nestjs/*').concat(['@nestjs/*', '!@nestjs/common']),
              message: 'Use cases orchestrate ports: domain and Injectable only (STYLE.md 3).',
            },
            { group: ['@svc/*', '!@svc/domain', '!@svc/application'], message: 'Use cases import the domain only.' },
          ],
        },
      ],
    },
  },
  {
    // The bench drives the service from outside, as a deployment would: it may import a library's public
    // entry point (`@svc/<library>`), never a file inside one, nor the service's own sources.
    files: ['bench/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@svc/*/**'], message: "The bench imports a library's public entry point (@svc/<library>) only." },
            { group: ['**/libs/**', '**/apps/**'], message: "The bench imports a library's public entry point (@svc/<library>) only." },
          ],
        },
      ],
    },
  },
  prettier,
);
