import { FixedClock, InvalidRequestError, KeyNotFoundError } from '@svc/domain';
import {
  InMemoryAnalyticsEventRepository,
  InMemoryApiKeyRepository,
  InMemoryAuditLog,
  InMemoryKeyDirectory,
  InMemoryUsageRepository,
  InMemoryUserRepository,
  InMemoryDeviceRepository,
} from '../../../../test/in-memory';
import { makeAnalyticsEvent, makeApiKey, makeAuditEntry, makeUser, shippedTierCatalog } from '../../../../test/factories/domain.factory';
import { ListAudit } from '../audit/list-audit.use-case';
import { ListKeys } from '../keys/list-keys.use-case';
import { ReportDailyUsage } from './report-daily-usage.use-case';
import { ShowOverview } from './show-overview.use-case';

const NOW = new Date('2026-05-20T12:00:00.000Z');
const at = (iso: string) => new Date(iso);

describe('the console reads (ListKeys, ReportDailyUsage, ShowOverview, ListAudit.page)', () => {
  let keys: InMemoryApiKeyRepository;
  let users: InMemoryUserRepository;
  let usage: InMemoryUsageRepository;
  let events: InMemoryAnalyticsEventRepository;
  let audit: InMemoryAuditLog;
  const clock = new FixedClock(NOW);
  const catalog = shippedTierCatalog();

  beforeEach(() => {
    audit = new InMemoryAuditLog();
    keys = new InMemoryApiKeyRepository(audit);
    users = new InMemoryUserRepository();
    usage = new InMemoryUsageRepository();
    events = new InMemoryAnalyticsEventRepository(usage);
    clock.set(NOW);
  });

  async function seed(overrides: Parameters<typeof makeApiKey>[0] = {}) {
    const user = makeUser({ email: 'ada@example.org' });
    await users.insert(user);
    const key = makeApiKey({ userId: user.id, ...overrides });
    await keys.insert(key);
    return key;
  }

  describe(ListKeys.name, () => {
    it('pages newest first with a limit, and says where the next page starts; statuses and limits as the domain says', async () => {
      const list = new ListKeys(new InMemoryKeyDirectory(keys, users, usage), catalog, clock);
      await seed({ id: 'key_old', createdAt: at('2026-01-01T00:00:00Z'), expiresAt: at('2026-02-01T00:00:00Z') });
      const mid = await seed({ id: 'key_mid', createdAt: at('2026-02-01T00:00:00Z'), monthlyLimit: { source: 'override', limit: null } });
      await seed({ id: 'key_new', createdAt: at('2026-03-01T00:00:00Z'), licenseType: 'free' });

      const first = await list.execute({ limit: 2 });
      expect(first.keys.map((k) => [k.key.id, k.status, k.monthlyLimit])).toEqual([
        ['key_new', 'active', 10000],
        ['key_mid', 'active', null],
      ]);
      expect(first.next).toEqual({ createdAt: mid.props.createdAt, id: 'key_mid' });
      const second = await list.execute({ limit: 2, after: first.next ?? undefined });
      expect(second.keys.map((k) => [k.key.id, k.status])).toEqual([['key_old', 'expired']]);
      expect(second.next).toBeNull();
      expect((await list.execute({})).keys).toHaveLength(3);
    });
  });

  describe(ReportDailyUsage.name, () => {
    const report = () => new ReportDailyUsage(keys, events, clock);

    it('answers every day of the current month up to today by default, inferences only, and the range tallied', async () => {
      const key = await seed();
      const log = (iso: string, over: Partial<Parameters<typeof makeAnalyticsEvent>[0]> = {}) =>
        events.appendConsuming(makeAnalyticsEvent({ keyId: key.id, receivedAt: at(iso), period: iso.slice(0, 7), ...over }), 0, null);
      await log('2026-05-02T10:00:00.000Z');
      await log('2026-05-02T11:00:00.000Z', { eventType: 'error', success: false });
      await log('2026-04-30T23:59:59.999Z');

      const daily = await report().execute({ keyId: key.id });

      expect(daily.from).toBe('2026-05-01');
      expect(daily.to).toBe('2026-05-20');
      expect(daily.days).toHaveLength(20);
      expect(daily.days.slice(0, 3)).toEqual([
        { date: '2026-05-01', inferences: 0, byKey: {} },
        { date: '2026-05-02', inferences: 1, byKey: { [key.id]: 1 } },
        { date: '2026-05-03', inferences: 0, byKey: {} },
      ]);
      expect(daily.byEventType).toEqual({ inference: 1, model_load: 0, error: 1 });
      expect(daily.byOutcome).toEqual({ success: 1, failure: 1, unreported: 0 });
    });

    it('refuses bad days, a reversed range and more than 366 days before looking for the key; an unknown key is KEY_NOT_FOUND', async () => {
      const key = await seed();
      await expect(report().execute({ keyId: key.id, from: '2026-02-30' })).rejects.toBeInstanceOf(InvalidRequestError);
      await expect(report().execute({ keyId: key.id, from: '2026-05-02', to: '2026-05-01' })).rejects.toBeInstanceOf(InvalidRequestError);
      await expect(report().execute({ keyId: key.id, from: '2025-05-18', to: '2026-05-19' })).rejects.toBeInstanceOf(InvalidRequestError);
      await expect(report().execute({ keyId: key.id, from: '2025-05-20', to: '2026-05-20' })).resolves.toMatchObject({
        from: '2025-05-20',
      });
      await expect(report().execute({ keyId: 'key_nope', to: 'x' })).rejects.toBeInstanceOf(InvalidRequestError);
      await expect(report().execute({ keyId: 'key_nope' })).rejects.toBeInstanceOf(KeyNotFoundError);
    });
  });

  describe(ShowOverview.name, () => {
    it('counts every tier and status, fills 30 days, lists keys near quota and the latest audit entries', async () => {
      const near = await seed({ licenseType: 'free', monthlyLimit: { source: 'override', limit: 10 } });
      await seed({ licenseType: 'enterprise', revokedAt: at('2026-05-01T00:00:00Z') });
      usage.consumeNow(near.id, '2026-05', 9, null);
      await events.appendConsuming(
        makeAnalyticsEvent({ keyId: near.id, receivedAt: at('2026-04-21T00:00:00Z'), period: '2026-04' }),
        0,
        null,
      );
      for (let i = 0; i < 12; i++) await audit.append(makeAuditEntry({ at: new Date(NOW.getTime() - i * 1000) }));

      const overview = await new ShowOverview(
        new InMemoryKeyDirectory(keys, users, usage),
        events,
        audit,
        catalog,
        clock,
        new InMemoryDeviceRepository(keys, audit),
      ).execute();

      expect(overview.keysByTier).toEqual({ free: 1, research: 0, commercial: 0, enterprise: 1 });
      expect(overview.keysByStatus).toEqual({ active: 1, expired: 0, revoked: 1 });
      expect(overview.eventsPerDay).toHaveLength(30);
      expect(overview.eventsPerDay[0]).toEqual({ date: '2026-04-21', events: 1 });
      expect(overview.eventsPerDay[29]).toEqual({ date: '2026-05-20', events: 0 });
      expect(overview.nearQuota.map((u) => [u.key.id, u.used, u.monthlyLimit])).toEqual([[near.id, 9, 10]]);
      expect(overview.recentAudit).toHaveLength(10);
    });
  });

  describe('ListAudit.page', () => {
    it('pages newest first and refuses an unknown key', async () => {
      for (let i = 0; i < 5; i++) await audit.append(makeAuditEntry({ id: `aud_${i}`, at: new Date(NOW.getTime() + i) }));
      const list = new ListAudit(audit, keys);
      const first = await list.page({ limit: 3 });
      expect(first.entries.map((e) => e.id)).toEqual(['aud_4', 'aud_3', 'aud_2']);
      const second = await list.page({ limit: 3, after: first.next ?? undefined });
      expect(second.entries.map((e) => e.id)).toEqual(['aud_1', 'aud_0']);
      expect(second.next).toBeNull();
      await expect(list.page({ keyId: 'key_nope' })).rejects.toBeInstanceOf(KeyNotFoundError);
    });
  });
});
