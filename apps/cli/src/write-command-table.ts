import 'reflect-metadata';
import { loadConfig } from '@svc/config';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CommandFactory } from 'nest-commander';
import { CliModule } from './cli.module';
import { CliProgram } from './shared/cli-program';
import { commandTable, withCommandTable } from './shared/command-table';

/**
 * `npm run docs:cli`: builds the CLI's commands as `main.ts` does (on a
 * throwaway SQLite file; nothing runs), and renders the table of commands
 * from commander's help of them. With a file (README.md) it rewrites the
 * table between the file's markers; without, it prints the table. The test
 * suite fails when the README's table and this one differ.
 */
async function main(): Promise<void> {
  const target = process.argv[2];
  const folder = mkdtempSync(join(tmpdir(), 'svc-cli-commands-'));
  try {
    const config = loadConfig({
      DATABASE_URL: `sqlite:${join(folder, 'commands.db')}`,
      MODEL_STORE_DIR: join(folder, 'models'),
      SAMPLE_MODELS: 'false',
    });
    const app = await CommandFactory.createWithoutRunning(CliModule.forRoot(config), { logger: false });
    try {
      const table = commandTable(app.get(CliProgram).program);
      if (target === undefined) {
        process.stdout.write(`${table}\n`);
      } else {
        const file = resolve(target);
        writeFileSync(file, withCommandTable(readFileSync(file, 'utf8'), table));
        console.log(`wrote the table of ${table.split('\n').length - 2} commands into ${file}`);
      }
    } finally {
      await app.close();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`docs:cli: ${(error as Error)?.stack ?? String(error)}`);
  process.exit(1);
});
