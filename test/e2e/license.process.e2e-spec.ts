import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { type Jwks, fetchJwks } from '../harness/license-token';
import { BUILT_API, ServiceProcess } from '../harness/service-process';

/**
 * CONTRACT 15, the service as a process on the embedded default (a SQLite file, whichever project
 * runs the suite, so it runs once): the generated signing key survives a restart, and a bad
 * configured key stops the start with one line. The database-backed rules are in license.e2e.
 */

function ed25519PublicKey(): string {
  return generateKeyPairSync('ed25519', {
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }).publicKey;
}

/** The built service as a process: restarts and start-up refusals (SQLite, the embedded default). */
describe('Offline licenses: the signing key of the service process', () => {
  let folder: string;
  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'svc-license-process-'))));
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  const embedded = () => ({
    DATABASE_URL: `sqlite:${join(folder, 'service.db')}`,
    MODEL_STORE_DIR: join(folder, 'models'),
    SAMPLE_MODELS: 'false',
  });

  it('restarting on the embedded default keeps the generated key (in the database): the JWKS and earlier tokens stay valid', async () => {
    const first = await ServiceProcess.start(embedded());
    let jwks: Jwks;
    try {
      jwks = await fetchJwks(first.baseUrl);
    } finally {
      await first.stop();
    }
    expect(existsSync(join(folder, 'license-signing-key.pem'))).toBe(false);

    const second = await ServiceProcess.start(embedded());
    try {
      expect(await fetchJwks(second.baseUrl)).toEqual(jwks);
    } finally {
      await second.stop();
    }
    const database = new Sqlite(join(folder, 'service.db'), { readonly: true });
    const { private_key: pem } = database.prepare('SELECT private_key FROM license_signing_keys').get() as { private_key: string };
    database.close();
    const keyBody = pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
    expect(first.output + second.output).not.toContain(keyBody);
  });

  function startRefused(env: Record<string, string>): { status: number | null; lines: string[] } {
    const ran = spawnSync(process.execPath, [BUILT_API], {
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', ...embedded(), ...env },
      encoding: 'utf8',
      timeout: 20_000,
    });
    return { status: ran.status, lines: `${ran.stdout}${ran.stderr}`.split('\n').filter((line) => line.trim() !== '') };
  }

  it('a bad LICENSE_SIGNING_KEY or an unreadable file stops start-up with one line naming the variable, never the value', () => {
    const rsa = generateKeyPairSync('rsa', {
      modulusLength: 1024,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const public25519 = ed25519PublicKey();
    for (const value of ['not-a-key', rsa.privateKey, public25519]) {
      const refused = startRefused({ LICENSE_SIGNING_KEY: value });
      expect(refused.status).toBe(1);
      expect(refused.lines).toEqual([expect.stringMatching(/^Invalid configuration: LICENSE_SIGNING_KEY must be an Ed25519 private key/)]);
      expect(refused.lines.join('\n')).not.toContain(value.split('\n')[1] ?? value);
    }
    const unreadable = startRefused({ LICENSE_SIGNING_KEY_FILE: join(folder, 'absent.pem') });
    expect(unreadable).toEqual({ status: 1, lines: ['Invalid configuration: LICENSE_SIGNING_KEY_FILE cannot be read'] });
    writeFileSync(join(folder, 'verify.pem'), rsa.publicKey);
    const wrongOld = startRefused({ LICENSE_VERIFY_KEYS_FILE: join(folder, 'verify.pem') });
    expect(wrongOld).toEqual({
      status: 1,
      lines: ['Invalid configuration: LICENSE_VERIFY_KEYS_FILE must hold Ed25519 public keys: a JWKS or PEM public keys'],
    });
  });
});
