import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FixedClock, LicenseKeySchedule, type LicenseSigningKey } from '@svc/domain';
import { InMemoryLicenseSigningKeyRepository } from '../../../../test/in-memory/in-memory-generated-secrets';
import { KeptLicenseSigner, kidOf, newLicenseKeyPair } from './ed25519-license-signer';

const T0 = new Date('2026-03-15T12:00:00Z');

/** Counts the reads, and fails them while `down`. */
class WatchedKeys extends InMemoryLicenseSigningKeyRepository {
  reads = 0;
  down = false;
  override async list(): Promise<LicenseSigningKey[]> {
    this.reads += 1;
    if (this.down) throw new Error('database unreachable');
    return super.list();
  }
}

describe(KeptLicenseSigner.name, () => {
  const schedule = new LicenseKeySchedule(3600, 86_400);
  let folder: string;
  let clock: FixedClock;
  let keys: WatchedKeys;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'svc-kept-signer-'));
    clock = new FixedClock(T0);
    keys = new WatchedKeys();
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it("keeps a first key when there is none, and takes over an earlier version's file instead of generating one", async () => {
    const earlier = newLicenseKeyPair().privateKey.trim();
    writeFileSync(join(folder, 'license-signing-key.pem'), `${earlier}\n`);
    const signer = await KeptLicenseSigner.open(keys, schedule, clock, join(folder, 'license-signing-key.pem'));
    expect(await keys.list()).toEqual([{ generation: 1, privateKey: earlier, createdAt: T0, signsFrom: T0 }]);
    expect(await signer.signingKeyAt(T0)).toBe(await kidOf(earlier));
    // an instance opening later reads the same key, whatever its own files say
    const other = await KeptLicenseSigner.open(keys, schedule, clock, join(folder, 'absent.pem'));
    expect(await other.publicKeys(T0)).toEqual(await signer.publicKeys(T0));
  });

  it('reads the keys again at most once a minute, and goes on with the keys it read while the database does not answer', async () => {
    const signer = await KeptLicenseSigner.open(keys, schedule, clock, join(folder, 'absent.pem'));
    const first = await signer.signingKeyAt(T0);
    const rotated = schedule.next(await keys.list(), newLicenseKeyPair().privateKey.trim(), T0);
    await keys.addIfAbsent(rotated);
    const reads = keys.reads;

    clock.advance(59_999);
    expect((await signer.publicKeys(clock.now())).map((key) => key.kid)).toEqual([first]);
    expect(keys.reads).toBe(reads);

    keys.down = true;
    clock.advance(1);
    expect((await signer.publicKeys(clock.now())).map((key) => key.kid)).toEqual([first]);
    expect(keys.reads).toBe(reads + 1);

    keys.down = false;
    clock.advance(60_000);
    expect((await signer.publicKeys(clock.now())).map((key) => key.kid)).toEqual([first, await kidOf(rotated.privateKey)]);
    expect(await signer.signingKeyAt(clock.now())).toBe(first);
    expect(await signer.signingKeyAt(rotated.signsFrom)).toBe(await kidOf(rotated.privateKey));
  });
});
