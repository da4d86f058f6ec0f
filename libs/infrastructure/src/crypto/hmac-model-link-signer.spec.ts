import { createHmac } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FixedClock } from '@svc/domain';
import { InMemoryGeneratedSecretRepository } from '../../../../test/in-memory/in-memory-generated-secrets';
import { HmacModelLinkSigner, MODEL_LINK_SECRET, modelUrlSecretOf } from './hmac-model-link-signer';

const SECRET = 'a-model-url-secret-of-32-characters!!';

describe(HmacModelLinkSigner.name, () => {
  const signer = new HmacModelLinkSigner(SECRET);

  it('signs with HMAC-SHA256 in base64url, no padding', () => {
    expect(signer.sign('GET\n/model-files/x.bin\n1800000000')).toBe(
      createHmac('sha256', SECRET).update('GET\n/model-files/x.bin\n1800000000').digest('base64url'),
    );
    expect(signer.sign('x')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('verifies its own signatures, and refuses another payload, another secret, or a malformed signature', () => {
    const signature = signer.sign('payload');
    expect(signer.verify('payload', signature)).toBe(true);
    expect(signer.verify('payload!', signature)).toBe(false);
    expect(new HmacModelLinkSigner(`${SECRET}x`).verify('payload', signature)).toBe(false);
    expect(signer.verify('payload', signature.slice(1))).toBe(false);
    expect(signer.verify('payload', '')).toBe(false);
    expect(signer.verify('payload', `${signature}AAAA`)).toBe(false);
  });

  it('instances with one secret accept each other', () => {
    expect(new HmacModelLinkSigner(SECRET).verify('p', new HmacModelLinkSigner(SECRET).sign('p'))).toBe(true);
  });
});

describe(modelUrlSecretOf.name, () => {
  const clock = new FixedClock(new Date('2026-03-15T12:00:00Z'));
  let folder: string;
  let secrets: InMemoryGeneratedSecretRepository;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'svc-secret-'));
    secrets = new InMemoryGeneratedSecretRepository();
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('uses MODEL_URL_SECRET when set, keeping nothing in the database', async () => {
    await expect(modelUrlSecretOf(SECRET, join(folder, 'model-url.secret'), secrets, clock)).resolves.toBe(SECRET);
    await expect(secrets.find(MODEL_LINK_SECRET)).resolves.toBeNull();
  });

  it('generates a secret once, keeps it in the database, writes no file, and reads the same one back', async () => {
    const file = join(folder, 'data', 'model-url.secret');
    const first = await modelUrlSecretOf(null, file, secrets, clock);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await expect(secrets.find(MODEL_LINK_SECRET)).resolves.toBe(first);
    expect(existsSync(file)).toBe(false);
    await expect(modelUrlSecretOf(null, file, secrets, clock)).resolves.toBe(first);
  });

  it("takes over an earlier version's file when the database has none, and ignores it once the database has one", async () => {
    const file = join(folder, 'model-url.secret');
    const earlier = 'E'.repeat(43);
    writeFileSync(file, `${earlier}\n`, { mode: 0o600 });
    await expect(modelUrlSecretOf(null, file, secrets, clock)).resolves.toBe(earlier);
    writeFileSync(file, `${'F'.repeat(43)}\n`);
    await expect(modelUrlSecretOf(null, file, secrets, clock)).resolves.toBe(earlier);
  });

  it('instances starting together agree on one secret', async () => {
    const file = join(folder, 'model-url.secret');
    const agreed = await Promise.all(Array.from({ length: 8 }, () => modelUrlSecretOf(null, file, secrets, clock)));
    expect(new Set(agreed).size).toBe(1);
  });

  it('refuses an earlier file that is not a generated secret, without echoing it', async () => {
    const file = join(folder, 'model-url.secret');
    writeFileSync(file, 'short');
    const error = await modelUrlSecretOf(null, file, secrets, clock).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).not.toContain('short');
  });
});
