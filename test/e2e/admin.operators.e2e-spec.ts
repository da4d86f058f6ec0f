import { CreateOperator } from '@svc/application';
import { FixedClock, PERMISSIONS, type Permission, ROLES, type Role, roleAllows, roleNeededFor } from '@svc/domain';
import { type OpenAPIObject } from '@nestjs/swagger';
import { RouteTable } from '../../apps/api/src/http/route-table';
import { buildOpenApiDocument } from '../../apps/api/src/openapi/openapi';
import { PERMISSION_EXTENSION } from '../../apps/api/src/admin-auth/admin-auth.decorator';
import { TEST_ADMIN_TOKEN, TestApp } from '../harness/create-test-app';
import { type HttpAnswer } from '../harness/http';

const OPERATOR_TOKEN = /^svc_admin_[0-9a-f]{48}$/;
const UNAUTHORIZED = { error: 'Unauthorized', code: 'UNAUTHORIZED', message: 'Send Authorization: Bearer <admin token>' };
const NOT_FOUND = { error: 'Not found', code: 'NOT_FOUND', message: 'No such endpoint' };

const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

function modelRecord(name: string): Record<string, unknown> {
  return {
    name,
    version: '1.0.0',
    type: 'SvcQDA',
    paradigm: 'motor_imagery',
    n_features: 12,
    n_classes: 3,
    requires_license: 'research',
    metadata: {
      description: 'Roles test model',
      training_subjects: 20,
      accuracy: '0.72-0.81',
      feature_type: 'csp',
      recommended_use: 'Cue-based motor imagery',
    },
  };
}

/** One call of an admin route, made ready (fresh resources) by the bootstrap owner. */
interface Call {
  readonly method: string;
  readonly path: string;
  readonly json?: unknown;
  readonly raw?: Uint8Array;
  /** The permission this call needs, when more than its route declares (a tier change). */
  readonly needs?: Permission;
}

describe('Operators, roles and who did what (CONTRACT 21)', () => {
  let t: TestApp;
  let document: OpenAPIObject;
  const tokens = {} as Record<Role, string>;
  const ids = {} as Record<Role, string>;
  let counter = 0;
  const unique = (prefix: string): string => `${prefix}_${Date.now().toString(36)}_${counter++}`;

  beforeAll(async () => {
    // webhook endpoints on a local address nobody listens on (deliveries fail; nothing leaves the machine)
    t = await TestApp.start({ env: { SAMPLE_MODELS: 'false', WEBHOOK_ALLOW_INSECURE: 'true' } });
    document = buildOpenApiDocument(t.app);
    for (const role of ROLES) {
      const res = await t.admin('POST', '/admin/v1/operators', { name: `The ${role}`, email: `${role}@example.org`, role });
      expect(res.status).toBe(201);
      tokens[role] = res.body.token;
      ids[role] = res.body.operator_id;
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  const as = (token: string, call: Call): Promise<HttpAnswer> =>
    t.request(call.method, call.path, {
      headers: { ...bearer(token), ...(call.raw ? { 'content-type': 'application/octet-stream' } : {}) },
      json: call.json,
      raw: call.raw,
    });

  async function freshKey(): Promise<string> {
    return (await t.issueKey({ email: `${unique('k')}@example.org` })).key_id;
  }
  async function freshModel(): Promise<string> {
    const name = unique('m');
    const created = await t.admin('POST', '/admin/v1/models', modelRecord(name));
    expect({ status: created.status, body: created.body }).toMatchObject({ status: 201 });
    return name;
  }
  const HOOK = { url: 'http://127.0.0.1:9/hooks', events: ['key.issued'] };
  async function freshWebhook(): Promise<string> {
    return (await t.admin('POST', '/admin/v1/webhooks', HOOK)).body.id;
  }
  async function freshDelivery(): Promise<string> {
    const id = await freshWebhook();
    const test = await t.admin('POST', `/admin/v1/webhooks/${id}/test`);
    return `${id}/deliveries/${test.body.id}`;
  }
  /** A key of a research license (3 seats) with one device activated: `key_id/devices/device_id`. */
  async function freshDevice(): Promise<string> {
    const { key_id, api_key } = await t.issueKey({ email: `${unique('d')}@example.org` });
    const activated = await t.post('/v1/devices/activate', { api_key, fingerprint: `${unique('fingerprint')}-0123456789` });
    expect(activated.status).toBe(201);
    return `${key_id}/devices/${activated.body.device_id}`;
  }
  async function freshOperator(): Promise<string> {
    return (await t.admin('POST', '/admin/v1/operators', { name: unique('op'), role: 'viewer' })).body.operator_id;
  }

  /**
   * A call that succeeds for a role holding the permission, per admin route
   * (METHOD and the route's pattern). The walk below fails on a route missing
   * here, so a new admin route cannot go untested.
   */
  const CALLS: Record<string, () => Promise<Call[]>> = {
    'GET /admin/v1/keys': async () => [{ method: 'GET', path: '/admin/v1/keys' }],
    'POST /admin/v1/keys': async () => [
      { method: 'POST', path: '/admin/v1/keys', json: { email: `${unique('n')}@example.org`, license_type: 'free' } },
    ],
    'GET /admin/v1/keys/:key_id': async () => [{ method: 'GET', path: `/admin/v1/keys/${await freshKey()}` }],
    'PATCH /admin/v1/keys/:key_id': async () => {
      // a research key (tier limit 50000) expiring a year from now: a month more is within keys.update, five years are not
      const { key_id: id, expires_at: expiresAt } = await t.issueKey({ email: `${unique('k')}@example.org` });
      const later = (days: number) => new Date(Date.parse(expiresAt) + days * 86_400_000).toISOString();
      return [
        { method: 'PATCH', path: `/admin/v1/keys/${id}`, json: { expires_at: later(30), monthly_limit: 10 } },
        { method: 'PATCH', path: `/admin/v1/keys/${await freshKey()}`, json: { license_type: 'enterprise' }, needs: 'keys.change_tier' },
        { method: 'PATCH', path: `/admin/v1/keys/${await freshKey()}`, json: { monthly_limit: null }, needs: 'keys.raise_limit' },
        { method: 'PATCH', path: `/admin/v1/keys/${await freshKey()}`, json: { monthly_limit: 50_001 }, needs: 'keys.raise_limit' },
        { method: 'PATCH', path: `/admin/v1/keys/${id}`, json: { expires_at: later(5 * 365) }, needs: 'keys.extend_expiry' },
        // a research license's 3 seats: lowering or going back to the tier's is keys.update, above the tier keys.raise_limit
        { method: 'PATCH', path: `/admin/v1/keys/${id}`, json: { max_devices: 1 } },
        { method: 'PATCH', path: `/admin/v1/keys/${id}`, json: { max_devices: null } },
        { method: 'PATCH', path: `/admin/v1/keys/${await freshKey()}`, json: { max_devices: 4 }, needs: 'keys.raise_limit' },
      ];
    },
    'POST /admin/v1/keys/:key_id/revoke': async () => [
      { method: 'POST', path: `/admin/v1/keys/${await freshKey()}/revoke`, json: { reason: 'roles' } },
    ],
    'POST /admin/v1/keys/:key_id/rotate': async () => [{ method: 'POST', path: `/admin/v1/keys/${await freshKey()}/rotate`, json: {} }],
    'GET /admin/v1/keys/:key_id/devices': async () => [{ method: 'GET', path: `/admin/v1/keys/${await freshKey()}/devices` }],
    'POST /admin/v1/keys/:key_id/devices/:device_id/deactivate': async () => [
      { method: 'POST', path: `/admin/v1/keys/${await freshDevice()}/deactivate` },
    ],
    'GET /admin/v1/audit': async () => [{ method: 'GET', path: '/admin/v1/audit' }],
    'GET /admin/v1/usage': async () => [{ method: 'GET', path: `/admin/v1/usage?key_id=${await freshKey()}` }],
    'GET /admin/v1/usage/daily': async () => [{ method: 'GET', path: `/admin/v1/usage/daily?key_id=${await freshKey()}` }],
    'GET /admin/v1/overview': async () => [{ method: 'GET', path: '/admin/v1/overview' }],
    'GET /admin/v1/usage/near-quota': async () => [{ method: 'GET', path: '/admin/v1/usage/near-quota' }],
    'GET /admin/v1/models': async () => [{ method: 'GET', path: '/admin/v1/models' }],
    'POST /admin/v1/models': async () => [{ method: 'POST', path: '/admin/v1/models', json: modelRecord(unique('m')) }],
    'GET /admin/v1/models/:name': async () => [{ method: 'GET', path: `/admin/v1/models/${await freshModel()}` }],
    'PUT /admin/v1/models/:name': async () => {
      const name = await freshModel();
      return [{ method: 'PUT', path: `/admin/v1/models/${name}`, json: { ...modelRecord(name), version: '1.0.1' } }];
    },
    'PUT /admin/v1/models/:name/file': async () => [
      { method: 'PUT', path: `/admin/v1/models/${await freshModel()}/file`, raw: new Uint8Array([1, 2, 3, 4]) },
    ],
    'DELETE /admin/v1/models/:name': async () => [{ method: 'DELETE', path: `/admin/v1/models/${await freshModel()}` }],
    'GET /admin/v1/me': async () => [{ method: 'GET', path: '/admin/v1/me' }],
    'GET /admin/v1/operators': async () => [{ method: 'GET', path: '/admin/v1/operators' }],
    'POST /admin/v1/operators': async () => [{ method: 'POST', path: '/admin/v1/operators', json: { name: unique('op'), role: 'viewer' } }],
    'GET /admin/v1/operators/:operator_id': async () => [{ method: 'GET', path: `/admin/v1/operators/${await freshOperator()}` }],
    'PATCH /admin/v1/operators/:operator_id': async () => [
      { method: 'PATCH', path: `/admin/v1/operators/${await freshOperator()}`, json: { name: unique('renamed') } },
    ],
    'POST /admin/v1/operators/:operator_id/token': async () => [
      { method: 'POST', path: `/admin/v1/operators/${await freshOperator()}/token` },
    ],
    'GET /admin/v1/webhooks': async () => [{ method: 'GET', path: '/admin/v1/webhooks' }],
    'POST /admin/v1/webhooks': async () => [{ method: 'POST', path: '/admin/v1/webhooks', json: HOOK }],
    'GET /admin/v1/webhooks/:id': async () => [{ method: 'GET', path: `/admin/v1/webhooks/${await freshWebhook()}` }],
    'PATCH /admin/v1/webhooks/:id': async () => [
      { method: 'PATCH', path: `/admin/v1/webhooks/${await freshWebhook()}`, json: { description: 'changed' } },
    ],
    'DELETE /admin/v1/webhooks/:id': async () => [{ method: 'DELETE', path: `/admin/v1/webhooks/${await freshWebhook()}` }],
    'POST /admin/v1/webhooks/:id/secret': async () => [{ method: 'POST', path: `/admin/v1/webhooks/${await freshWebhook()}/secret` }],
    'POST /admin/v1/webhooks/:id/test': async () => [{ method: 'POST', path: `/admin/v1/webhooks/${await freshWebhook()}/test` }],
    'GET /admin/v1/webhooks/:id/deliveries': async () => [{ method: 'GET', path: `/admin/v1/webhooks/${await freshWebhook()}/deliveries` }],
    'POST /admin/v1/webhooks/:id/deliveries/:delivery_id/retry': async () => [
      { method: 'POST', path: `/admin/v1/webhooks/${await freshDelivery()}/retry` },
    ],
  };

  /** Every admin route the running service registered (the RouteTable), with the permission OpenAPI shows for it. */
  function adminRoutes(): Array<{ route: string; permission: Permission | undefined }> {
    return t.app
      .get(RouteTable)
      .list()
      .filter(({ method, url }) => method !== 'HEAD' && url.startsWith('/admin/'))
      .map(({ method, url }) => {
        const path = url.replace(/:([A-Za-z_]+)/g, '{$1}');
        const operation = document.paths[path]?.[method.toLowerCase() as 'get'] as Record<string, unknown> | undefined;
        const declared = operation?.[PERMISSION_EXTENSION] as { name: Permission; role: Role } | undefined;
        if (declared) expect(declared.role).toBe(roleNeededFor(declared.name));
        return { route: `${method} ${url}`, permission: declared?.name };
      });
  }

  it('every admin route declares a permission of the table, shown in OpenAPI, and has a call in this test', () => {
    const routes = adminRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(Object.keys(CALLS).length);
    expect(routes.filter((r) => r.permission === undefined || !(r.permission in PERMISSIONS))).toEqual([]);
    expect(routes.map((r) => r.route).filter((route) => !(route in CALLS))).toEqual([]);
  });

  it('without a credential every admin route answers 401 (no route escapes the guard)', async () => {
    for (const { route } of adminRoutes()) {
      const [call] = await CALLS[route]();
      const res = await t.request(call.method, call.path, { json: call.json });
      expect({ route, status: res.status, body: res.body }).toEqual({ route, status: 401, body: UNAUTHORIZED });
    }
  });

  it("each role's token answers 2xx or 403 on every admin route exactly as the permission table says", async () => {
    const outcomes: Array<{ route: string; role: Role; status: number; expected: string }> = [];
    for (const { route, permission } of adminRoutes()) {
      for (const role of ROLES) {
        for (const call of await CALLS[route]()) {
          const needed = [permission!, ...(call.needs ? [call.needs] : [])];
          const allowed = needed.every((p) => roleAllows(role, p));
          const res = await as(tokens[role], call);
          const expected = allowed ? '2xx' : '403';
          const ok = allowed
            ? res.status >= 200 && res.status < 300
            : res.status === 403 &&
              res.body?.code === 'FORBIDDEN' &&
              res.body.message.includes(`the ${roleNeededFor(needed.find((p) => !roleAllows(role, p))!)} role`);
          if (!ok) outcomes.push({ route: `${call.method} ${call.path}`, role, status: res.status, expected });
        }
      }
    }
    expect(outcomes).toEqual([]);
  });

  it('GET /me names the caller and its role; ADMIN_TOKEN is the bootstrap owner', async () => {
    const me = await t.request('GET', '/admin/v1/me', { headers: bearer(tokens.support) });
    expect(me.body).toMatchObject({ operator_id: ids.support, name: 'The support', role: 'support' });
    expect(me.body.permissions).toContain('keys.revoke');
    expect(me.body.permissions).not.toContain('keys.issue');
    // what the role lacks, with the lowest role that holds it: the console's reasons, from the one table
    const lacking = Object.keys(PERMISSIONS).filter((p) => !roleAllows('support', p as Permission));
    expect(me.body.denied).toEqual(Object.fromEntries(lacking.map((p) => [p, roleNeededFor(p as Permission)])));
    expect(me.body.denied).toMatchObject({
      'keys.issue': 'admin',
      'keys.raise_limit': 'admin',
      'keys.extend_expiry': 'admin',
      'operators.manage': 'owner',
    });
    expect(me.body.permissions).toContain('keys.update');
    expect(Object.keys(me.body.denied).length + me.body.permissions.length).toBe(Object.keys(PERMISSIONS).length);
    const boot = await t.admin('GET', '/admin/v1/me');
    expect(boot.body).toMatchObject({ operator_id: null, name: 'bootstrap', role: 'owner', denied: {} });
  });

  describe("a key's limit and expiry: support lowers and extends a little, only admin upgrades", () => {
    const DAY = 86_400_000;
    const patch = (role: Role, keyId: string, json: unknown) =>
      t.request('PATCH', `/admin/v1/keys/${keyId}`, { headers: bearer(tokens[role]), json });
    /** A research key (tier limit 50000, the default year of life) and when it expires. */
    async function researchKey(): Promise<{ id: string; expiresAt: number }> {
      const issued = await t.admin('POST', '/admin/v1/keys', { email: `${unique('b')}@example.org`, license_type: 'research' });
      expect(issued.status).toBe(201);
      return { id: issued.body.key_id, expiresAt: Date.parse(issued.body.expires_at) };
    }
    const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

    it('support: lowering a limit 200, above the tier 403, unlimited 403, a short extension 200, a long one 403', async () => {
      const key = await researchKey();
      const shown = await t.admin('GET', `/admin/v1/keys/${key.id}`);
      expect(shown.body.update_bounds).toEqual({
        monthly_limit_max: 50_000,
        max_devices_max: 3,
        expires_at_max: iso(key.expiresAt + 365 * DAY),
      });

      const lowered = await patch('support', key.id, { monthly_limit: 1000 });
      expect({ status: lowered.status, limit: lowered.body.monthly_limit }).toEqual({ status: 200, limit: 1000 });
      expect((await patch('support', key.id, { monthly_limit: 50_000 })).status).toBe(200);
      expect((await patch('support', key.id, { monthly_limit: 'tier' })).status).toBe(200);

      const above = await patch('support', key.id, { monthly_limit: 50_001 });
      expect({ status: above.status, body: above.body }).toEqual({
        status: 403,
        body: {
          error: 'Forbidden',
          code: 'FORBIDDEN',
          message:
            "This needs the admin role or higher (permission keys.raise_limit): a monthly limit of 50001 is above the research tier's 50000",
        },
      });
      const unlimited = await patch('support', key.id, { monthly_limit: null });
      expect({ status: unlimited.status, code: unlimited.body.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
      expect(unlimited.body.message).toBe(
        "This needs the admin role or higher (permission keys.raise_limit): an unlimited monthly limit is above the research tier's 50000",
      );

      const short = await patch('support', key.id, { expires_at: iso(key.expiresAt + 30 * DAY) });
      expect({ status: short.status, expires_at: short.body.expires_at }).toEqual({
        status: 200,
        expires_at: iso(key.expiresAt + 30 * DAY),
      });
      const long = await patch('support', key.id, { expires_at: iso(key.expiresAt + 30 * DAY + 366 * DAY) });
      expect({ status: long.status, code: long.body.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
      expect(long.body.message).toMatch(
        /^This needs the admin role or higher \(permission keys\.extend_expiry\): an expiry more than 365 days \(the default lifetime\) past the current /,
      );
      // one refused part refuses the whole change: the allowed lowering in it is not made either
      expect((await patch('support', key.id, { monthly_limit: 5, expires_at: '2099-01-01T00:00:00Z' })).status).toBe(403);

      // the refusals changed nothing and wrote no audit entry
      const after = await t.admin('GET', `/admin/v1/keys/${key.id}`);
      expect(after.body).toMatchObject({ monthly_limit: 50_000, monthly_limit_source: 'tier', expires_at: iso(key.expiresAt + 30 * DAY) });
      const trail = await t.admin('GET', `/admin/v1/audit?key_id=${key.id}`);
      expect(trail.body.entries.filter((e: { action: string }) => e.action === 'key.updated')).toHaveLength(4);
    });

    it('an admin override above the tier may be lowered by support, not raised', async () => {
      const key = await researchKey();
      expect((await patch('admin', key.id, { monthly_limit: 1_000_000 })).status).toBe(200);
      expect((await t.admin('GET', `/admin/v1/keys/${key.id}`)).body.update_bounds.monthly_limit_max).toBe(1_000_000);
      expect((await patch('support', key.id, { monthly_limit: 900_000 })).status).toBe(200);
      expect((await patch('support', key.id, { monthly_limit: 950_000 })).status).toBe(403);
    });

    it.each(['admin', 'owner'] as const)('%s may raise above the tier, make unlimited and extend by years', async (role) => {
      const key = await researchKey();
      expect((await patch(role, key.id, { monthly_limit: 10_000_000 })).status).toBe(200);
      const unlimited = await patch(role, key.id, { monthly_limit: null, expires_at: iso(key.expiresAt + 10 * 365 * DAY) });
      expect({ status: unlimited.status, limit: unlimited.body.monthly_limit, expires_at: unlimited.body.expires_at }).toEqual({
        status: 200,
        limit: null,
        expires_at: iso(key.expiresAt + 10 * 365 * DAY),
      });
      expect(unlimited.body.update_bounds.monthly_limit_max).toBeNull();
      // an unlimited key has no ceiling: support may set any limit (a lowering), and keep it unlimited
      expect((await patch('support', key.id, { monthly_limit: null })).status).toBe(200);
      expect((await patch('support', key.id, { monthly_limit: 123_456_789 })).status).toBe(200);
    });
  });

  it('operators: created with a token shown once, listed and shown without it, last_used_at kept', async () => {
    const created = await t.admin('POST', '/admin/v1/operators', { name: 'Billing system', role: 'admin' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Billing system', role: 'admin', email: null, last_used_at: null, disabled_at: null });
    expect(created.body.token).toMatch(OPERATOR_TOKEN);
    expect((await t.request('GET', '/admin/v1/keys', { headers: bearer(created.body.token) })).status).toBe(200);
    const shown = await t.admin('GET', `/admin/v1/operators/${created.body.operator_id}`);
    expect(shown.body.token).toBeUndefined();
    expect(shown.body.last_used_at).not.toBeNull();
    const list = await t.admin('GET', '/admin/v1/operators');
    expect(list.text).not.toContain(created.body.token);
    expect(list.text).not.toMatch(/token|digest/i);
    const invalid = await t.admin('POST', '/admin/v1/operators', { name: '', role: 'boss' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe('INVALID_REQUEST');
    expect((await t.admin('GET', '/admin/v1/operators/opr_missing')).body.code).toBe('OPERATOR_NOT_FOUND');
  });

  it('a disabled operator and a replaced token are refused (401) on the next request', async () => {
    const op = (await t.admin('POST', '/admin/v1/operators', { name: 'Leaver', role: 'support' })).body;
    expect((await t.request('GET', '/admin/v1/me', { headers: bearer(op.token) })).status).toBe(200);
    const replaced = await t.admin('POST', `/admin/v1/operators/${op.operator_id}/token`);
    expect(replaced.status).toBe(201);
    expect(replaced.body.token).toMatch(OPERATOR_TOKEN);
    expect((await t.request('GET', '/admin/v1/me', { headers: bearer(op.token) })).body).toEqual(UNAUTHORIZED);
    expect((await t.request('GET', '/admin/v1/me', { headers: bearer(replaced.body.token) })).status).toBe(200);
    expect((await t.admin('PATCH', `/admin/v1/operators/${op.operator_id}`, { disabled: true })).body.disabled_at).not.toBeNull();
    const refused = await t.request('GET', '/admin/v1/me', { headers: bearer(replaced.body.token) });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer');
    expect((await t.admin('PATCH', `/admin/v1/operators/${op.operator_id}`, { disabled: false })).status).toBe(200);
    expect((await t.request('GET', '/admin/v1/me', { headers: bearer(replaced.body.token) })).status).toBe(200);
  });

  it('every audit entry names its actor; the log filters by actor; no token or digest anywhere', async () => {
    const key = await t.admin('POST', '/admin/v1/keys', { email: 'actors@example.org', license_type: 'research' });
    const keyId = key.body.key_id;
    expect(
      (await t.request('PATCH', `/admin/v1/keys/${keyId}`, { headers: bearer(tokens.support), json: { monthly_limit: 5 } })).status,
    ).toBe(200);
    const rotated = await t.post('/v1/auth/rotate', { api_key: key.body.api_key, grace_seconds: 0 });
    expect(rotated.status).toBe(200);
    expect((await t.post('/v1/auth/revoke', { api_key: rotated.body.api_key })).status).toBe(200);
    const trail = async (id: string): Promise<Array<{ action: string; actor: unknown }>> =>
      (await t.admin('GET', `/admin/v1/audit?key_id=${id}`)).body.entries.map((e: { action: string; actor: unknown }) => ({
        action: e.action,
        actor: e.actor,
      }));
    expect(await trail(keyId)).toEqual([
      { action: 'key.rotated', actor: { type: 'key', key_id: keyId } },
      { action: 'key.updated', actor: { type: 'operator', operator_id: ids.support, name: 'The support' } },
      { action: 'key.issued', actor: { type: 'bootstrap' } },
    ]);
    expect(await trail(rotated.body.key_id)).toEqual([
      { action: 'key.revoked', actor: { type: 'key', key_id: rotated.body.key_id } },
      { action: 'key.rotated', actor: { type: 'key', key_id: keyId } },
    ]);

    const bySupport = await t.admin('GET', `/admin/v1/audit?actor=${ids.support}&limit=200`);
    expect(bySupport.body.entries.length).toBeGreaterThan(0);
    expect(bySupport.body.entries.every((e: { actor: { operator_id?: string } }) => e.actor.operator_id === ids.support)).toBe(true);

    const operatorChanges = await t.admin('GET', '/admin/v1/audit?action=operator.created&limit=200');
    expect(
      operatorChanges.body.entries.find((e: { details: { operator_id: string } }) => e.details.operator_id === ids.owner),
    ).toMatchObject({
      actor: { type: 'bootstrap' },
      details: { operator_id: ids.owner, name: 'The owner', role: 'owner' },
    });
    const everything = JSON.stringify((await t.admin('GET', '/admin/v1/audit?limit=200')).body);
    const logs = t.logger.lines.join('\n');
    for (const token of [...Object.values(tokens), TEST_ADMIN_TOKEN]) {
      expect(everything).not.toContain(token);
      expect(everything).not.toContain(token.slice(10));
      expect(logs).not.toContain(token.slice(10));
    }
  });
});

describe('The last owner, and the admin API without ADMIN_TOKEN (CONTRACT 21)', () => {
  let t: TestApp;
  const clock = new FixedClock(new Date('2026-05-10T08:00:00.000Z'));

  beforeAll(async () => {
    t = await TestApp.start({ clock, env: { ADMIN_TOKEN: undefined as unknown as string, SAMPLE_MODELS: 'false' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is 404 with no operator; an operator made outside the API brings it up within a minute; the last owner stays', async () => {
    expect((await t.get('/admin/v1/me', bearer('svc_admin_' + '0'.repeat(48)))).body).toEqual(NOT_FOUND);
    // whatever the body: malformed JSON, a JSON array, another media type, too large; with or without a token (nothing is read)
    const bodies: Array<[string | Uint8Array, string]> = [
      ['{"name": "x", ', 'application/json'],
      ['[1, 2]', 'application/json'],
      ['name=x', 'application/x-www-form-urlencoded'],
      [new Uint8Array(2 * 1024 * 1024).fill(0x20), 'application/json'],
    ];
    const routes = [
      ['POST', '/admin/v1/operators'],
      ['POST', '/admin/v1/keys'],
      ['PATCH', '/admin/v1/operators/opr_x'],
    ];
    let sent = 0;
    const other: unknown[] = [];
    for (const [raw, type] of bodies) {
      for (const [method, path] of routes) {
        for (const headers of [{}, bearer('svc_admin_' + '0'.repeat(48))]) {
          const res = await t.request(method, path, { raw, headers: { ...headers, 'content-type': type } });
          sent++;
          if (res.status !== 404 || JSON.stringify(res.body) !== JSON.stringify(NOT_FOUND)) {
            other.push({ method, path, type, size: raw.length, status: res.status, body: res.body });
          }
        }
      }
    }
    expect(other).toEqual([]);
    expect(sent).toBe(bodies.length * routes.length * 2);
    const manage = await t.app.resolve(CreateOperator);
    const first = await manage.execute({ name: 'First owner', role: 'owner', actor: { type: 'cli', user: 'root' } });
    expect((await t.get('/admin/v1/me', bearer(first.token))).status).toBe(404);
    clock.advance(60_000);
    const me = await t.get('/admin/v1/me', bearer(first.token));
    expect(me.body).toMatchObject({ operator_id: first.operator.id, role: 'owner' });
    const asFirst = (method: string, path: string, json?: unknown): Promise<HttpAnswer> =>
      t.request(method, path, { json, headers: bearer(first.token) });

    const lastOwner = { error: 'Last owner', code: 'LAST_OWNER', message: expect.stringContaining('last enabled owner') };
    expect(await asFirst('PATCH', `/admin/v1/operators/${first.operator.id}`, { role: 'admin' })).toMatchObject({
      status: 409,
      body: lastOwner,
    });
    expect(await asFirst('PATCH', `/admin/v1/operators/${first.operator.id}`, { disabled: true })).toMatchObject({
      status: 409,
      body: lastOwner,
    });
    const second = (await asFirst('POST', '/admin/v1/operators', { name: 'Second owner', role: 'owner' })).body;
    expect((await asFirst('PATCH', `/admin/v1/operators/${first.operator.id}`, { role: 'admin' })).status).toBe(200);
    const asSecond = (method: string, path: string, json?: unknown): Promise<HttpAnswer> =>
      t.request(method, path, { json, headers: bearer(second.token) });
    expect(await asSecond('PATCH', `/admin/v1/operators/${second.operator_id}`, { disabled: true })).toMatchObject({ status: 409 });
    expect((await asFirst('GET', '/admin/v1/operators')).status).toBe(403);

    const entries = (await asSecond('GET', '/admin/v1/audit?action=operator.created')).body.entries;
    expect(entries.map((e: { actor: unknown }) => e.actor)).toEqual([
      { type: 'operator', operator_id: first.operator.id, name: 'First owner' },
      { type: 'cli', user: 'root' },
    ]);
  });

  it('with ADMIN_TOKEN standing in as an owner, the only operator owner may be demoted', async () => {
    const withBootstrap = await TestApp.start({ env: { SAMPLE_MODELS: 'false' } });
    try {
      const owner = (await withBootstrap.admin('POST', '/admin/v1/operators', { name: 'Only owner', role: 'owner' })).body;
      const asOwner = (method: string, path: string, json?: unknown): Promise<HttpAnswer> =>
        withBootstrap.request(method, path, { json, headers: bearer(owner.token) });
      expect((await asOwner('GET', '/admin/v1/operators')).status).toBe(200);
      // the only operator owner demotes itself: ADMIN_TOKEN stands in as an owner, so no LAST_OWNER
      const demoted = await asOwner('PATCH', `/admin/v1/operators/${owner.operator_id}`, { role: 'admin' });
      expect(demoted).toMatchObject({ status: 200, body: { operator_id: owner.operator_id, role: 'admin', disabled_at: null } });
      expect((await withBootstrap.admin('GET', `/admin/v1/operators/${owner.operator_id}`)).body).toMatchObject({ role: 'admin' });
      // its token now does what an admin may, and no longer what only an owner may
      expect((await asOwner('GET', '/admin/v1/me')).body).toMatchObject({ operator_id: owner.operator_id, role: 'admin' });
      expect((await asOwner('POST', '/admin/v1/keys', { email: 'demoted.owner@example.org', license_type: 'free' })).status).toBe(201);
      expect(await asOwner('GET', '/admin/v1/operators')).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
      expect((await asOwner('POST', '/admin/v1/operators', { name: 'Another', role: 'viewer' })).status).toBe(403);
      // made the only owner again (by ADMIN_TOKEN), it may disable itself as well: its token is then refused
      expect((await withBootstrap.admin('PATCH', `/admin/v1/operators/${owner.operator_id}`, { role: 'owner' })).status).toBe(200);
      const disabled = await asOwner('PATCH', `/admin/v1/operators/${owner.operator_id}`, { disabled: true });
      expect(disabled).toMatchObject({ status: 200, body: { role: 'owner', disabled_at: expect.any(String) } });
      expect((await asOwner('GET', '/admin/v1/me')).status).toBe(401);
    } finally {
      await withBootstrap.close();
    }
  });
});

describe('Failed admin authentications are limited per client address (CONTRACT 21)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start({ env: { AUTH_FAILURE_LIMIT_PER_MINUTE: '3', SAMPLE_MODELS: 'false' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('past the allowance a wrong token answers 429 with Retry-After, and so does every token, valid ones too', async () => {
    const op = (await t.admin('POST', '/admin/v1/operators', { name: 'Viewer', role: 'viewer' })).body;
    const wrong = [bearer('svc_admin_' + 'f'.repeat(48)), bearer('not-a-token'), {}];
    for (const headers of wrong) expect((await t.get('/admin/v1/keys', headers)).status).toBe(401);
    const limited = await t.get('/admin/v1/keys', bearer('svc_admin_' + 'e'.repeat(48)));
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // while the address is blocked the right answer is refused too: a guess that is right looks like a wrong one
    expect((await t.get('/admin/v1/keys', bearer(op.token))).status).toBe(429);
    expect((await t.admin('GET', '/admin/v1/me')).status).toBe(429);
    // the allowance is shared with failed key checks: a bad key from the same address is limited too
    expect((await t.post('/v1/auth/validate', { api_key: 'svc_live_' + '0'.repeat(48) })).status).toBe(429);
  });
});
