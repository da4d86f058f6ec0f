import { ModuleRef } from '@nestjs/core';
import { DispatchWebhooks } from '@svc/application';
import { FixedClock, RETRY_DELAYS_MS } from '@svc/domain';
import { Webhook } from 'standardwebhooks';
import { TestApp } from '../harness/create-test-app';
import { eventually } from '../harness/eventually';
import { type ReceivedWebhook, WebhookReceiver, ALL_EVENTS, outboxSettled } from '../harness/webhook-receiver';

/**
 * Webhooks (CONTRACT 20) over real HTTP: the service delivers to a receiver on 127.0.0.1
 * (WEBHOOK_ALLOW_INSECURE=true), and each message is checked with the standardwebhooks package's own
 * verifier. Time is the test's clock (the retry schedule, the 5-day disabling).
 */

const INSECURE = { WEBHOOK_ALLOW_INSECURE: 'true', SAMPLE_MODELS: 'false', WEBHOOK_POLL_INTERVAL_MS: '100' };
const inference = (apiKey: string) => ({
  api_key: apiKey,
  event_type: 'inference',
  model_name: 'm',
  inference_type: 'batch',
  success: true,
});

/** Standard Webhooks' verifier accepts it (it also checks the timestamp is within 5 minutes of now). */
function verified(secret: string, message: ReceivedWebhook): unknown {
  return new Webhook(secret).verify(message.body, message.headers as Record<string, string>);
}

/** The signature is exactly the secret's over this id, timestamp and body (whatever the real time: for the advanced clock). */
function signedBy(secret: string, message: ReceivedWebhook): boolean {
  const id = String(message.headers['webhook-id']);
  const timestamp = new Date(Number(message.headers['webhook-timestamp']) * 1000);
  const expected = new Webhook(secret).sign(id, timestamp, message.body);
  return String(message.headers['webhook-signature']).split(' ').includes(expected);
}

describe('webhooks: admin API, events, signatures, retries (CONTRACT 20)', () => {
  const clock = new FixedClock(new Date());
  let t: TestApp;
  let receiver: WebhookReceiver;
  /** Every signing secret this describe was shown. */
  const secrets: string[] = [];

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await TestApp.start({ clock, env: INSECURE });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  async function endpoint(events: string[], url = receiver.url): Promise<{ id: string; secret: string }> {
    const created = await t.admin('POST', '/admin/v1/webhooks', { url, events, description: 'test receiver' });
    expect(created.status).toBe(201);
    secrets.push(created.body.secret as string);
    return created.body as { id: string; secret: string };
  }

  it('creates an endpoint (secret shown once), lists, shows, changes and deletes it, each audited', async () => {
    const created = await t.admin('POST', '/admin/v1/webhooks', { url: receiver.url, events: ['key.issued'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ url: receiver.url, events: ['key.issued'], enabled: true, description: null });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    const id = created.body.id as string;
    const shown = await t.admin('GET', `/admin/v1/webhooks/${id}`);
    expect(shown.status).toBe(200);
    expect(shown.body).not.toHaveProperty('secret');
    expect(JSON.stringify((await t.admin('GET', '/admin/v1/webhooks')).body)).not.toContain(created.body.secret);
    const changed = await t.admin('PATCH', `/admin/v1/webhooks/${id}`, { events: ['model.deleted'], description: 'x', enabled: false });
    expect(changed.body).toMatchObject({ events: ['model.deleted'], description: 'x', enabled: false });
    expect((await t.admin('DELETE', `/admin/v1/webhooks/${id}`)).status).toBe(204);
    expect((await t.admin('GET', `/admin/v1/webhooks/${id}`)).body).toMatchObject({ code: 'WEBHOOK_NOT_FOUND' });
    const audit = await t.admin('GET', '/admin/v1/audit?limit=20');
    const actions = (audit.body.entries as Array<{ action: string; details: Record<string, unknown>; actor: { type: string } }>)
      .filter((e) => e.details?.webhook_id === id)
      .map((e) => [e.action, e.actor.type]);
    expect(actions).toEqual([
      ['webhook.deleted', 'bootstrap'],
      ['webhook.updated', 'bootstrap'],
      ['webhook.created', 'bootstrap'],
    ]);
    expect(JSON.stringify(audit.body)).not.toContain(created.body.secret);
    // never logged either
    expect(t.logger.lines.join('\n')).not.toContain(created.body.secret);
    expect(t.logger.lines.join('\n')).not.toContain(String(created.body.secret).slice('whsec_'.length));
  });

  it('answers bad input with clear 400s', async () => {
    const bad = async (body: unknown) => (await t.admin('POST', '/admin/v1/webhooks', body)).body as { code: string; message: string };
    expect(await bad({ url: receiver.url, events: ['key.exploded'] })).toMatchObject({
      code: 'INVALID_REQUEST',
      message: expect.stringContaining('events'),
    });
    expect(await bad({ url: receiver.url, events: [] })).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(await bad({ url: 'not a url', events: ['key.issued'] })).toMatchObject({
      code: 'INVALID_REQUEST',
      message: expect.stringContaining('url'),
    });
    expect(await bad({ url: 'ftp://example.com/x', events: ['key.issued'] })).toMatchObject({ code: 'INVALID_REQUEST' });
    expect((await t.admin('GET', '/admin/v1/webhooks/whe_nope/deliveries?status=odd')).status).toBe(400);
    expect((await t.admin('POST', '/admin/v1/webhooks/whe_nope/test')).body).toMatchObject({ code: 'WEBHOOK_NOT_FOUND' });
  });

  it('delivers every event type, each verified by a Standard Webhooks verifier; quota notices exactly once under 50 concurrent events', async () => {
    const { id, secret } = await endpoint(ALL_EVENTS);
    const issued = await t.admin('POST', '/admin/v1/keys', { email: 'hooks@example.org', license_type: 'research', monthly_limit: 20 });
    expect(issued.status).toBe(201);
    const key = issued.body as { key_id: string; api_key: string };
    const answers = await Promise.all(Array.from({ length: 50 }, () => t.post('/v1/analytics/log', inference(key.api_key))));
    expect(answers.filter((a) => a.status === 202)).toHaveLength(20);
    const rotated = await t.admin('POST', `/admin/v1/keys/${key.key_id}/rotate`, {});
    expect(rotated.status).toBe(200);
    const successor = rotated.body as { key_id: string };
    expect((await t.admin('POST', `/admin/v1/keys/${successor.key_id}/revoke`, { reason: 'test' })).status).toBeLessThan(300);
    const soon = new Date(clock.now().getTime() + 3 * 24 * 3600_000).toISOString();
    const expiring = await t.admin('POST', '/admin/v1/keys', { email: 'soon@example.org', license_type: 'free', expires_at: soon });
    expect(expiring.status).toBe(201);
    await (await t.app.get(ModuleRef).create(DispatchWebhooks)).recordExpiring();
    const model = {
      name: 'hooked_v1',
      version: '1.0.0',
      type: 'SvcQDA',
      paradigm: 'motor_imagery',
      n_features: 4,
      n_classes: 2,
      requires_license: 'research',
      download_url: 'https://cdn.example.com/hooked.bin',
      checksum: `sha256:${'ab'.repeat(32)}`,
      size_bytes: 10,
      metadata: { description: 'd', training_subjects: 1, accuracy: '0.9', feature_type: 'csp', recommended_use: 'tests' },
    };
    const published = await t.admin('POST', '/admin/v1/models', model);
    expect(published.body).toMatchObject({ name: 'hooked_v1' });
    expect((await t.admin('DELETE', '/admin/v1/models/hooked_v1')).status).toBeLessThan(300);
    expect((await t.admin('POST', `/admin/v1/webhooks/${id}/test`)).status).toBe(202);

    const expected = [...ALL_EVENTS, 'webhook.test'];
    await eventually(() => expected.every((type) => receiver.ofType(type).length > 0), { timeoutMs: 15000 });
    // nothing left to send: whatever was sent twice has arrived
    await outboxSettled(t.baseUrl);
    for (const message of receiver.received) {
      expect(verified(secret, message)).toBeTruthy();
      expect(message.body).not.toContain(key.api_key);
    }
    expect(receiver.ofType('quota.warning')).toHaveLength(1);
    expect(receiver.ofType('quota.exhausted')).toHaveLength(1);
    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(ids.length);
    const body = (type: string) =>
      JSON.parse(receiver.ofType(type)[0].body) as { type: string; timestamp: string; data: Record<string, unknown> };
    expect(body('quota.warning')).toMatchObject({
      type: 'quota.warning',
      data: { key_id: key.key_id, license_id: key.key_id, limit: 20, threshold: 16, key_prefix: expect.any(String) },
    });
    expect(body('quota.exhausted').data).toMatchObject({ key_id: key.key_id, limit: 20, threshold: 20 });
    expect(body('key.issued').data).toMatchObject({
      key_id: key.key_id,
      key_prefix: key.api_key.slice(0, String(body('key.issued').data.key_prefix).length),
    });
    expect(body('key.rotated').data).toMatchObject({ key_id: successor.key_id, rotated_from: { key_id: key.key_id } });
    expect(body('key.expiring').data).toMatchObject({ key_id: (expiring.body as { key_id: string }).key_id });
    expect(body('model.published').data).toMatchObject({ name: 'hooked_v1', version: '1.0.0', checksum: model.checksum });
    expect(body('model.deleted').data).toMatchObject({ name: 'hooked_v1' });
    expect(body('key.issued').timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    // key.expiring is sent once per key, however often the check runs
    expect(await (await t.app.get(ModuleRef).create(DispatchWebhooks)).recordExpiring()).toBe(0);
    await outboxSettled(t.baseUrl);
    expect(receiver.ofType('key.expiring')).toHaveLength(1);
    const page = await t.admin('GET', `/admin/v1/webhooks/${id}/deliveries?status=succeeded&limit=3`);
    expect(page.status).toBe(200);
    expect(page.body.deliveries).toHaveLength(3);
    expect(page.body.deliveries[0]).toMatchObject({ status: 'succeeded', attempts: 1, last_status_code: 204, next_attempt_at: null });
    const next = await t.admin('GET', `/admin/v1/webhooks/${id}/deliveries?status=succeeded&limit=100&cursor=${page.body.next_cursor}`);
    expect(next.body.deliveries.length).toBe(receiver.received.length - 3);
    await t.admin('DELETE', `/admin/v1/webhooks/${id}`);
  });

  it('records an event only with the change that won: five concurrent rotations of a key, one key.rotated', async () => {
    const { id } = await endpoint(['key.rotated']);
    const issued = await t.admin('POST', '/admin/v1/keys', { email: 'race@example.org', license_type: 'free' });
    const keyId = (issued.body as { key_id: string }).key_id;
    const answers = await Promise.all(Array.from({ length: 5 }, () => t.admin('POST', `/admin/v1/keys/${keyId}/rotate`, {})));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const rotations = () => receiver.ofType('key.rotated').filter((r) => r.body.includes(keyId));
    await eventually(() => rotations().length === 1);
    await outboxSettled(t.baseUrl);
    expect(rotations()).toHaveLength(1);
    // one event, one delivery row for the endpoint
    expect((await t.admin('GET', `/admin/v1/webhooks/${id}/deliveries?limit=100`)).body.deliveries).toHaveLength(1);
    await t.admin('DELETE', `/admin/v1/webhooks/${id}`);
  });

  it('signs with both secrets for 24 hours after a new one, then only the new one', async () => {
    const { id, secret: old } = await endpoint(['model.deleted']);
    const replaced = await t.admin('POST', `/admin/v1/webhooks/${id}/secret`);
    expect(replaced.status).toBe(201);
    const fresh = replaced.body.secret as string;
    secrets.push(fresh);
    expect(fresh).not.toBe(old);
    const tests = () => receiver.ofType('webhook.test').filter((r) => r.body.includes(id));
    const sent = Date.now();
    await t.admin('POST', `/admin/v1/webhooks/${id}/test`);
    await eventually(() => tests().length === 1, { timeoutMs: 5000, intervalMs: 20 });
    const message = tests()[0];
    // the instance that committed it starts delivering at once (within a second)
    expect(message.at - sent).toBeLessThan(1000);
    expect(String(message.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verified(old, message)).toBeTruthy();
    expect(verified(fresh, message)).toBeTruthy();
    clock.advance(24 * 3600_000 + 1000);
    try {
      await t.admin('POST', `/admin/v1/webhooks/${id}/test`);
      await eventually(() => tests().length === 2);
      const later = tests()[1];
      expect(signedBy(fresh, later)).toBe(true);
      expect(signedBy(old, later)).toBe(false);
    } finally {
      clock.set(new Date());
      await t.admin('DELETE', `/admin/v1/webhooks/${id}`);
    }
  });

  it('retries a 500 with the same webhook-id on the schedule, ends failed, and disables the endpoint after 5 days of failures', async () => {
    const failing = await WebhookReceiver.start();
    failing.answer = 500;
    const start = new Date();
    clock.set(start);
    try {
      const { id, secret } = await endpoint(['model.deleted'], failing.url);
      const test = await t.admin('POST', `/admin/v1/webhooks/${id}/test`);
      const deliveryId = test.body.id as string;
      await eventually(() => failing.received.length === 1);
      await eventually(async () => (await t.admin('GET', `/admin/v1/webhooks/${id}/deliveries`)).body.deliveries[0].attempts === 1);
      const first = (await t.admin('GET', `/admin/v1/webhooks/${id}/deliveries`)).body.deliveries[0];
      expect(first).toMatchObject({ id: deliveryId, status: 'pending', attempts: 1, last_status_code: 500, last_error: 'answered 500' });
      expect(Date.parse(first.next_attempt_at) - start.getTime()).toBeGreaterThanOrEqual(4000);
      // not before it is due
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(failing.received).toHaveLength(1);
      for (const [i, delay] of RETRY_DELAYS_MS.entries()) {
        // the attempt the receiver answered is recorded (its next attempt timed by the clock) before the clock moves on
        await eventually(async () => (await t.admin('GET', `/admin/v1/webhooks/${id}/deliveries`)).body.deliveries[0].attempts === i + 1);
        clock.advance(delay);
        await eventually(() => failing.received.length === i + 2, { timeoutMs: 10000 });
      }
      expect(failing.received.map((r) => r.headers['webhook-id'])).toEqual(Array(8).fill(deliveryId));
      expect(failing.received.every((r) => signedBy(secret, r))).toBe(true);
      await eventually(async () => (await t.admin('GET', `/admin/v1/webhooks/${id}/deliveries`)).body.deliveries[0].status === 'failed');
      expect((await t.admin('GET', `/admin/v1/webhooks/${id}/deliveries?status=failed`)).body.deliveries[0]).toMatchObject({
        attempts: 8,
        last_status_code: 500,
        next_attempt_at: null,
      });
      clock.advance(1000);
      expect((await t.admin('GET', `/admin/v1/webhooks/${id}/deliveries?status=pending`)).body.deliveries).toHaveLength(0);
      expect(failing.received).toHaveLength(8);
      expect((await t.admin('GET', `/admin/v1/webhooks/${id}`)).body).toMatchObject({ enabled: true, failing_since: expect.any(String) });

      // five days after the first failure, one more failure disables it, as the system
      clock.set(new Date(start.getTime() + 5 * 24 * 3600_000));
      await t.admin('POST', `/admin/v1/webhooks/${id}/test`);
      await eventually(async () => (await t.admin('GET', `/admin/v1/webhooks/${id}`)).body.enabled === false);
      expect((await t.admin('GET', `/admin/v1/webhooks/${id}`)).body).toMatchObject({
        enabled: false,
        disabled_reason: expect.stringContaining('5 days'),
      });
      const audit = await t.admin('GET', '/admin/v1/audit?action=webhook.disabled');
      expect(audit.body.entries[0]).toMatchObject({ action: 'webhook.disabled', actor: { type: 'system' }, details: { webhook_id: id } });

      // a manual retry, once the receiver answers and the endpoint is enabled again
      failing.answer = 200;
      expect((await t.admin('PATCH', `/admin/v1/webhooks/${id}`, { enabled: true })).body).toMatchObject({
        enabled: true,
        failing_since: null,
      });
      const retried = await t.admin('POST', `/admin/v1/webhooks/${id}/deliveries/${deliveryId}/retry`);
      expect(retried.status).toBe(202);
      expect(retried.body).toMatchObject({ id: deliveryId, status: 'pending' });
      await eventually(() => failing.received.length === 10);
      expect(failing.received[9].headers['webhook-id']).toBe(deliveryId);
      await eventually(
        async () => (await t.admin('GET', `/admin/v1/webhooks/${id}/deliveries?status=succeeded`)).body.deliveries.length === 1,
      );
      expect((await t.admin('POST', `/admin/v1/webhooks/${id}/deliveries/msg_unknown/retry`)).body).toMatchObject({
        code: 'DELIVERY_NOT_FOUND',
      });
    } finally {
      clock.set(new Date());
      await failing.close();
    }
  }, 60000);

  it('never logs a signing secret (nor writes a signature to the log)', () => {
    const log = t.logger.lines.join('\n');
    expect(secrets.length).toBeGreaterThan(3);
    for (const secret of secrets) expect(log).not.toContain(secret.slice('whsec_'.length));
    expect(log).not.toMatch(/v1,[A-Za-z0-9+/]{43}=/);
  });

  it('treats a redirect as a failed attempt and never follows it', async () => {
    const redirecting = await WebhookReceiver.start();
    redirecting.answer = 302;
    try {
      const { id } = await endpoint(['model.deleted'], redirecting.url);
      await t.admin('POST', `/admin/v1/webhooks/${id}/test`);
      await eventually(async () => (await t.admin('GET', `/admin/v1/webhooks/${id}/deliveries`)).body.deliveries[0]?.attempts === 1);
      expect((await t.admin('GET', `/admin/v1/webhooks/${id}/deliveries`)).body.deliveries[0]).toMatchObject({
        status: 'pending',
        last_status_code: 302,
        last_error: 'redirect (302) not followed',
      });
      expect(redirecting.received).toHaveLength(1);
    } finally {
      await redirecting.close();
    }
  });
});

/** IPv6 addresses ipaddr.js calls unicast that are not global: IPv4-compatible (::/96, deprecated) and the rest of ::/8. */
const RESERVED_IPV6: Array<[string, string]> = [
  ['an IPv4-compatible loopback (::/96)', 'https://[::127.0.0.1]/'],
  ['an IPv4-compatible metadata address (::/96)', 'https://[::a9fe:a9fe]/'],
  ['an IPv4-compatible private address (::/96)', 'https://[::10.0.0.1]/hooks'],
  ['an address in ::/8 outside ::/96', 'https://[::1:0:0:0]/'],
  ['a reserved block outside 2000::/3', 'https://[4000::1]/'],
];
/** Addresses refused without WEBHOOK_ALLOW_INSECURE, when registering and when changing an endpoint (CONTRACT 20). */
const REFUSED: ReadonlyArray<readonly [string, string]> = [
  ['plain http', 'http://example.com/hooks'],
  ['loopback', 'https://127.0.0.1/hooks'],
  ['a private address', 'https://10.1.2.3/hooks'],
  ['the metadata address', 'https://169.254.169.254/latest'],
  ["AWS's IPv6 metadata address", 'https://[fd00:ec2::254]/'],
  ['a name resolving to loopback', 'https://localhost/hooks'],
  ['an IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/'],
  ...RESERVED_IPV6,
];
/** A public address (an IP literal, so the check resolves nothing). */
const PUBLIC_URL = 'https://93.184.215.14/hooks';

describe('webhooks: safe addresses without WEBHOOK_ALLOW_INSECURE (CONTRACT 20)', () => {
  let t: TestApp;
  beforeAll(async () => (t = await TestApp.start({ env: { SAMPLE_MODELS: 'false' } })));
  afterAll(async () => t?.close());

  it.each(REFUSED)('refuses %s when registering', async (_, url) => {
    const answer = await t.admin('POST', '/admin/v1/webhooks', { url, events: ['key.issued'] });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringContaining('url') });
  });

  it('refuses such an address when changing an endpoint too', async () => {
    // none of the registrations above was stored
    expect((await t.admin('GET', '/admin/v1/webhooks')).body).toEqual({ webhooks: [] });
    // an endpoint at a public address (an IP literal: nothing is resolved, and no event it takes is sent here)
    const created = await t.admin('POST', '/admin/v1/webhooks', { url: PUBLIC_URL, events: ['model.deleted'] });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const refusals = [];
    for (const [label, url] of REFUSED) {
      const answer = await t.admin('PATCH', `/admin/v1/webhooks/${id}`, { url });
      refusals.push({ label, status: answer.status, code: answer.body?.code, names: String(answer.body?.message).includes('url') });
    }
    expect(refusals).toEqual(REFUSED.map(([label]) => ({ label, status: 400, code: 'INVALID_REQUEST', names: true })));
    // the endpoint still has its address
    expect((await t.admin('GET', `/admin/v1/webhooks/${id}`)).body).toMatchObject({ id, url: PUBLIC_URL });
  });

  describe('changing an endpoint', () => {
    let id: string;
    // a public IP literal: registered without a DNS lookup, and never sent to (nothing is subscribed that happens here)
    const PUBLIC = 'https://93.184.216.34/hooks';
    beforeAll(async () => {
      const created = await t.admin('POST', '/admin/v1/webhooks', { url: PUBLIC, events: ['model.deleted'] });
      expect(created.status).toBe(201);
      id = created.body.id as string;
    });
    afterAll(async () => t.admin('DELETE', `/admin/v1/webhooks/${id}`));

    it.each([['loopback', 'https://127.0.0.1/hooks'], ['an IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/'], ...RESERVED_IPV6])(
      'refuses %s',
      async (_, url) => {
        const answer = await t.admin('PATCH', `/admin/v1/webhooks/${id}`, { url });
        expect(answer.status).toBe(400);
        expect(answer.body).toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringContaining('url') });
        expect((await t.admin('GET', `/admin/v1/webhooks/${id}`)).body).toMatchObject({ url: PUBLIC });
      },
    );

    it('takes a global unicast IPv6 address', async () => {
      const answer = await t.admin('PATCH', `/admin/v1/webhooks/${id}`, { url: 'https://[2606:4700:4700::1111]/hooks' });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ url: 'https://[2606:4700:4700::1111]/hooks' });
    });
  });
});

describe('webhooks: no user or password in an address, query values masked below admin (CONTRACT 20, 21)', () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    t = await TestApp.start({ env: INSECURE });
    for (const role of ['viewer', 'support', 'admin', 'owner']) {
      const made = await t.admin('POST', '/admin/v1/operators', { name: `${role} operator`, role });
      expect(made.status).toBe(201);
      tokens[role] = made.body.token as string;
    }
  });
  afterAll(async () => t?.close());

  const as = (role: string, method: string, path: string, json?: unknown) =>
    t.request(method, path, { json, headers: { authorization: `Bearer ${tokens[role]}` } });

  it.each([
    ['a user and a password', 'https://u:p@hooks.example.com/path'],
    ['a user', 'https://u@hooks.example.com/path'],
    ['a password', 'https://:p@hooks.example.com/path'],
    ['credentials on an insecure address', 'http://user:pass@127.0.0.1:8080/hooks'],
  ])('refuses %s when registering and when changing', async (_, url) => {
    const created = await t.admin('POST', '/admin/v1/webhooks', { url, events: ['key.issued'] });
    expect(created.status).toBe(400);
    expect(created.body).toEqual({
      error: 'Invalid request',
      code: 'INVALID_REQUEST',
      message: 'url: must not carry a user or password (user:password@); put a token in the query instead',
    });
    const plain = await t.admin('POST', '/admin/v1/webhooks', { url: 'http://127.0.0.1:8080/hooks', events: ['key.issued'] });
    expect(plain.status).toBe(201);
    const changed = await t.admin('PATCH', `/admin/v1/webhooks/${plain.body.id}`, { url });
    expect(changed.status).toBe(400);
    expect(changed.body).toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringContaining('url: must not carry a user') });
    expect((await t.admin('GET', `/admin/v1/webhooks/${plain.body.id}`)).body).toMatchObject({ url: 'http://127.0.0.1:8080/hooks' });
    await t.admin('DELETE', `/admin/v1/webhooks/${plain.body.id}`);
  });

  it('shows query values as *** to viewer and support, in the list and alone; admin and owner see the address as registered', async () => {
    const url = 'http://127.0.0.1:8080/hooks/billing?token=s3cr3t-receiver-token&region=eu#part';
    const created = await t.admin('POST', '/admin/v1/webhooks', { url, events: ['key.issued'] });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const masked = 'http://127.0.0.1:8080/hooks/billing?token=***&region=***#***';
    for (const role of ['viewer', 'support']) {
      const list = await as(role, 'GET', '/admin/v1/webhooks');
      expect(list.status).toBe(200);
      expect(list.body.webhooks).toEqual([expect.objectContaining({ id, url: masked })]);
      const one = await as(role, 'GET', `/admin/v1/webhooks/${id}`);
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({ id, url: masked });
      expect(JSON.stringify([list.body, one.body])).not.toContain('s3cr3t');
    }
    for (const role of ['admin', 'owner']) {
      expect((await as(role, 'GET', '/admin/v1/webhooks')).body.webhooks).toEqual([expect.objectContaining({ id, url })]);
      expect((await as(role, 'GET', `/admin/v1/webhooks/${id}`)).body).toMatchObject({ id, url });
    }
    expect((await t.admin('GET', `/admin/v1/webhooks/${id}`)).body).toMatchObject({ url });
    await t.admin('DELETE', `/admin/v1/webhooks/${id}`);
  });
});

describe('webhooks: a receiver that never answers holds only its own slots', () => {
  let t: TestApp;
  let slow: WebhookReceiver;
  let healthy: WebhookReceiver;
  beforeAll(async () => {
    [slow, healthy] = await Promise.all([WebhookReceiver.start('/slow'), WebhookReceiver.start('/healthy')]);
    slow.answer = 'hold';
    t = await TestApp.start({ env: INSECURE });
  });
  afterAll(async () => {
    await slow?.close();
    await healthy?.close();
    await t?.close();
  });

  it("delivers a healthy endpoint's test deliveries and events at once while twelve to a silent one wait out their timeout", async () => {
    const add = async (url: string) => {
      const created = await t.admin('POST', '/admin/v1/webhooks', { url, events: ['key.issued'] });
      expect(created.status).toBe(201);
      return created.body.id as string;
    };
    const slowId = await add(slow.url);
    const healthyId = await add(healthy.url);
    // more deliveries to the silent endpoint than an instance attempts at once
    for (let i = 0; i < 12; i += 1) expect((await t.admin('POST', `/admin/v1/webhooks/${slowId}/test`)).status).toBe(202);
    await eventually(() => slow.received.length >= 1, { timeoutMs: 5000, intervalMs: 20 });
    const sent = Date.now();
    const tests: string[] = [];
    for (let i = 0; i < 3; i += 1) tests.push((await t.admin('POST', `/admin/v1/webhooks/${healthyId}/test`)).body.id as string);
    const keys: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const issued = await t.admin('POST', '/admin/v1/keys', { email: `slot${i}@example.org`, license_type: 'free' });
      expect(issued.status).toBe(201);
      keys.push(issued.body.key_id as string);
    }
    // well within the silent endpoint's 10 s timeout (ATTEMPT_TIMEOUT_MS): nothing of the healthy one waits for it
    await eventually(() => healthy.received.length === 6, { timeoutMs: 5000, intervalMs: 20 });
    expect(Date.now() - sent).toBeLessThan(5000);
    expect(healthy.received.map((r) => r.headers['webhook-id']).filter((id) => tests.includes(String(id)))).toHaveLength(3);
    expect(
      healthy
        .ofType('key.issued')
        .map((r) => (JSON.parse(r.body) as { data: { key_id: string } }).data.key_id)
        .sort(),
    ).toEqual([...keys].sort());
    // the silent endpoint holds at most its own two slots: its other deliveries (and its key.issued) wait their turn
    expect(slow.received.length).toBeLessThanOrEqual(2);
    await t.admin('DELETE', `/admin/v1/webhooks/${slowId}`);
    await t.admin('DELETE', `/admin/v1/webhooks/${healthyId}`);
  }, 30000);
});
