import { ModuleRef } from '@nestjs/core';
import { DispatchWebhooks } from '@svc/application';
import { FixedClock, WebhookDeliveryQueue, WebhookOutbox, outboxRetention, quotaNoticeId } from '@svc/domain';
import { DataSource } from 'typeorm';
import { WebhookDispatcher } from '../../apps/api/src/modules/webhooks/webhook-dispatcher';
import { TestApp } from '../harness/create-test-app';
import { eventually } from '../harness/eventually';
import { WebhookReceiver, ALL_EVENTS } from '../harness/webhook-receiver';

/**
 * The webhook outbox's retention sweep (WEBHOOK_RETENTION_DAYS) on the real database, on the test's clock:
 * ended deliveries and then their events go once past the retention; pending deliveries (and their events)
 * stay; the `key.expiring` markers stay until their key has expired plus the retention, so no key is
 * notified twice; a quota notice stays while its period is current, however short the retention.
 */

const DAY = 24 * 3600_000;

describe('webhooks: the outbox retention sweep (WEBHOOK_RETENTION_DAYS)', () => {
  // the 2nd of next month: a day of retention and a few more stay within the month
  const real = new Date();
  const start = new Date(Date.UTC(real.getUTCFullYear(), real.getUTCMonth() + 1, 2));
  const clock = new FixedClock(start);
  let t: TestApp;
  let receiver: WebhookReceiver;
  let failing: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    failing = await WebhookReceiver.start();
    failing.answer = 500;
    // the longest poll: once settled, the dispatcher runs only when the test wakes it (no event is recorded after that)
    t = await TestApp.start({
      clock,
      env: { WEBHOOK_ALLOW_INSECURE: 'true', SAMPLE_MODELS: 'false', WEBHOOK_RETENTION_DAYS: '1', WEBHOOK_POLL_INTERVAL_MS: '60000' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await failing?.close();
  });

  const events = async () =>
    (await t.app.get(DataSource).query<Array<{ id: string; type: string }>>('SELECT id, type FROM webhook_events'))
      .map((e) => e.type)
      .sort();
  const deliveries = () =>
    t.app
      .get(DataSource)
      .query<Array<{ id: string; endpoint_id: string; status: string }>>('SELECT id, endpoint_id, status FROM webhook_deliveries');
  const prune = () => t.app.get(WebhookDispatcher).prune();
  const recordExpiring = async () => (await t.app.get(ModuleRef).create(DispatchWebhooks)).recordExpiring();

  it('prunes ended deliveries, then their events; keeps pending ones, key.expiring markers and the current period quota notices', async () => {
    const endpoint = async (url: string, events: string[]) =>
      ((await t.admin('POST', '/admin/v1/webhooks', { url, events })).body as { id: string }).id;
    await endpoint(receiver.url, ALL_EVENTS);
    const retrying = await endpoint(failing.url, ['key.revoked']);
    // a disabled endpoint's test message ends failed without being sent (never attempted)
    const disabled = await endpoint(receiver.url, ['model.deleted']);
    expect((await t.admin('PATCH', `/admin/v1/webhooks/${disabled}`, { enabled: false })).status).toBe(200);
    expect((await t.admin('POST', `/admin/v1/webhooks/${disabled}/test`)).status).toBe(202);

    const issued = await t.admin('POST', '/admin/v1/keys', { email: 'kept@example.org', license_type: 'research', monthly_limit: 5 });
    const key = issued.body as { key_id: string; api_key: string };
    for (let i = 0; i < 5; i += 1) {
      const logged = await t.post('/v1/analytics/log', {
        api_key: key.api_key,
        event_type: 'inference',
        model_name: 'm',
        inference_type: 'batch',
        success: true,
      });
      expect(logged.status).toBe(202);
    }
    const expiresAt = new Date(start.getTime() + 3 * DAY).toISOString();
    const soon = await t.admin('POST', '/admin/v1/keys', { email: 'soon@example.org', license_type: 'free', expires_at: expiresAt });
    expect(soon.status).toBe(201);
    expect(await recordExpiring()).toBe(1);
    expect((await t.admin('POST', `/admin/v1/keys/${key.key_id}/revoke`, { reason: 'test' })).status).toBeLessThan(300);

    const delivered = ['key.expiring', 'key.issued', 'key.issued', 'key.revoked', 'quota.exhausted', 'quota.warning'];
    await eventually(() => receiver.messages().length === delivered.length && failing.received.length === 1, { timeoutMs: 15000 });
    expect(
      receiver
        .messages()
        .map((m) => m.type)
        .sort(),
    ).toEqual(delivered);
    await eventually(async () => (await deliveries()).filter((d) => d.status !== 'pending').length === delivered.length + 1);
    expect(await events()).toEqual(delivered);
    // no attempt may run while the clock jumps below: one at or past five days of failures would disable the
    // retrying delivery's endpoint, and the next would end it failed
    await t.app.get(WebhookDispatcher).settled();

    // nothing is older than the retention yet
    expect(await prune()).toEqual({ deliveries: 0, events: 0 });
    expect(await deliveries()).toHaveLength(delivered.length + 2);

    // two days on (still the same month): the ended deliveries go, and the events with none left but the markers
    clock.set(new Date(start.getTime() + 2 * DAY));
    const [outbox, queue] = [t.app.get(WebhookOutbox), t.app.get(WebhookDeliveryQueue)];
    // each statement takes at most its batch
    const retention = outboxRetention(clock.now(), 1);
    expect(await queue.prune(retention.deliveriesEndedBefore, 2)).toBe(2);
    expect(await prune()).toEqual({ deliveries: delivered.length - 1, events: 2 });
    expect(await deliveries()).toEqual([expect.objectContaining({ endpoint_id: retrying, status: 'pending' })]);
    expect(await events()).toEqual(['key.expiring', 'key.revoked', 'quota.exhausted', 'quota.warning']);
    expect(t.logger.lines.some((line) => line.includes('webhook outbox pruned'))).toBe(true);
    const metrics = (await t.get('/metrics')).text;
    expect(metrics).toMatch(/svc_webhook_outbox_pruned_total\{table="deliveries"\} 5\b/);
    expect(metrics).toMatch(/svc_webhook_outbox_pruned_total\{table="events"\} 2\b/);
    // the markers still hold: no second key.expiring, no second quota notice of this period
    expect(await recordExpiring()).toBe(0);
    const period = start.toISOString().slice(0, 7);
    const again = { type: 'quota.warning' as const, occurredAt: clock.now(), data: {} };
    expect(await outbox.recordOnce({ ...again, id: quotaNoticeId('quota.warning', key.key_id, period) })).toBe(false);
    // a sweep twice over (another instance's) deletes nothing more
    expect(await prune()).toEqual({ deliveries: 0, events: 0 });

    // nine days on (the key expired six days ago, plus the retention): its marker goes; it is never notified again
    clock.set(new Date(start.getTime() + 9 * DAY));
    expect(await prune()).toEqual({ deliveries: 0, events: 1 });
    expect(await events()).toEqual(['key.revoked', 'quota.exhausted', 'quota.warning']);
    expect(await recordExpiring()).toBe(0);

    // forty days on: the month of the quota notices ended more than the retention ago, so they go
    clock.set(new Date(start.getTime() + 40 * DAY));
    expect(await outbox.prune(outboxRetention(clock.now(), 1).eventsFannedOutBefore, 1)).toBe(1);
    expect(await prune()).toEqual({ deliveries: 0, events: 1 });
    expect(await events()).toEqual(['key.revoked']);
    expect(await deliveries()).toEqual([expect.objectContaining({ endpoint_id: retrying, status: 'pending' })]);

    // the retrying delivery succeeds at last; a retention later it goes, and its event after it
    failing.answer = 204;
    clock.set(new Date(start.getTime() + 42 * DAY));
    // the dispatcher's next round picks it up; woken on each check so that a busy machine does not wait out its timer
    await eventually(
      async () => {
        t.app.get(WebhookDispatcher).wake();
        return (await deliveries())[0]?.status === 'succeeded';
      },
      { timeoutMs: 30000 },
    );
    expect(await prune()).toEqual({ deliveries: 0, events: 0 });
    clock.set(new Date(start.getTime() + 43 * DAY + 1000));
    expect(await prune()).toEqual({ deliveries: 1, events: 1 });
    expect(await deliveries()).toEqual([]);
    expect(await events()).toEqual([]);
    expect(receiver.ofType('key.expiring')).toHaveLength(1);
    expect(receiver.ofType('quota.warning')).toHaveLength(1);
  }, 60000);
});
