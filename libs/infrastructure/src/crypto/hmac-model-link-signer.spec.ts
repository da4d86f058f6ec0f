import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HmacModelLinkSigner, modelUrlSecretOf } from './hmac-model-link-signer';

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
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'svc-secret-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('uses MODEL_URL_SECRET when set, writing nothing', async () => {
    await expect(modelUrlSecretOf(SECRET, join(folder, 'model-url.secret'))).resolves.toBe(SECRET);
    expect(() => statSync(join(folder, 'model-url.secret'))).toThrow();
  });

  it('generates a secret once (mode 0600, folder created) and reads the same one back', async () => {
    const file = join(folder, 'data', 'model-url.secret');
    const first = await modelUrlSecretOf(null, file);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await expect(modelUrlSecretOf(null, file)).resolves.toBe(first);
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
  });

  it('instances starting together agree on one secret', async () => {
    const file = join(folder, 'model-url.secret');
    const secrets = await Promise.all(Array.from({ length: 8 }, () => modelUrlSecretOf(null, file)));
    expect(new Set(secrets).size).toBe(1);
  });

  it('refuses a file that is not a generated secret, without echoing it', async () => {
    const file = join(folder, 'model-url.secret');
    writeFileSync(file, 'short');
    const error = await modelUrlSecretOf(null, file).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).not.toContain('short');
  });
});
