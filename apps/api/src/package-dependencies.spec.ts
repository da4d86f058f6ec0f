import { isBuiltin } from 'node:module';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';

/**
 * package.json against the code: every declared package is used, every imported
 * package is declared, and production code imports only runtime dependencies
 * (the image runs `npm prune --omit=dev`). The operator console (apps/console)
 * is bundled by vite at build time into static files: its packages are
 * build-time ones (devDependencies), never loaded by the running service. Imports are read with the TypeScript
 * parser: static, side-effect, re-export, `import()`, `require()` and `import('x')`
 * types, each marked type-only or not.
 */
const ROOT = join(__dirname, '..', '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const text = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const scripts = Object.values(pkg.scripts).join('\n');

/**
 * Runtime dependencies used without a value import from apps/ or libs/, each
 * with the check that shows the use (so an entry cannot outlive its reason).
 */
const USED_WITHOUT_IMPORT: Record<string, { why: string; holds: () => boolean }> = {
  pg: {
    why: "TypeORM's postgres driver loads it by name (libs import only its types)",
    holds: () => text('libs/infrastructure/src/persistence/postgres/postgres-data-source.ts').includes("type: 'postgres'"),
  },
  'better-sqlite3': {
    why: "TypeORM's better-sqlite3 driver loads it by name (libs import only its types)",
    holds: () => text('libs/infrastructure/src/persistence/sqlite/sqlite-data-source.ts').includes("type: 'better-sqlite3'"),
  },
  mysql2: {
    why: "TypeORM's mysql driver loads it by name (connectorPackage 'mysql2'; libs import only its types)",
    holds: () => text('libs/infrastructure/src/persistence/mysql/mysql-data-source.ts').includes("connectorPackage: 'mysql2'"),
  },
  fastify: {
    why: 'the HTTP server: @nestjs/platform-fastify creates and runs it (apps/ import only its types, for hooks and replies)',
    holds: () =>
      'fastify' in
        ((JSON.parse(readFileSync(require.resolve('@nestjs/platform-fastify/package.json'), 'utf8')) as { dependencies?: object })
          .dependencies ?? {}) && text('apps/api/src/create-api-app.ts').includes("from 'fastify'"),
  },
  rxjs: {
    why: 'a peer dependency of @nestjs/common and @nestjs/core, which require it',
    holds: () =>
      ['@nestjs/common', '@nestjs/core'].every(
        (p) =>
          'rxjs' in
          ((JSON.parse(readFileSync(require.resolve(`${p}/package.json`), 'utf8')) as { peerDependencies?: object }).peerDependencies ??
            {}),
      ),
  },
};

/** devDependencies used as tools or by configuration rather than imported. */
const TOOLS: Record<string, { why: string; holds: () => boolean }> = {
  '@nestjs/cli': { why: '`nest build` in the scripts', holds: () => /\bnest build\b/.test(scripts) },
  '@nestjs/schematics': { why: 'the collection of nest-cli.json', holds: () => text('nest-cli.json').includes('"@nestjs/schematics"') },
  'dependency-cruiser': { why: '`depcruise` in the scripts', holds: () => /\bdepcruise\b/.test(scripts) },
  jest: { why: '`jest` in the scripts', holds: () => /\bjest\b/.test(scripts) },
  'npm-run-all2': { why: '`run-p` and `run-s` in the scripts (npm test)', holds: () => /\brun-[ps]\b/.test(scripts) },
  '@swc/jest': { why: 'the transform of jest.config.js', holds: () => text('jest.config.js').includes("'@swc/jest'") },
  '@swc/core': { why: 'the compiler @swc/jest runs (its peer dependency)', holds: () => text('jest.config.js').includes("'@swc/jest'") },
  'ts-loader': {
    why: "the loader of `nest build`'s webpack (nest-cli.json: webpack)",
    holds: () => (JSON.parse(text('nest-cli.json')) as { compilerOptions: { webpack?: boolean } }).compilerOptions.webpack === true,
  },
  typescript: { why: '`tsc` in the scripts', holds: () => /\btsc\b/.test(scripts) },
  'openapi-typescript': {
    why: "`openapi-typescript` in the scripts (npm run openapi:console writes the console's types from openapi.json)",
    holds: () => /\bopenapi-typescript\b/.test(scripts),
  },
  eslint: { why: '`eslint` in the scripts (npm run lint)', holds: () => /\beslint\b/.test(scripts) },
  prettier: { why: '`prettier` in the scripts (npm run format:check)', holds: () => /\bprettier --check\b/.test(scripts) },
  '@eslint/js': { why: 'imported by eslint.config.mjs', holds: () => text('eslint.config.mjs').includes("from '@eslint/js'") },
  'typescript-eslint': {
    why: 'imported by eslint.config.mjs',
    holds: () => text('eslint.config.mjs').includes("from 'typescript-eslint'"),
  },
  'eslint-config-prettier': {
    why: 'imported by eslint.config.mjs',
    holds: () => text('eslint.config.mjs').includes("from 'eslint-config-prettier'"),
  },
};

interface Import {
  readonly file: string;
  readonly pkg: string;
  readonly typeOnly: boolean;
}

function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : tsFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The package a bare specifier names, or null for relative paths, Node built-ins and the @svc/* aliases. */
function packageOf(specifier: string): string | null {
  if (specifier.startsWith('.') || specifier.startsWith('/') || isBuiltin(specifier) || specifier.startsWith('@svc/')) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function importsOf(file: string): Import[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text(file), ts.ScriptTarget.Latest, false, kind);
  const found: Import[] = [];
  const add = (node: ts.Node | undefined, typeOnly: boolean) => {
    if (node && ts.isStringLiteralLike(node)) {
      const name = packageOf(node.text);
      if (name) found.push({ file, pkg: name, typeOnly });
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : null;
      const onlyTypes =
        !!clause && (clause.isTypeOnly || (!clause.name && !!named && named.length > 0 && named.every((e) => e.isTypeOnly)));
      add(node.moduleSpecifier, onlyTypes);
    } else if (ts.isExportDeclaration(node)) {
      add(node.moduleSpecifier, node.isTypeOnly);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, node.isTypeOnly);
    } else if (ts.isCallExpression(node)) {
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      if (isRequire || node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0], false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const isSpec = (file: string) => /\.(e2e-)?spec\.ts$/.test(file);
/** Code the service runs: apps/ and libs/, not specs and not the console (bundled at build time). */
const isProduction = (file: string) => /^(apps|libs)\//.test(file) && !file.startsWith('apps/console/') && !isSpec(file);
const imports = ['apps', 'libs', 'bench', 'test'].flatMap(tsFiles).flatMap(importsOf);
const dependencies = Object.keys(pkg.dependencies);
const devDependencies = Object.keys(pkg.devDependencies);
const declared = new Set([...dependencies, ...devDependencies]);
const tsconfigTypes: string[] = JSON.parse(text('tsconfig.json')).compilerOptions.types ?? [];

/** Runtime dependencies imported for their values by production code (apps/, libs/, not specs). */
const usedAtRuntime = new Set(imports.filter((i) => isProduction(i.file) && !i.typeOnly).map((i) => i.pkg));
const importedAnywhere = new Set(imports.map((i) => i.pkg));

describe('package.json dependencies', () => {
  it('reads imports from the tree (sanity check of the scanner)', () => {
    expect(imports.length).toBeGreaterThan(100);
    expect(usedAtRuntime).toContain('@nestjs/core');
    expect(usedAtRuntime).toContain('reflect-metadata'); // a side-effect import counts
    expect(imports).toContainEqual({
      file: 'libs/infrastructure/src/persistence/postgres/postgres-statements.ts',
      pkg: 'pg',
      typeOnly: true,
    });
    expect(imports).toContainEqual({ file: 'apps/console/src/main.tsx', pkg: 'preact', typeOnly: false }); // .tsx files count
    expect(usedAtRuntime).not.toContain('preact'); // the console is bundled, not loaded by the service
  });

  it('every runtime dependency is imported by apps/ or libs/, or used as its allow-list entry says', () => {
    const unused = dependencies.filter((name) => !usedAtRuntime.has(name) && !(name in USED_WITHOUT_IMPORT));
    expect(unused).toEqual([]);
    for (const [name, entry] of Object.entries(USED_WITHOUT_IMPORT)) {
      expect({ name, declared: dependencies.includes(name), holds: entry.holds(), why: entry.why }).toEqual({
        name,
        declared: true,
        holds: true,
        why: entry.why,
      });
    }
  });

  it('every devDependency is imported somewhere, types an imported package, or is a tool in use', () => {
    const used = (name: string) => {
      const typed = name.startsWith('@types/') ? name.slice('@types/'.length).replace(/^(.+)__(.+)$/, '@$1/$2') : null;
      if (typed) return importedAnywhere.has(typed) || tsconfigTypes.includes(typed);
      return importedAnywhere.has(name);
    };
    const unused = devDependencies.filter((name) => !used(name) && !(name in TOOLS));
    expect(unused).toEqual([]);
    for (const [name, tool] of Object.entries(TOOLS)) {
      expect({ name, declared: devDependencies.includes(name), holds: tool.holds(), why: tool.why }).toEqual({
        name,
        declared: true,
        holds: true,
        why: tool.why,
      });
    }
  });

  it('every package imported by apps/, libs/, bench/ or test/ is declared', () => {
    const undeclared = [...new Set(imports.filter((i) => !declared.has(i.pkg)).map((i) => i.pkg))].sort();
    expect(undeclared).toEqual([]);
  });

  it('production code (apps/, libs/, not specs) imports values only from runtime dependencies', () => {
    const devOnly = imports
      .filter((i) => isProduction(i.file) && !i.typeOnly && devDependencies.includes(i.pkg))
      .map((i) => `${i.file}: ${i.pkg}`);
    expect(devOnly).toEqual([]);
  });
});
