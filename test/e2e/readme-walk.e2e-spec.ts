import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, ServiceProcess } from '../harness/service-process';

/**
 * The README's "A first key, end to end" walk, pasted as a reader pastes it: its shell block is read
 * from README.md and run by bash, steps 1 to 5, against the built service started as step 0 starts it
 * (`ADMIN_TOKEN`, `INSTALLER_GITHUB_TOKEN=ghp_example`, the embedded SQLite default; here on a new
 * file and a free port, so `localhost:3000` is replaced by that port). Each step's answer is held to
 * what the README shows after its `->`. A README edit that breaks a pasted command fails here.
 */
const WALK_HEADING = '## A first key, end to end';
const ADMIN_TOKEN = 'readme-walk-admin-token-0123456789abcdef';

/** The walk's shell block without step 0 (which starts the service: done here). */
function walkScript(readme: string): string {
  const section = readme.slice(readme.indexOf(WALK_HEADING));
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error(`README.md: no sh block under "${WALK_HEADING}"`);
  const steps = block[1];
  const first = steps.indexOf('\n# 1.');
  if (first < 0) throw new Error('README.md: the walk has no step 1');
  return steps.slice(first);
}

function bash(script: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 100_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('README: the first key, end to end, pasted into bash', () => {
  let folder: string;
  let service: ServiceProcess;
  let ran: { code: number | null; stdout: string; stderr: string };
  let lines: string[];

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'svc-readme-'));
    const env = { DATABASE_URL: `sqlite:${join(folder, 'service.db')}`, MODEL_STORE_DIR: join(folder, 'models') };
    service = await ServiceProcess.start({ ...env, ADMIN_TOKEN, INSTALLER_GITHUB_TOKEN: 'ghp_example' });
    const port = new URL(service.baseUrl).port;
    const script = walkScript(readFileSync(join(ROOT, 'README.md'), 'utf8')).replaceAll('localhost:3000', `127.0.0.1:${port}`);
    ran = await bash(script, { PATH: process.env.PATH ?? '', HOME: folder, ...env });
    lines = ran.stdout.split('\n').filter((line) => line !== '');
  }, 150_000);

  afterAll(async () => {
    await service?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  /** The first output line that parses as JSON with `field`. */
  function answerWith(field: string): Record<string, unknown> {
    for (const line of lines) {
      try {
        const parsed = JSON.parse(line) as Record<string, unknown>;
        if (parsed !== null && typeof parsed === 'object' && field in parsed) return parsed;
      } catch {
        // a line of plain text (sha256sum, jq -r)
      }
    }
    throw new Error(`no answer with ${field} in: ${ran.stdout}\n${ran.stderr}`);
  }

  it('runs to its end: every command exits 0', () => {
    expect({ code: ran.code, stderr: ran.stderr.replace(/^svc-licensing CLI: database .*\n/gm, '') }).toEqual({ code: 0, stderr: '' });
  });

  it('1-2: the CLI issues a research key and the service validates it', () => {
    const created = answerWith('key_id');
    expect(created).toMatchObject({ license_type: 'research' });
    expect(created.api_key).toMatch(/^svc_live_[0-9a-f]{48}$/);
    expect(answerWith('valid')).toMatchObject({
      valid: true,
      email: 'ada@example.org',
      name: 'Ada Lovelace',
      license_type: 'research',
      quota: { monthly_limit: 50000, used: 0, remaining: 50000 },
    });
  });

  it('3: the installer token, the models, the downloaded file matches its checksum, one event and a batch', () => {
    expect(answerWith('models').models).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'motor_imagery_4class_v1' })]));
    const digests = lines.filter((line) => /^(sha256:)?[0-9a-f]{64}\b/.test(line)).map((line) => /[0-9a-f]{64}/.exec(line)![0]);
    expect(digests).toHaveLength(2);
    expect(digests[0]).toBe(digests[1]);
    expect(answerWith('results')).toMatchObject({
      accepted: 2,
      results: [
        { index: 0, status: 202 },
        { index: 1, status: 202 },
      ],
    });
  });

  it('4-5: the rotated key stays valid after the old one is revoked (401 INVALID_KEY)', () => {
    expect(answerWith('previous_key_expires_at').api_key).toMatch(/^svc_live_/);
    expect(answerWith('revoked')).toMatchObject({ revoked: true });
    expect(answerWith('error')).toMatchObject({ code: 'INVALID_KEY' });
    expect(lines.at(-1)).toBe('true');
  });

  it('then: the console answers and takes the ADMIN_TOKEN of step 0', async () => {
    const page = await fetch(`${service.baseUrl}/console/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const me = await fetch(`${service.baseUrl}/admin/v1/me`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(me.status).toBe(200);
  });

  it("the CLI section's list finds Ada's active key (the rotated one) by her address in another case", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const command = /^npm run -s cli -- keys list --email \S+ --status active/m.exec(readme.slice(readme.indexOf('## Operator CLI')));
    expect(command).not.toBeNull();
    const listed = await bash(`${command![0]} --json`, {
      PATH: process.env.PATH ?? '',
      HOME: folder,
      DATABASE_URL: `sqlite:${join(folder, 'service.db')}`,
    });
    expect(listed.code).toBe(0);
    const page = JSON.parse(listed.stdout) as { keys: { key_id: string; status: string }[] };
    expect(page.keys).toEqual([expect.objectContaining({ key_id: answerWith('previous_key_expires_at').key_id, status: 'active' })]);
  });
});
