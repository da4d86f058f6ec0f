/** Two projects: fast unit tests beside the code, and e2e tests over real HTTP and real databases. */
/**
 * Tests are compiled by SWC (@swc/jest, the transform NestJS documents for Jest): TypeScript's syntax
 * stripped with legacy decorators and their metadata, as `tsc` emits them for Nest's injection, and no
 * type checking per file (`npm run typecheck` checks the whole tree once). Jest keeps a transform cache
 * per project, so a cold run compiles every file four times; SWC does that in a fraction of
 * TypeScript's own time.
 */
const swcJest = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];
const moduleNameMapper = {
  '^@svc/(domain|application|infrastructure|config|presentation)$': '<rootDir>/libs/$1/src',
  '^@svc/(domain|application|infrastructure|config|presentation)/(.*)$': '<rootDir>/libs/$1/src/$2',
};
const common = {
  rootDir: __dirname,
  transform: { '^.+\\.ts$': swcJest },
  moduleNameMapper,
  // Jest's Node environment; its worker processes end without tearing their heaps down (see the file)
  testEnvironment: '<rootDir>/test/harness/node-environment.ts',
};

/**
 * The e2e suite runs three times: on SQLite files, on PostgreSQL (127.0.0.1:5432) and on MySQL /
 * MariaDB (127.0.0.1:3306), with a database per test file on the servers, created and dropped.
 * Without a reachable server its run is left out with a warning, except under CI=true, where it
 * runs and fails.
 */
function reachable(port) {
  const probe = `const s=require('net').createConnection({host:'127.0.0.1',port:${port}});s.setTimeout(1000,()=>process.exit(1));s.on('connect',()=>process.exit(0));s.on('error',()=>process.exit(1));`;
  return require('child_process').spawnSync(process.execPath, ['-e', probe], { timeout: 3000 }).status === 0;
}
/**
 * The AWS SDK (the S3 model store) warns once per process on Node 20 that its releases after the first
 * week of January 2027 need Node 22: every Jest worker that builds an S3 client printed it. The SDK's
 * documented switch (aws/aws-sdk-js-v3#7983) turns it off for this run's processes; workers and the
 * processes they spawn with this environment inherit it. The notice is about the SDK's future
 * versions (package.json's engines and the Dockerfile's Node), not something a test checks; operators
 * see it once per start (docs/OPERATIONS.md).
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const withPostgres = process.env.CI === 'true' || reachable(5432);
if (!withPostgres) console.warn('PostgreSQL is not reachable on 127.0.0.1:5432: the e2e-pg project is skipped');
const withMySql = process.env.CI === 'true' || reachable(3306);
if (!withMySql) console.warn('MySQL / MariaDB is not reachable on 127.0.0.1:3306: the e2e-mysql project is skipped');

// Suites whose subject does not depend on the database run once, on SQLite:
// - the CLI's options, messages, operators and model files (cli.storage runs each command that uses the
//   database on PostgreSQL and MySQL, and cli.e2e names each database it works on);
// - the service process's start on the embedded default (license.process);
// - the rate limits (their windows live in memory or Redis, never in the database; the routes they guard
//   run on each database in their own suites);
// - the bench's smoke run (its server modes are `npm run bench -- --pg` / `--mysql`);
// - the schema-drift test, which migrates all three databases itself;
// - the console's browser test and the console's serving (the browser app, not the database);
// - the OpenAPI document, the security headers, the deployment manifests, and large model files
//   (streamed between the object store and HTTP; the database holds one row);
// - the README's walk (the embedded default, as a new user pastes it).
const databaseIndependent = [
  'cli',
  'cli\\.models',
  'cli\\.operators',
  'license\\.process',
  'rate-limits',
  'rate-limits\\.redis',
  'bench-smoke',
  'schema-drift',
  'console\\.browser',
  'console',
  'openapi',
  'security-headers',
  'deploy',
  'model-files\\.large',
  'readme-walk',
];
const serverRunIgnores = ['/node_modules/', ...databaseIndependent.map((name) => `/test/e2e/${name}\\.e2e-spec\\.ts$`)];

const e2e = {
  ...common,
  testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
  globalSetup: '<rootDir>/test/harness/global-setup.ts',
  globalTeardown: '<rootDir>/test/harness/global-teardown.ts',
};

/**
 * Test files run in parallel: one worker more than the machine has cores, at most four. The e2e files
 * spend part of their time waiting on the database servers, HTTP and child processes, so on two cores
 * a third worker keeps both cores busy. At most four: each worker's files hold their own connection
 * pools on the shared PostgreSQL (max_connections 100) and MariaDB servers.
 */
const workers = Math.min(4, require('os').availableParallelism() + 1);

module.exports = {
  testTimeout: 30000,
  // `npm run test:timings` sets TEST_TIMINGS_FILE: each file's time, per project, into test/timings.json
  reporters: ['default', ...(process.env.TEST_TIMINGS_FILE ? ['<rootDir>/test/harness/timing-reporter.js'] : [])],
  maxWorkers: workers,
  projects: [
    {
      ...common,
      displayName: 'unit',
      // test/in-memory holds the in-memory adapters (test-only fakes) with their contract specs
      testMatch: [
        '<rootDir>/libs/**/*.spec.ts',
        '<rootDir>/apps/**/*.spec.ts',
        '<rootDir>/bench/**/*.spec.ts',
        '<rootDir>/test/in-memory/*.spec.ts',
      ],
      // the persistence contract suites copy migrated template databases, as the e2e suites do
      globalSetup: '<rootDir>/test/harness/global-setup.ts',
      globalTeardown: '<rootDir>/test/harness/global-teardown.ts',
    },
    // cli.storage proves on PostgreSQL and MySQL what cli.e2e proves, option by option, on SQLite
    { ...e2e, displayName: 'e2e', testPathIgnorePatterns: ['/node_modules/', '/test/e2e/cli\\.storage\\.e2e-spec\\.ts$'] },
    ...(withPostgres
      ? [
          {
            ...e2e,
            displayName: 'e2e-pg',
            setupFiles: ['<rootDir>/test/harness/use-postgres.ts'],
            testPathIgnorePatterns: serverRunIgnores,
          },
        ]
      : []),
    ...(withMySql
      ? [
          {
            ...e2e,
            displayName: 'e2e-mysql',
            setupFiles: ['<rootDir>/test/harness/use-mysql.ts'],
            testPathIgnorePatterns: serverRunIgnores,
          },
        ]
      : []),
  ],
};
