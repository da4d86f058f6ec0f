import { ApiKeyFormat, FixedClock, KeyNotFoundError } from '@svc/domain';
import { Sha256SecretHasher } from '@svc/infrastructure/crypto/sha256-secret-hasher';
import {
  InMemoryApiKeyRepository,
  InMemoryAuditLog,
  InMemoryUsageRepository,
  InMemoryUserRepository,
  InMemoryDeviceRepository,
} from '../../../../test/in-memory';
import { ScriptedRandomSource, SequentialIdGenerator, T0, shippedTierCatalog } from '../../../../test/factories/domain.factory';
import { RevokeApiKey } from '../auth/revoke-api-key.use-case';
import { KeyRevocation } from '../shared/key-revocation';
import { IssueApiKey } from '../keys/issue-api-key.use-case';
import { ListAudit } from './list-audit.use-case';
import { ShowApiKey } from '../keys/show-api-key.use-case';
import { UpdateApiKey } from '../keys/update-api-key.use-case';

/** The actor of the changes these tests make. */
const BY = { type: 'bootstrap' } as const;
import { offlineLicensesOver } from '../../../../test/factories/license-signers';

describe(ListAudit.name, () => {
  const hasher = new Sha256SecretHasher(null);
  const format = new ApiKeyFormat('svc');
  let keys: InMemoryApiKeyRepository;
  let audit: InMemoryAuditLog;
  let clock: FixedClock;
  let issue: IssueApiKey;
  let update: UpdateApiKey;
  let revoke: RevokeApiKey;
  let list: ListAudit;

  beforeEach(() => {
    audit = new InMemoryAuditLog();
    keys = new InMemoryApiKeyRepository(audit);
    const users = new InMemoryUserRepository();
    const usage = new InMemoryUsageRepository();
    clock = new FixedClock(T0);
    const ids = new SequentialIdGenerator();
    const catalog = shippedTierCatalog();
    const { licenses } = offlineLicensesOver(keys);
    issue = new IssueApiKey(format, hasher, new ScriptedRandomSource(), ids, keys, users, clock, catalog, licenses);
    const devices = new InMemoryDeviceRepository(keys, audit);
    update = new UpdateApiKey(
      keys,
      new ShowApiKey(keys, users, usage, catalog, clock, devices),
      audit,
      clock,
      ids,
      catalog,
      licenses,
      devices,
    );
    revoke = new RevokeApiKey(new KeyRevocation(keys, clock, ids));
    list = new ListAudit(audit, keys);
  });

  /** Issues a key, upgrades it a minute later and revokes it another minute later. */
  async function lifecycleOfOneKey(): Promise<string> {
    const issued = await issue.execute({ email: 'ada@example.org', licenseType: 'free', actor: BY });
    clock.advance(60_000);
    await update.execute({ keyId: issued.key.id, licenseType: 'research', actor: BY, role: 'owner' });
    clock.advance(60_000);
    await revoke.execute({ key: issued.key, reason: 'rotated' });
    clock.advance(60_000);
    return issued.key.id;
  }

  it("lists one key's trail newest first", async () => {
    const keyId = await lifecycleOfOneKey();

    const entries = await list.execute({ keyId });

    expect(entries.map((e) => [e.action, e.at.toISOString()])).toEqual([
      ['key.revoked', '2026-03-15T12:02:00.000Z'],
      ['key.updated', '2026-03-15T12:01:00.000Z'],
      ['key.issued', '2026-03-15T12:00:00.000Z'],
    ]);
    expect(entries[0].reason).toBe('rotated');
  });

  it("keeps other keys' entries out of one key's trail, and lists all keys when none is named", async () => {
    const first = await lifecycleOfOneKey();
    const second = await lifecycleOfOneKey();

    const mine = await list.execute({ keyId: first });
    const all = await list.execute({});

    expect(mine.every((e) => e.keyId === first)).toBe(true);
    expect(mine).toHaveLength(3);
    expect(all).toHaveLength(6);
    expect(all.slice(0, 3).every((e) => e.keyId === second)).toBe(true);
    expect(all.map((e) => e.at.getTime())).toEqual([...all.map((e) => e.at.getTime())].sort((a, b) => b - a));
  });

  it('answers KeyNotFoundError for an unknown key', async () => {
    await expect(list.execute({ keyId: 'key_missing' })).rejects.toBeInstanceOf(KeyNotFoundError);
  });

  it('answers an empty trail when nothing happened yet', async () => {
    await expect(list.execute({})).resolves.toEqual([]);
  });
});
