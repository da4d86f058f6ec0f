/** Two projects: fast unit tests beside the code, and e2e tests over real HTTP and real databases. */
const swc = ['@swc/jest', JSON.parse(require('fs').readFileSync(`${__dirname}/.swcrc`, 'utf8'))];
const moduleNameMapper = {
  '^@svc/(domain|application|infrastructure|config)$': '<rootDir>/libs/$1/src',
  '^@svc/(domain|application|infrastructure|config)/(.*)$': '<rootDir>/libs/$1/src/$2',
};
const common = { rootDir: __dirname, transform: { '^.+\\.ts$': swc }, moduleNameMapper, testEnvironment: 'node' };

module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/harness/global-setup.ts',
      testTimeout: 30000,
    },
  ],
};
