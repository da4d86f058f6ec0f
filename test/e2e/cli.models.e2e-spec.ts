import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../harness/cli';
import { CLI_DATABASE_LINE } from '../harness/cli-stderr';
import { TestApp } from '../harness/create-test-app';
import { downloadFile } from '../harness/model-download';
import { BUILT_CLI, SHIPPED_TIERS_FILE } from '../harness/service-process';
import { modelChecksum } from '../harness/sha256';

/**
 * The built CLI's `models` commands (CONTRACT 12), on a SQLite file and a
 * model store of their own; then the API on the same database and store
 * serves what the CLI published. Needs `npm run build` (as `npm test` does).
 */

jest.setTimeout(180_000);

interface CliAnswer {
  readonly status: number;
  readonly stdout: string;
  /** What the command wrote to stderr after the line naming the database (which is `database`). */
  readonly stderr: string;
  readonly database: string | null;
}

const METADATA = JSON.stringify({
  description: 'Published by the CLI',
  training_subjects: 7,
  accuracy: '0.68-0.77',
  feature_type: 'csp',
  recommended_use: 'CLI e2e test',
});

describe('CLI: models publish, list, show, delete, sweep', () => {
  let folder: string;
  let env: Record<string, string>;

  async function cli(args: string[], extraEnv: Record<string, string> = {}): Promise<CliAnswer> {
    const ran = await runCli(args, { env: { ...env, ...extraEnv } });
    return { status: ran.code ?? -1, stdout: ran.stdout, stderr: ran.stderr, database: ran.database };
  }

  function publishArgs(file: string, name: string, extra: string[] = []): string[] {
    return [
      'models',
      'publish',
      file,
      '--name',
      name,
      '--version',
      '3.0.1',
      '--type',
      'SvcProbit',
      '--paradigm',
      'p300',
      '--n-features',
      '96',
      '--n-classes',
      '2',
      '--requires-license',
      'research',
      '--metadata',
      METADATA,
      ...extra,
    ];
  }

  beforeAll(() => {
    if (!existsSync(BUILT_CLI)) throw new Error(`the CLI is not built (${BUILT_CLI}); run npm run build first`);
    folder = mkdtempSync(join(tmpdir(), 'svc-test-cli-models-'));
    env = {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: `sqlite:${join(folder, 'service.db')}`,
      MODEL_STORE_DIR: join(folder, 'models'),
      TIERS_FILE: SHIPPED_TIERS_FILE,
      SAMPLE_MODELS: 'false',
    };
  });
  afterAll(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it('publish copies the file into the model store and computes checksum and size from its bytes', async () => {
    const bytes = randomBytes(150_000);
    const file = join(folder, 'p300_cli_v3.bin');
    writeFileSync(file, bytes);

    const res = await cli([...publishArgs(file, 'p300_cli_v3'), '--json']);

    expect(res.stderr).toBe('');
    expect(res.database).toBe(`${CLI_DATABASE_LINE}sqlite ${env.DATABASE_URL.slice('sqlite:'.length)}`);
    expect(res.status).toBe(0);
    const view = JSON.parse(res.stdout);
    expect(view).toEqual({
      name: 'p300_cli_v3',
      version: '3.0.1',
      type: 'SvcProbit',
      paradigm: 'p300',
      n_features: 96,
      n_classes: 2,
      size_mb: 0.15,
      size_bytes: 150_000,
      download_url: `/model-files/${view.stored_file}`,
      checksum: modelChecksum(bytes),
      requires_license: 'research',
      metadata: JSON.parse(METADATA),
      owner_user_id: null,
      published: true,
      stored_file: expect.stringMatching(/^p300_cli_v3-3\.0\.1-[0-9a-f]{24}\.bin$/),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const stored = readFileSync(join(folder, 'models', view.stored_file));
    expect(stored.equals(bytes)).toBe(true);
    expect(readdirSync(join(folder, 'models'))).toEqual([view.stored_file]);
  });

  it('the API on the same database lists it, and its download verifies against the checksum', async () => {
    const t = await TestApp.start({
      env: { DATABASE_URL: env.DATABASE_URL, MODEL_STORE_DIR: env.MODEL_STORE_DIR, SAMPLE_MODELS: 'false' },
    });
    try {
      const key = await t.issueKey({ licenseType: 'research' });
      const listed = await t.get(`/v1/models/list?api_key=${key.api_key}&paradigm=p300`);
      expect(listed.body.total).toBe(1);
      const record = listed.body.models[0];
      expect(record).toMatchObject({ name: 'p300_cli_v3', size_bytes: 150_000, size_mb: 0.15 });
      const redirect = await t.get(`/v1/models/p300_cli_v3/download?api_key=${key.api_key}`);
      expect(redirect.status).toBe(302);
      const { bytes } = await downloadFile(redirect.headers.get('location')!);
      expect(modelChecksum(bytes)).toBe(record.checksum);
      expect(bytes.length).toBe(record.size_bytes);
      const shown = await cli(['models', 'show', 'p300_cli_v3', '--json']);
      const adminView = (await t.admin('GET', '/admin/v1/models/p300_cli_v3')).body;
      expect({ ...JSON.parse(shown.stdout), download_url: null }).toEqual({ ...adminView, download_url: null });
    } finally {
      await t.close();
    }
  });

  it('download_url is under MODEL_HOST when it is set', async () => {
    const res = await cli(['models', 'show', 'p300_cli_v3', '--json'], { MODEL_HOST: 'https://cdn.example.com/m' });
    const view = JSON.parse(res.stdout);
    expect(view.download_url).toBe(`https://cdn.example.com/m/${view.stored_file}`);
  });

  it('publish --download-url computes checksum and size from the local file and registers the external address, copying nothing', async () => {
    const t = await TestApp.start({
      env: { DATABASE_URL: env.DATABASE_URL, MODEL_STORE_DIR: env.MODEL_STORE_DIR, SAMPLE_MODELS: 'false' },
    });
    try {
      const key = await t.issueKey({ licenseType: 'commercial' });
      const file = join(folder, 'custom.bin');
      writeFileSync(file, 'custom model bytes');
      const storeBefore = readdirSync(join(folder, 'models')).sort();
      const res = await cli([
        ...publishArgs(file, 'p300_custom_v1', ['--owner', key.user_id, '--download-url', 'https://cdn.example.com/custom.bin']),
        '--requires-license',
        'commercial',
        '--json',
      ]);
      expect(res.stderr).toBe('');
      expect(res.status).toBe(0);
      expect(JSON.parse(res.stdout)).toMatchObject({
        owner_user_id: key.user_id,
        download_url: 'https://cdn.example.com/custom.bin',
        checksum: modelChecksum(Buffer.from('custom model bytes')),
        size_bytes: 18,
        size_mb: 0.000018,
        stored_file: null,
        published: true,
        requires_license: 'commercial',
      });
      expect(readdirSync(join(folder, 'models')).sort()).toEqual(storeBefore);
      // the owner's key is offered the complete record
      const listed = await t.get(`/v1/models/list?api_key=${key.api_key}&paradigm=p300`);
      expect(listed.body.models).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            name: 'p300_custom_v1',
            download_url: 'https://cdn.example.com/custom.bin',
            checksum: modelChecksum(Buffer.from('custom model bytes')),
            size_bytes: 18,
            size_mb: 0.000018,
          }),
        ]),
      );
    } finally {
      await t.close();
    }
  });

  it('list prints every record in the admin shape, with a human summary without --json', async () => {
    const json = await cli(['models', 'list', '--json']);
    expect(json.status).toBe(0);
    const body = JSON.parse(json.stdout);
    expect(body.total).toBe(2);
    expect(body.models.map((m: { name: string }) => m.name)).toEqual(['p300_cli_v3', 'p300_custom_v1']);
    const text = await cli(['models', 'list']);
    expect(text.stdout).toMatch(/^p300_cli_v3 +3\.0\.1 +SvcProbit +p300 +research +published/m);
  });

  it('refuses what the admin API refuses, with the code on stderr and exit status 1', async () => {
    const file = join(folder, 'p300_cli_v3.bin');
    const duplicate = await cli(publishArgs(file, 'p300_cli_v3'));
    expect(duplicate.status).toBe(1);
    expect(duplicate.stderr).toMatch(/^MODEL_EXISTS: Model already exists/);
    const badType = await cli([...publishArgs(file, 'p300_other_v1'), '--type', 'SvcBayes']);
    expect(badType.status).toBe(1);
    expect(badType.stderr).toContain('INVALID_REQUEST');
    expect(badType.stderr).toContain('type must be one of SvcLDA, SvcQDA, SvcProbit');
    const badCount = await cli([...publishArgs(file, 'p300_other_v1'), '--n-classes', 'two']);
    expect(badCount.stderr).toContain('--n-classes must be an integer');
    const badMetadata = await cli([...publishArgs(file, 'p300_other_v1'), '--metadata', '{oops']);
    expect(badMetadata.stderr).toContain('--metadata must be a JSON object');
    const noFile = await cli(publishArgs(join(folder, 'missing.bin'), 'p300_other_v1'));
    expect(noFile.status).toBe(1);
    expect(noFile.stderr).toContain('cannot read the model file');
    const unknownOwner = await cli([...publishArgs(file, 'p300_other_v1', ['--owner', 'usr_nobody']), '--requires-license', 'enterprise']);
    expect(unknownOwner.stderr).toMatch(/^USER_NOT_FOUND/);
    const missing = await cli(['models', 'show', 'nope']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/^MODEL_NOT_FOUND: Model not found/);
    expect(readdirSync(join(folder, 'models'))).toHaveLength(1);
  });

  it('delete removes the record and its stored file', async () => {
    const before = JSON.parse((await cli(['models', 'show', 'p300_cli_v3', '--json'])).stdout);
    const res = await cli(['models', 'delete', 'p300_cli_v3', '--json']);
    expect(res.status).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ name: 'p300_cli_v3', deleted: true });
    expect(readdirSync(join(folder, 'models'))).not.toContain(before.stored_file);
    expect((await cli(['models', 'show', 'p300_cli_v3'])).status).toBe(1);
    const again = await cli(['models', 'delete', 'p300_cli_v3']);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/^MODEL_NOT_FOUND/);
  });

  it('every change made through the CLI is an audit event with the channel cli', async () => {
    const audit = JSON.parse((await cli(['audit', '--json'])).stdout);
    const models = audit.entries
      .filter((e: { action: string }) => e.action.startsWith('model.'))
      .map((e: { action: string; key_id: string | null; details: Record<string, unknown> }) => ({
        action: e.action,
        key_id: e.key_id,
        ...e.details,
      }));
    expect(models).toEqual([
      {
        action: 'model.deleted',
        key_id: null,
        model: 'p300_cli_v3',
        version: '3.0.1',
        checksum: expect.stringMatching(/^sha256:/),
        channel: 'cli',
      },
      {
        action: 'model.created',
        key_id: null,
        model: 'p300_custom_v1',
        version: '3.0.1',
        checksum: modelChecksum(Buffer.from('custom model bytes')),
        channel: 'cli',
      },
      {
        action: 'model.created',
        key_id: null,
        model: 'p300_cli_v3',
        version: '3.0.1',
        checksum: expect.stringMatching(/^sha256:/),
        channel: 'cli',
      },
    ]);
  });

  it('sweep removes a file no record names, keeps a named one and a young one, discards uploads unfinished for over a day, and says what it removed', async () => {
    const bytes = randomBytes(1000);
    const file = join(folder, 'p300_kept_v1.bin');
    writeFileSync(file, bytes);
    const kept = JSON.parse((await cli([...publishArgs(file, 'p300_kept_v1'), '--json'])).stdout).stored_file as string;
    const store = join(folder, 'models');
    const orphan = 'p300_gone_v1-1.0-0123456789abcdef01234567.bin';
    const young = 'p300_young_v1-1.0-89abcdef0123456789abcdef.bin';
    writeFileSync(join(store, orphan), 'orphan');
    writeFileSync(join(store, young), 'just written');
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(join(store, orphan), hourAgo, hourAgo);
    utimesSync(join(store, kept), hourAgo, hourAgo);
    // what a process stopped mid-upload leaves: a temporary, here two days old, and one being written now
    const stale = '.upload-00112233445566778899aabb.tmp';
    const writing = '.upload-ffeeddccbbaa998877665544.tmp';
    writeFileSync(join(store, stale), 'half of a file');
    writeFileSync(join(store, writing), 'half of another');
    const twoDaysAgo = new Date(Date.now() - 48 * 3_600_000);
    utimesSync(join(store, stale), twoDaysAgo, twoDaysAgo);

    const res = await cli(['models', 'sweep', '--json']);
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ removed: [orphan], kept: 2, aborted_uploads: [stale] });
    expect(readdirSync(store).sort()).toEqual([kept, young, writing].sort());
    rmSync(join(store, writing));
    expect(readFileSync(join(store, kept)).equals(bytes)).toBe(true);

    utimesSync(join(store, young), hourAgo, hourAgo);
    const text = await cli(['models', 'sweep']);
    expect(text.status).toBe(0);
    expect(text.stdout).toContain(young);
    expect(readdirSync(store)).toEqual([kept]);
    expect((await cli(['models', 'sweep'])).stdout).toContain('Nothing to remove');
  });
});
