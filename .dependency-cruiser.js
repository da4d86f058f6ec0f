/**
 * The dependency rule of STYLE.md section 3, as data. `npm run depcheck`
 * fails (and so does `npm test` and CI) on any violation.
 */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'libs/domain imports nothing outside itself: no framework, ORM, validator or config.',
      severity: 'error',
      from: { path: '^libs/domain' },
      to: { pathNot: ['^libs/domain'], dependencyTypesNot: ['core', 'type-only'] },
    },
    {
      name: 'domain-no-node-runtime',
      comment: 'Node built-ins only as types in the domain.',
      severity: 'error',
      from: { path: '^libs/domain' },
      to: { dependencyTypes: ['core'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'application-only-domain-and-injectable',
      comment: 'Use cases orchestrate ports: they may import the domain and @nestjs/common (for Injectable) only.',
      severity: 'error',
      from: { path: '^libs/application' },
      to: {
        pathNot: ['^libs/application', '^libs/domain', '^node_modules/@nestjs/common'],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'presentation-only-domain-and-application',
      comment:
        'libs/presentation (the JSON views, download addresses and request DTOs of the API and the CLI) reads the domain and use-case outputs, ' +
        'and declares DTOs with class-validator, class-transformer and @nestjs/swagger only: no infrastructure, config, other framework or app.',
      severity: 'error',
      from: { path: '^libs/presentation' },
      to: {
        pathNot: ['^libs/(presentation|domain|application)/', '^node_modules/(class-validator|class-transformer|@nestjs/swagger)/'],
      },
    },
    {
      name: 'inner-libs-not-presentation',
      comment: 'Presentation is the edge: domain, application, infrastructure and config do not import it, not even types.',
      severity: 'error',
      from: { path: '^libs/(domain|application|infrastructure|config)' },
      to: { path: '^libs/presentation' },
    },
    {
      name: 'infrastructure-not-apps',
      severity: 'error',
      from: { path: '^libs/infrastructure' },
      to: { path: '^apps/' },
    },
    {
      name: 'config-stands-alone',
      comment: 'libs/config imports no other lib and no app.',
      severity: 'error',
      from: { path: '^libs/config' },
      to: { path: ['^libs/(domain|application|infrastructure|presentation)', '^apps/'] },
    },
    {
      name: 'api-not-cli',
      severity: 'error',
      from: { path: '^apps/api' },
      to: { path: '^apps/cli' },
    },
    {
      name: 'cli-not-api',
      severity: 'error',
      from: { path: '^apps/cli' },
      to: { path: '^apps/api' },
    },
    {
      name: 'libs-not-apps',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
    {
      name: 'console-stands-alone',
      comment:
        'apps/console is the browser app vite bundles (CONTRACT 17): it reaches the service over HTTP only, ' +
        'so it imports no lib and no other app, and nothing imports it.',
      severity: 'error',
      from: { path: '^apps/console' },
      to: { path: ['^libs/', '^apps/(?!console/)'] },
    },
    {
      name: 'nothing-imports-console',
      severity: 'error',
      from: { pathNot: '^apps/console' },
      to: { path: '^apps/console' },
    },
    {
      name: 'nothing-imports-tests',
      severity: 'error',
      from: { pathNot: '^test/' },
      to: { path: '^test/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles',
      comment:
        'Folders depend one way (in apps/api/src, bottom up: observability/, http/, openapi/, api-key-auth/, rate-limit/, ' +
        'admin-auth/, shared/, modules/; docs/EXTENDING.md section 1). A piece two folders share lives in the lower one. ' +
        "The domain's aggregate folders (api-key, license, model, webhook) name each other's types and are held by no-circular only.",
      severity: 'error',
      scope: 'folder',
      from: { pathNot: '^libs/domain/' },
      to: { circular: true },
    },
    {
      name: 'api-root-on-top',
      comment:
        'The files at the top of apps/api/src (main, the app factory, the composition root, the program entries) import the folders, never the other way.',
      severity: 'error',
      from: { path: '^apps/api/src/[^/]+/' },
      to: { path: '^apps/api/src/[^/]+[.]ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // node_modules may be a link to a shared install (a git worktree's): its packages keep their node_modules/ paths
    preserveSymlinks: true,
    exclude: { path: ['\\.spec\\.ts$', '^dist/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['require', 'node', 'default'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
