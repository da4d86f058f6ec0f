import { randomBytes } from 'node:crypto';
import {
  type AttemptRecord,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEvent,
  type WebhookEventType,
  WebhookDeliveryQueue,
  WebhookEndpointRepository,
  WebhookOutbox,
  keyExpiringEvent,
  quotaNoticeId,
  webhookBodyOf,
} from '@svc/domain';
import { T0, makeAnalyticsEvent, makeAuditEntry, uniqueId } from '../factories/domain.factory';
import { type MakePersistence, type PersistenceFixture, type WebhookPorts, seedKey, useFixture } from './persistence-fixture';

const SECOND = 1000;
const at = (seconds: number): Date => new Date(T0.getTime() + seconds * SECOND);
/** A lease as the dispatcher takes it, in this suite's seconds. */
const LEASE_S = 30;

export function makeEndpoint(overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  return {
    id: uniqueId('whe'),
    url: 'https://hooks.example.org/in',
    events: ['key.issued', 'model.deleted'],
    description: null,
    enabled: true,
    secret: `whsec_${uniqueId('s')}`,
    previousSecret: null,
    previousSecretExpiresAt: null,
    failingSince: null,
    disabledReason: null,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

export function makeWebhookEvent(type: WebhookEventType = 'key.issued', overrides: Partial<WebhookEvent> = {}): WebhookEvent {
  return { id: uniqueId('evt'), type, occurredAt: T0, data: { key_id: uniqueId('key') }, ...overrides };
}

/** The deliveries DispatchWebhooks makes of an event: one per subscribed endpoint, due at once. */
function deliveriesOf(event: WebhookEvent, endpoints: readonly WebhookEndpoint[]): WebhookDelivery[] {
  return endpoints
    .filter((endpoint) => endpoint.events.includes(event.type))
    .map((endpoint) => pendingDelivery(endpoint.id, { eventId: event.id, eventType: event.type, createdAt: event.occurredAt }));
}

function pendingDelivery(endpointId: string, overrides: Partial<WebhookDelivery> = {}): WebhookDelivery {
  const createdAt = overrides.createdAt ?? T0;
  return {
    id: uniqueId('msg'),
    endpointId,
    eventId: null,
    eventType: 'webhook.test',
    body: webhookBodyOf('webhook.test', createdAt, {}),
    status: 'pending',
    attempts: 0,
    nextAttemptAt: createdAt,
    lastAttemptAt: null,
    lastStatusCode: null,
    lastError: null,
    createdAt,
    ...overrides,
  };
}

const audited = (action: 'webhook.created' | 'webhook.updated' | 'webhook.deleted' | 'webhook.tested' | 'webhook.delivery_retried') =>
  makeAuditEntry({ action, keyId: null, details: { webhook_id: 'x' } });

function succeeded(deliveryId: string, leaseOwner: string, when: Date): AttemptRecord {
  return {
    deliveryId,
    leaseOwner,
    at: when,
    status: 'succeeded',
    nextAttemptAt: null,
    statusCode: 204,
    error: null,
    succeeded: true,
    disable: null,
  };
}

function failedOnce(deliveryId: string, leaseOwner: string, when: Date, next: Date): AttemptRecord {
  return {
    deliveryId,
    leaseOwner,
    at: when,
    status: 'pending',
    nextAttemptAt: next,
    statusCode: 500,
    error: 'answered 500',
    succeeded: false,
    disable: null,
  };
}

/**
 * The webhook ports on every SQL adapter (CONTRACT 20; the in-memory
 * adapters have none): endpoints stored as given (WebhookEndpointRepository),
 * each event fanned out by exactly one caller however many race and a notice
 * recorded once (WebhookOutbox), each due delivery claimed by one owner at a
 * time under a lease that only its holder may write through and that another
 * owner takes over once it has expired (WebhookDeliveryQueue); a unit of work's
 * notices kept with its change or not at all.
 */
export function describeWebhookPortsContract(make: MakePersistence): void {
  describe(`${WebhookEndpointRepository.name}, ${WebhookOutbox.name} and ${WebhookDeliveryQueue.name} contract`, () => {
    const fixture = useFixture(make);
    const hooks = (f: PersistenceFixture): WebhookPorts => {
      if (!f.webhooks) throw new Error('this adapter family has no webhook ports');
      return f.webhooks;
    };
    async function endpoint(f: PersistenceFixture, overrides: Partial<WebhookEndpoint> = {}): Promise<WebhookEndpoint> {
      const made = makeEndpoint(overrides);
      await hooks(f).endpoints.create(made, audited('webhook.created'));
      return made;
    }
    /** A test delivery of `endpointId`, stored and due at T0. */
    async function delivery(f: PersistenceFixture, endpointId: string, overrides: Partial<WebhookDelivery> = {}): Promise<WebhookDelivery> {
      const made = pendingDelivery(endpointId, overrides);
      await hooks(f).deliveries.add(made, audited('webhook.tested'));
      return made;
    }

    it('stores endpoints as given, lists them oldest first, changes and deletes them (false once gone)', async () => {
      const f = fixture();
      const later = await endpoint(f, { createdAt: at(60), updatedAt: at(60), description: 'later' });
      const first = await endpoint(f, { previousSecret: 'whsec_old', previousSecretExpiresAt: at(3600) });
      await expect(hooks(f).endpoints.find(first.id)).resolves.toEqual(first);
      expect((await hooks(f).endpoints.list()).map((e) => e.id)).toEqual([first.id, later.id]);
      const changed = {
        ...first,
        url: 'https://other.example.org/x',
        events: ['quota.warning' as const],
        description: 'd',
        updatedAt: at(5),
      };
      await expect(hooks(f).endpoints.update(changed, audited('webhook.updated'))).resolves.toBe(true);
      await expect(hooks(f).endpoints.find(first.id)).resolves.toEqual(changed);
      await expect(hooks(f).endpoints.delete(first.id, audited('webhook.deleted'))).resolves.toBe(true);
      await expect(hooks(f).endpoints.find(first.id)).resolves.toBeNull();
      await expect(hooks(f).endpoints.delete(first.id, audited('webhook.deleted'))).resolves.toBe(false);
      await expect(hooks(f).endpoints.update(changed, audited('webhook.updated'))).resolves.toBe(false);
    });

    it('fans each event out once, into one delivery per enabled endpoint subscribed to its type', async () => {
      const f = fixture();
      const keys = await endpoint(f, { events: ['key.issued'] });
      const both = await endpoint(f, { events: ['key.issued', 'model.deleted'] });
      await endpoint(f, { events: ['key.issued'], enabled: false });
      const events = [makeWebhookEvent('key.issued'), makeWebhookEvent('model.deleted', { occurredAt: at(1) })];
      await hooks(f).outbox.record(events);
      await expect(hooks(f).deliveries.depth()).resolves.toEqual({ pending: 2, oldest: T0 });

      await expect(hooks(f).outbox.fanOut(10, deliveriesOf, at(2))).resolves.toBe(2);
      await expect(hooks(f).outbox.fanOut(10, deliveriesOf, at(3))).resolves.toBe(0);
      const listed = async (id: string) =>
        (await hooks(f).deliveries.list({ endpointId: id, limit: 10 })).map((d) => [d.eventId, d.eventType, d.status]);
      expect(await listed(keys.id)).toEqual([[events[0].id, 'key.issued', 'pending']]);
      expect((await listed(both.id)).sort()).toEqual(
        [
          [events[0].id, 'key.issued', 'pending'],
          [events[1].id, 'model.deleted', 'pending'],
        ].sort(),
      );
      await expect(hooks(f).deliveries.depth()).resolves.toMatchObject({ pending: 3 });
    });

    it('of callers fanning out at once, each event is fanned out by exactly one', async () => {
      const f = fixture();
      const subscriber = await endpoint(f, { events: ['key.issued'] });
      const events = Array.from({ length: 12 }, (_, i) => makeWebhookEvent('key.issued', { occurredAt: at(i) }));
      await hooks(f).outbox.record(events);
      const counts = await Promise.all(Array.from({ length: 4 }, () => hooks(f).outbox.fanOut(5, deliveriesOf, at(60))));
      const more = await hooks(f).outbox.fanOut(50, deliveriesOf, at(61));
      expect(counts.reduce((a, b) => a + b, 0) + more).toBe(events.length);
      const made = await hooks(f).deliveries.list({ endpointId: subscriber.id, limit: 100 });
      expect(made.map((d) => d.eventId).sort()).toEqual(events.map((e) => e.id).sort());
    });

    it("lists an endpoint's deliveries newest first in pages, each page after the last one of the page before", async () => {
      const f = fixture();
      const subscriber = await endpoint(f, { events: ['key.issued'] });
      const events = Array.from({ length: 7 }, (_, i) => makeWebhookEvent('key.issued', { occurredAt: at(i) }));
      await hooks(f).outbox.record(events);
      await hooks(f).outbox.fanOut(4, deliveriesOf, at(60));
      await hooks(f).outbox.fanOut(50, deliveriesOf, at(61));
      const all = await hooks(f).deliveries.list({ endpointId: subscriber.id, limit: 100 });
      expect(all).toHaveLength(7);
      const pages: string[] = [];
      let after: WebhookDelivery | undefined;
      for (let page = 0; page < 4; page++) {
        const found = await hooks(f).deliveries.list({ endpointId: subscriber.id, status: 'pending', limit: 3, after });
        pages.push(...found.map((d) => d.id));
        after = found.at(-1);
        if (after === undefined) break;
      }
      expect(pages).toEqual(all.map((d) => d.id));
      expect(all.map((d) => d.createdAt.getTime())).toEqual([...all.map((d) => d.createdAt.getTime())].sort((a, b) => b - a));
      await expect(hooks(f).deliveries.list({ endpointId: subscriber.id, status: 'succeeded', limit: 10 })).resolves.toEqual([]);
      await expect(hooks(f).deliveries.find(subscriber.id, all[0].id)).resolves.toEqual(all[0]);
      await expect(hooks(f).deliveries.find(uniqueId('whe'), all[0].id)).resolves.toBeNull();
    });

    it('records a notice once: of writers racing with one event id, exactly one records it', async () => {
      const f = fixture();
      const notice = makeWebhookEvent('key.expiring', { id: `key.expiring:${uniqueId('key')}` });
      const recorded = await Promise.all(Array.from({ length: 6 }, () => hooks(f).outbox.recordOnce(notice)));
      expect(recorded.filter(Boolean)).toHaveLength(1);
      await expect(hooks(f).outbox.recordOnce(notice)).resolves.toBe(false);
      await expect(hooks(f).deliveries.depth()).resolves.toEqual({ pending: 1, oldest: T0 });
    });

    it('claims the deliveries due, with their endpoints, for one owner until the lease ends; another owner then takes them over', async () => {
      const f = fixture();
      const target = await endpoint(f);
      const due = await delivery(f, target.id);
      await delivery(f, target.id, { nextAttemptAt: at(600) }); // not due yet
      const claimed = await hooks(f).deliveries.claimDue('owner-a', at(1), at(1 + LEASE_S), 10, []);
      expect(claimed.map((c) => [c.delivery.id, c.endpoint.id])).toEqual([[due.id, target.id]]);
      expect(claimed[0].delivery).toMatchObject({ status: 'pending', attempts: 0, body: due.body });
      // held: no one else gets it within the lease
      await expect(hooks(f).deliveries.claimDue('owner-b', at(2), at(2 + LEASE_S), 10, [])).resolves.toEqual([]);
      // expired: taken over, and the first owner can no longer write its attempt
      const takenOver = await hooks(f).deliveries.claimDue('owner-b', at(2 + LEASE_S), at(2 + 2 * LEASE_S), 10, []);
      expect(takenOver.map((c) => c.delivery.id)).toEqual([due.id]);
      await expect(hooks(f).deliveries.recordAttempt(succeeded(due.id, 'owner-a', at(40)))).resolves.toBe(false);
      await expect(hooks(f).deliveries.recordAttempt(succeeded(due.id, 'owner-b', at(41)))).resolves.toBe(true);
      await expect(hooks(f).deliveries.find(target.id, due.id)).resolves.toMatchObject({
        status: 'succeeded',
        attempts: 1,
        lastAttemptAt: at(41),
        lastStatusCode: 204,
        nextAttemptAt: null,
      });
      // written: the lease is let go, and a delivery that ended is never claimed again
      await expect(hooks(f).deliveries.claimDue('owner-c', at(10_000), at(10_000 + LEASE_S), 10, [])).resolves.toEqual([
        expect.objectContaining({ delivery: expect.objectContaining({ nextAttemptAt: at(600) }) }),
      ]);
    });

    it('takes no lease when it cannot read a claimed endpoint (its secret sealed under another key): another owner claims it at once', async () => {
      const f = fixture();
      const target = await endpoint(f);
      const due = await delivery(f, target.id);
      const kept = await hooks(f).storeSecret(target.id, `enc:v1:${randomBytes(64).toString('base64')}`);
      await expect(hooks(f).deliveries.claimDue('owner-a', at(1), at(1 + LEASE_S), 10, [])).rejects.toThrow(/webhook_endpoints/);
      await hooks(f).storeSecret(target.id, kept);
      const claimed = await hooks(f).deliveries.claimDue('owner-b', at(1), at(1 + LEASE_S), 10, []);
      expect(claimed.map((c) => [c.delivery.id, c.endpoint.secret])).toEqual([[due.id, target.secret]]);
    });

    it('of owners claiming at once, each due delivery goes to exactly one of them', async () => {
      const f = fixture();
      // an endpoint each: a claim takes at most one delivery per endpoint
      const targets = await Promise.all(Array.from({ length: 20 }, () => endpoint(f)));
      const made = await Promise.all(targets.map((target, i) => delivery(f, target.id, { nextAttemptAt: at(-i) })));
      const owners = ['o1', 'o2', 'o3', 'o4', 'o5'];
      const claims = await Promise.all(owners.map((owner) => hooks(f).deliveries.claimDue(owner, at(1), at(1 + LEASE_S), 8, [])));
      const ids = claims.flatMap((claim) => claim.map((c) => c.delivery.id));
      expect(new Set(ids).size).toBe(ids.length);
      const rest = await hooks(f).deliveries.claimDue('o6', at(1), at(1 + LEASE_S), 100, []);
      expect([...ids, ...rest.map((c) => c.delivery.id)].sort()).toEqual(made.map((d) => d.id).sort());
      // each owner writes its own attempts, and only its own
      for (const [i, claim] of claims.entries()) {
        for (const { delivery: d } of claim) {
          await expect(hooks(f).deliveries.recordAttempt(succeeded(d.id, owners[(i + 1) % owners.length], at(2)))).resolves.toBe(false);
          await expect(hooks(f).deliveries.recordAttempt(succeeded(d.id, owners[i], at(2)))).resolves.toBe(true);
        }
      }
    });

    it('a failed attempt keeps the delivery pending until its next attempt is due, and marks the endpoint failing since then', async () => {
      const f = fixture();
      const target = await endpoint(f);
      const d = await delivery(f, target.id);
      await hooks(f).deliveries.claimDue('owner', at(1), at(1 + LEASE_S), 10, []);
      await expect(hooks(f).deliveries.recordAttempt(failedOnce(d.id, 'owner', at(2), at(7)))).resolves.toBe(true);
      await expect(hooks(f).deliveries.find(target.id, d.id)).resolves.toMatchObject({
        status: 'pending',
        attempts: 1,
        nextAttemptAt: at(7),
        lastStatusCode: 500,
        lastError: 'answered 500',
      });
      await expect(hooks(f).endpoints.find(target.id)).resolves.toMatchObject({ failingSince: at(2) });
      await expect(hooks(f).deliveries.claimDue('owner', at(6), at(6 + LEASE_S), 10, [])).resolves.toEqual([]);
      const again = await hooks(f).deliveries.claimDue('owner', at(7), at(7 + LEASE_S), 10, []);
      expect(again.map((c) => [c.delivery.id, c.delivery.attempts])).toEqual([[d.id, 1]]);
      await hooks(f).deliveries.recordAttempt(succeeded(d.id, 'owner', at(8)));
      await expect(hooks(f).endpoints.find(target.id)).resolves.toMatchObject({ failingSince: null });
    });

    it('retries an ended delivery (due again, its attempts kept), and deletes the deliveries with their endpoint', async () => {
      const f = fixture();
      const target = await endpoint(f);
      const d = await delivery(f, target.id);
      await hooks(f).deliveries.claimDue('owner', at(1), at(1 + LEASE_S), 10, []);
      await hooks(f).deliveries.recordAttempt({ ...failedOnce(d.id, 'owner', at(2), at(7)), status: 'failed', nextAttemptAt: null });
      await expect(hooks(f).deliveries.claimDue('owner', at(100), at(100 + LEASE_S), 10, [])).resolves.toEqual([]);
      await expect(hooks(f).deliveries.retry(target.id, d.id, at(200), audited('webhook.delivery_retried'))).resolves.toBe(true);
      await expect(hooks(f).deliveries.retry(uniqueId('whe'), d.id, at(200), audited('webhook.delivery_retried'))).resolves.toBe(false);
      const retried = await hooks(f).deliveries.claimDue('owner', at(200), at(200 + LEASE_S), 10, []);
      expect(retried.map((c) => [c.delivery.id, c.delivery.status, c.delivery.attempts])).toEqual([[d.id, 'pending', 1]]);
      await hooks(f).endpoints.delete(target.id, audited('webhook.deleted'));
      await expect(hooks(f).deliveries.find(target.id, d.id)).resolves.toBeNull();
      await expect(hooks(f).deliveries.depth()).resolves.toEqual({ pending: 0, oldest: null });
    });
    it('keys expiring in a range are read through the key port until their key.expiring is recorded', async () => {
      const f = fixture();
      const soon = await seedKey(f, { expiresAt: at(3600) });
      const later = await seedKey(f, { expiresAt: at(7200) });
      await seedKey(f, { expiresAt: at(10 * 86_400) }); // outside the range
      await seedKey(f, { expiresAt: at(1800), revokedAt: T0 }); // revoked
      const expiring = await f.keys.findExpiringBetween(T0, at(86_400), 10);
      expect(expiring).toEqual([
        { id: soon.id, prefix: soon.props.displayPrefix, licenseId: soon.licenseId, expiresAt: at(3600) },
        { id: later.id, prefix: later.props.displayPrefix, licenseId: later.licenseId, expiresAt: at(7200) },
      ]);
      await expect(f.keys.findExpiringBetween(T0, at(86_400), 1)).resolves.toHaveLength(1);
      await expect(hooks(f).outbox.recordOnce(keyExpiringEvent(expiring[0], T0))).resolves.toBe(true);
      expect((await f.keys.findExpiringBetween(T0, at(86_400), 10)).map((k) => k.id)).toEqual([later.id]);
    });

    it('a unit of work keeps its notices with its consumption, and neither when it fails', async () => {
      const f = fixture();
      const key = await seedKey(f);
      const notice = (type: 'quota.warning' | 'quota.exhausted') =>
        makeWebhookEvent(type, { id: quotaNoticeId(type, key.licenseId, '2026-04') });
      const event = () => makeAnalyticsEvent({ keyId: key.id, licenseId: key.licenseId, period: '2026-04' });
      await expect(
        f.unitOfWork.run(async ({ events, outbox }) => {
          const used = await events.appendConsuming(event(), 1, 10);
          await expect(outbox.recordOnce(notice('quota.warning'))).resolves.toBe(true);
          return used;
        }),
      ).resolves.toBe(1);
      await expect(
        f.unitOfWork.run(async ({ events, outbox }) => {
          await events.appendConsuming(event(), 1, 10);
          await outbox.recordOnce(notice('quota.exhausted'));
          throw new Error('the work fails');
        }),
      ).rejects.toThrow('the work fails');
      await expect(f.usage.usedIn(key.licenseId, '2026-04')).resolves.toBe(1);
      await expect(hooks(f).outbox.recordOnce(notice('quota.warning'))).resolves.toBe(false);
      await expect(hooks(f).outbox.recordOnce(notice('quota.exhausted'))).resolves.toBe(true);
    });

    it('a unit of work that fails takes back its own writes only, not those another caller made while it ran', async () => {
      const f = fixture();
      const key = await seedKey(f);
      const name = uniqueId('secret');
      const notice = makeWebhookEvent('quota.warning', { id: uniqueId('notice') });
      let opened!: () => void;
      const open = new Promise<void>((resolve) => (opened = resolve));
      const other = open.then(() => f.secrets.keepFirst(name, 'kept by another caller', T0));
      await expect(
        f.unitOfWork.run(async ({ events, outbox }) => {
          await events.appendConsuming(makeAnalyticsEvent({ keyId: key.id, licenseId: key.licenseId, period: '2026-04' }), 1, 10);
          await outbox.recordOnce(notice);
          opened();
          // the other caller's write runs between this work's steps (bounded, for a database that makes it wait for the unit)
          await Promise.race([other, new Promise((resolve) => setTimeout(resolve, 300))]);
          throw new Error('the work fails');
        }),
      ).rejects.toThrow('the work fails');
      await expect(other).resolves.toBe('kept by another caller');
      await expect(f.secrets.find(name)).resolves.toBe('kept by another caller');
      await expect(f.usage.usedIn(key.licenseId, '2026-04')).resolves.toBe(0);
      await expect(hooks(f).outbox.recordOnce(notice)).resolves.toBe(true);
    });

    it('a consumption outside a unit of work, of the same license while the unit runs, loses no unit and the unit answers what it committed', async () => {
      const f = fixture();
      const key = await seedKey(f);
      const event = () => makeAnalyticsEvent({ keyId: key.id, licenseId: key.licenseId, period: '2026-04' });
      let opened!: () => void;
      const open = new Promise<void>((resolve) => (opened = resolve));
      const outside = open.then(() => f.events.appendConsuming(event(), 1, 2));
      const noticeAt = (total: number) => makeWebhookEvent('quota.exhausted', { id: `${key.licenseId}:${total}:${uniqueId('n')}` });
      const recorded: string[] = [];
      const total = await f.unitOfWork.run(async ({ events, outbox }) => {
        const used = await events.appendConsuming(event(), 1, 2);
        opened();
        // the other consumption runs between this work's steps (bounded, for a database where it waits on the unit's row lock)
        await Promise.race([outside, new Promise((resolve) => setTimeout(resolve, 300))]);
        if (used === 2) {
          const notice = noticeAt(used);
          if (await outbox.recordOnce(notice)) recorded.push(notice.id);
        }
        return used;
      });
      const other = await outside;
      expect([total, other].sort()).toEqual([1, 2]);
      await expect(f.usage.usedIn(key.licenseId, '2026-04')).resolves.toBe(2);
      // the notice the unit's committed total called for is kept, and no other
      for (const id of recorded) await expect(hooks(f).outbox.recordOnce(makeWebhookEvent('quota.exhausted', { id }))).resolves.toBe(false);
      expect(recorded.length).toBe(total === 2 ? 1 : 0);
    });

    it('of units of work consuming at once, each notice is recorded by exactly one', async () => {
      const f = fixture();
      const key = await seedKey(f);
      const results = await Promise.all(
        Array.from({ length: 30 }, () =>
          f.unitOfWork.run(async ({ events, outbox }) => {
            const used = await events.appendConsuming(
              makeAnalyticsEvent({ keyId: key.id, licenseId: key.licenseId, period: '2026-04' }),
              1,
              20,
            );
            if (used === 16 || used === 20) return outbox.recordOnce(makeWebhookEvent('quota.warning', { id: `notice:${used}` }));
            return used === null ? null : false;
          }),
        ),
      );
      expect(results.filter((r) => r === true)).toHaveLength(2);
      expect(results.filter((r) => r === null)).toHaveLength(10);
      await expect(f.usage.usedIn(key.licenseId, '2026-04')).resolves.toBe(20);
      await expect(hooks(f).deliveries.depth()).resolves.toMatchObject({ pending: 2 });
    });
  });
}
