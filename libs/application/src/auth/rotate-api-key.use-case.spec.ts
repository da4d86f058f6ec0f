import { ApiKeyFormat, FixedClock, KeyRotationPolicy } from '@svc/domain';
import { Sha256SecretHasher } from '@svc/infrastructure/crypto/sha256-secret-hasher';
import { InMemoryApiKeyRepository, InMemoryAuditLog } from '../../../../test/in-memory';
import {
  DAY_MS,
  ScriptedRandomSource,
  SequentialIdGenerator,
  T0,
  makeApiKey,
  revokeAlone,
} from '../../../../test/factories/domain.factory';
import { KeyRevocation } from '../shared/key-revocation';
import { KeyRotator } from '../shared/key-rotator';
import { RotateApiKey } from './rotate-api-key.use-case';

const hasher = new Sha256SecretHasher(null);
import { offlineLicensesOver } from '../../../../test/factories/license-signers';

describe(RotateApiKey.name, () => {
  let keys: InMemoryApiKeyRepository;
  let audit: InMemoryAuditLog;
  let clock: FixedClock;
  let rotate: RotateApiKey;
  let revocation: KeyRevocation;

  beforeEach(() => {
    audit = new InMemoryAuditLog();
    keys = new InMemoryApiKeyRepository(audit);
    clock = new FixedClock(T0);
    const ids = new SequentialIdGenerator();
    const rotator = new KeyRotator(
      new ApiKeyFormat('svc'),
      hasher,
      new ScriptedRandomSource(),
      ids,
      keys,
      clock,
      new KeyRotationPolicy(3600, 90),
      offlineLicensesOver(keys).licenses,
    );
    rotate = new RotateApiKey(rotator, keys);
    revocation = new KeyRevocation(keys, clock, ids);
  });

  it('stores the successor by its digest, answers the secret once, and audits both keys without it', async () => {
    const old = makeApiKey();
    await keys.insert(old);
    const out = await rotate.execute({ key: old });
    expect(out.secret).toMatch(/^svc_live_[0-9a-f]{48}$/);
    expect((await keys.findByDigest(hasher.digest(out.secret)))?.id).toBe(out.key.id);
    expect(out.previousKeyExpiresAt).toEqual(new Date(T0.getTime() + 3_600_000));
    const entries = await audit.list({ limit: 10 });
    expect(entries.map((e) => [e.action, e.keyId])).toEqual(
      expect.arrayContaining([
        ['key.rotated', old.id],
        ['key.rotated', out.key.id],
      ]),
    );
    expect(JSON.stringify(entries)).not.toContain(out.secret);
  });

  it('refuses a key already rotated (KEY_ROTATED), and a grace out of bounds (INVALID_REQUEST)', async () => {
    const old = makeApiKey();
    await keys.insert(old);
    await rotate.execute({ key: old });
    await expect(rotate.execute({ key: old })).rejects.toMatchObject({ code: 'KEY_ROTATED' });
    const other = makeApiKey();
    await keys.insert(other);
    await expect(rotate.execute({ key: other, graceSeconds: 604_801 })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
  });

  it('answers INVALID_KEY when a revocation won the race', async () => {
    const old = makeApiKey();
    await keys.insert(old);
    await revokeAlone(keys, old.id, T0);
    await expect(rotate.execute({ key: old })).rejects.toMatchObject({ code: 'INVALID_KEY' });
  });

  it("revoking the license's current key revokes a predecessor in its grace; revoking a predecessor leaves the current key", async () => {
    const old = makeApiKey();
    await keys.insert(old);
    const next = await rotate.execute({ key: old });
    clock.advance(DAY_MS / 48);
    await expect(revocation.revoke(next.key.id, 'leaked', { type: 'key', keyId: next.key.id })).resolves.toBe(true);
    expect((await keys.findById(old.id))?.revokedAt).toEqual(clock.now());

    const a = makeApiKey();
    await keys.insert(a);
    const b = await rotate.execute({ key: a });
    await revocation.revoke(a.id, null, { type: 'bootstrap' });
    expect((await keys.findById(b.key.id))?.revokedAt).toBeNull();
  });
});
