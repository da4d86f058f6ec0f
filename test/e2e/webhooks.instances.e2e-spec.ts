import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { GENEROUS_LIMITS, TEST_ADMIN_TOKEN } from '../harness/create-test-app';
import { request } from '../harness/http';
import { ServiceProcess } from '../harness/service-process';
import { eventually } from '../harness/eventually';
import { type TestDatabase, createTestDatabase } from '../harness/test-database';
import { WebhookReceiver, outboxSettled } from '../harness/webhook-receiver';

/**
 * Webhooks across real service processes on one database (CONTRACT 20): quota notices exactly once
 * however many instances consume, a process killed (SIGKILL) mid-delivery has it delivered again by
 * another instance once its lease ran out, and events committed by a process killed before it
 * delivered them are delivered by the next one.
 */
describe('webhooks across service instances', () => {
  let folder: string;
  let database: TestDatabase;
  let env: Record<string, string>;
  let receiver: WebhookReceiver;
  const running: ServiceProcess[] = [];
  const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'svc-hooks-'));
    database = await createTestDatabase(folder, undefined, { empty: true }); // the first instance migrates it
    receiver = await WebhookReceiver.start();
    env = {
      ...GENEROUS_LIMITS,
      DATABASE_URL: database.url,
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      SAMPLE_MODELS: 'false',
      WEBHOOK_ALLOW_INSECURE: 'true',
      // CONTRACT 20's timing shortened (the same rules): a held attempt gives up after 2 s, a claim lasts 3 s
      WEBHOOK_ATTEMPT_TIMEOUT_MS: '2000',
      WEBHOOK_DELIVERY_LEASE_MS: '3000',
      WEBHOOK_POLL_INTERVAL_MS: '200',
      MODEL_STORE_DIR: join(folder, 'models'),
    };
    // the first migrates the database; the others start on it
    running.push(await ServiceProcess.start(env));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(running.map((p) => p.stop('SIGKILL')));
    await receiver?.close();
    await database?.drop();
    rmSync(folder, { recursive: true, force: true });
  });

  const call = (p: ServiceProcess, method: string, path: string, json?: unknown) =>
    request(p.baseUrl, method, path, { json, headers: admin });

  async function endpoint(p: ServiceProcess, events: string[], url = receiver.url): Promise<{ id: string; secret: string }> {
    const created = await call(p, 'POST', '/admin/v1/webhooks', { url, events });
    expect(created.status).toBe(201);
    return created.body as { id: string; secret: string };
  }

  it('three instances: 50 concurrent inference events on a limit of 20 give one quota.warning and one quota.exhausted', async () => {
    running.push(...(await Promise.all([ServiceProcess.start(env), ServiceProcess.start(env)])));
    const { id, secret } = await endpoint(running[0], ['quota.warning', 'quota.exhausted']);
    const issued = await call(running[1], 'POST', '/admin/v1/keys', {
      email: 'three@example.org',
      license_type: 'research',
      monthly_limit: 20,
    });
    const key = issued.body as { key_id: string; api_key: string };
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        request(running[i % 3].baseUrl, 'POST', '/v1/analytics/log', { json: { api_key: key.api_key, event_type: 'inference' } }),
      ),
    );
    expect(answers.filter((a) => a.status === 202)).toHaveLength(20);
    const notices = () => receiver.received.filter((r) => r.body.includes(key.key_id));
    await eventually(() => notices().length >= 2, { timeoutMs: 15_000 });
    // nothing left to send on any instance: whatever was sent twice has arrived
    for (const p of running) await outboxSettled(p.baseUrl);
    const rows = (await call(running[0], 'GET', `/admin/v1/webhooks/${id}/deliveries?limit=100`)).body.deliveries as unknown[];
    expect(rows).toHaveLength(2);
    expect(
      notices()
        .map((r) => (JSON.parse(r.body) as { type: string }).type)
        .sort(),
    ).toEqual(['quota.exhausted', 'quota.warning']);
    for (const message of notices())
      expect(new Webhook(secret).verify(message.body, message.headers as Record<string, string>)).toBeTruthy();
    await call(running[0], 'DELETE', `/admin/v1/webhooks/${id}`);
    // back to one instance for the tests below
    await Promise.all(running.splice(1).map((p) => p.stop('SIGTERM')));
  }, 180_000);

  it('a process killed mid-delivery: another instance delivers it again, with the same webhook-id, once the lease ran out', async () => {
    const held = await WebhookReceiver.start();
    held.answer = 'hold';
    try {
      const { id } = await endpoint(running[0], ['model.deleted'], held.url);
      const test = await call(running[0], 'POST', `/admin/v1/webhooks/${id}/test`);
      await eventually(() => held.received.length === 1, { timeoutMs: 10_000 });
      await running.shift()!.stop('SIGKILL');
      held.answer = 204;
      const started = Date.now();
      running.push(await ServiceProcess.start(env));
      await eventually(() => held.received.length === 2, { timeoutMs: 60_000, intervalMs: 250 });
      // not before the dead instance's lease (WEBHOOK_DELIVERY_LEASE_MS from its claim) ran out
      expect(held.received[1].at - held.received[0].at).toBeGreaterThanOrEqual(2_500);
      expect(held.received.map((r) => r.headers['webhook-id'])).toEqual([test.body.id, test.body.id]);
      expect(Date.now() - started).toBeLessThan(60_000);
      await eventually(
        async () => (await call(running[0], 'GET', `/admin/v1/webhooks/${id}/deliveries`)).body.deliveries[0]?.status === 'succeeded',
      );
      await call(running[0], 'DELETE', `/admin/v1/webhooks/${id}`);
    } finally {
      await held.close();
    }
  }, 150_000);

  it('a process killed (SIGKILL) after committing events it had not delivered: the next one delivers them', async () => {
    // the receiver is down: the killed process's attempt fails, nothing is delivered before it dies
    const down = await WebhookReceiver.start();
    const url = down.url;
    await down.close();
    const { id } = await endpoint(running[0], ['key.issued'], url);
    const issued = await call(running[0], 'POST', '/admin/v1/keys', { email: 'killed@example.org', license_type: 'free' });
    expect(issued.status).toBe(201);
    await running.shift()!.stop('SIGKILL');
    const port = Number(new URL(url).port);
    const back = await WebhookReceiver.startOn(port);
    try {
      running.push(await ServiceProcess.start(env));
      await eventually(() => back.received.some((r) => r.body.includes((issued.body as { key_id: string }).key_id)), {
        timeoutMs: 45_000,
        intervalMs: 250,
      });
      expect(JSON.parse(back.received[0].body)).toMatchObject({
        type: 'key.issued',
        data: { key_id: (issued.body as { key_id: string }).key_id },
      });
      await call(running[0], 'DELETE', `/admin/v1/webhooks/${id}`);
    } finally {
      await back.close();
    }
  }, 120_000);
});
