import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../harness/cli';
import { printedJson } from '../harness/cli-stderr';
import { ServiceProcess } from '../harness/service-process';
import { type TestDatabase, createTestDatabase } from '../harness/test-database';

import { request } from '../harness/http';

const OPERATOR_TOKEN = /^svc_admin_[0-9a-f]{48}$/;

interface Ran {
  readonly code: number;
  readonly stdout: string;
  /** What the command wrote to stderr after the line naming the database (which is `database`). */
  readonly stderr: string;
  readonly database: string | null;
}

/**
 * `operators create|list|disable|token` (CONTRACT 21), run as an operator runs
 * them: the BUILT CLI on a database of its own (a SQLite file, or a PostgreSQL
 * or MySQL database in those projects), with no ADMIN_TOKEN anywhere, and the
 * built API started on the same database. Needs `npm run build`.
 */
describe('operator CLI (built): operators', () => {
  let folder: string;
  let database: TestDatabase;
  let env: NodeJS.ProcessEnv;
  let api: ServiceProcess | undefined;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'svc-cli-operators-'));
    database = await createTestDatabase(folder);
    env = {
      PATH: process.env.PATH,
      DATABASE_URL: database.url,
      MODEL_STORE_DIR: join(folder, 'models'),
      SAMPLE_MODELS: 'false',
      LOG_LEVEL: 'error',
    };
  });
  afterAll(async () => {
    await api?.stop('SIGKILL');
    await database?.drop();
    rmSync(folder, { recursive: true, force: true });
  });

  async function cli(...args: string[]): Promise<Ran> {
    const ran = await runCli(args, { env });
    return { code: ran.code ?? -1, stdout: ran.stdout, stderr: ran.stderr, database: ran.database };
  }

  async function cliJson(...args: string[]): Promise<any> {
    return printedJson(await cli(...args, '--json'), database.url);
  }

  it('makes the first owner without ADMIN_TOKEN; the API takes its token; list, token and disable work on the database', async () => {
    const created = await cliJson('operators', 'create', '--name', 'First owner', '--role', 'owner', '--email', 'owner@example.org');
    expect(created).toMatchObject({ name: 'First owner', role: 'owner', email: 'owner@example.org', disabled_at: null });
    expect(created.token).toMatch(OPERATOR_TOKEN);

    api = await ServiceProcess.start(env as Record<string, string>);
    const me = (token: string) => request(api!.baseUrl, 'GET', '/admin/v1/me', { headers: { authorization: `Bearer ${token}` } });
    expect((await me(created.token)).body).toMatchObject({ operator_id: created.operator_id, role: 'owner' });

    const human = await cli('operators', 'create', '--name', 'Support desk', '--role', 'support');
    expect(human.code).toBe(0);
    const support = /(svc_admin_[0-9a-f]{48})/.exec(human.stdout)![1];
    expect(human.stdout).toContain('shown this once');

    const listed = await cliJson('operators', 'list');
    expect(listed.operators.map((o: { name: string }) => o.name)).toEqual(['First owner', 'Support desk']);
    const listText = (await cli('operators', 'list')).stdout;
    for (const text of [JSON.stringify(listed), listText]) {
      expect(text).not.toContain(created.token);
      expect(text).not.toContain(support);
    }
    const supportId = listed.operators[1].operator_id;

    const replaced = await cliJson('operators', 'token', supportId);
    expect(replaced.token).toMatch(OPERATOR_TOKEN);
    expect((await me(support)).status).toBe(401);
    expect((await me(replaced.token)).status).toBe(200);

    expect((await cliJson('operators', 'disable', supportId)).disabled_at).not.toBeNull();
    expect((await me(replaced.token)).status).toBe(401);

    const lastOwner = await cli('operators', 'disable', created.operator_id);
    expect(lastOwner.code).not.toBe(0);
    expect(lastOwner.stderr).toContain('LAST_OWNER');

    const bad = await cli('operators', 'create', '--name', 'X', '--role', 'boss');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('role must be one of viewer, support, admin, owner');

    // a name that would show as someone else's: refused as the API refuses it
    for (const name of ['Support\u202e ksed', 'Two\nlines']) {
      const disguised = await cli('operators', 'create', '--name', name, '--role', 'viewer');
      expect(disguised.code).not.toBe(0);
      expect(disguised.stderr).toContain('name must not contain control characters');
    }
    expect((await cliJson('operators', 'list')).operators).toHaveLength(2);

    const audit = await request(api.baseUrl, 'GET', '/admin/v1/audit?action=operator.created', {
      headers: { authorization: `Bearer ${created.token}` },
    });
    expect(audit.body.entries.map((e: { actor: unknown }) => e.actor)).toEqual([
      { type: 'cli', user: userInfo().username },
      { type: 'cli', user: userInfo().username },
    ]);
    expect(audit.text).not.toContain(created.token);
    // ten CLI runs and a service start: about 15 s on an idle machine, the margin for a loaded one
  }, 300_000);
});
