import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { TEST_ADMIN_TOKEN, TestApp } from '../harness/create-test-app';
import { type HttpAnswer } from '../harness/http';
import { rawRequest } from '../harness/raw-http';
import { eventually } from '../harness/eventually';

const INSTALLER_TOKEN = `ghp_logs_${randomBytes(16).toString('hex')}`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * The JSON log (pino): one line per answered request with its request id,
 * audit events of their own type, and no secret anywhere: not the keys
 * (wherever they were sent: body, query string, header, path), not the
 * installer token the service hands out, not the admin token.
 */
describe('Structured logs', () => {
  let t: TestApp;
  const answers: HttpAnswer[] = [];
  const secrets: string[] = [INSTALLER_TOKEN, TEST_ADMIN_TOKEN];

  beforeAll(async () => {
    t = await TestApp.start({ env: { LOG_LEVEL: 'trace', INSTALLER_GITHUB_TOKEN: INSTALLER_TOKEN, SAMPLE_MODELS: 'true' } });
  });
  afterAll(async () => {
    await t.close();
  });

  async function call(answer: Promise<HttpAnswer>): Promise<HttpAnswer> {
    const res = await answer;
    answers.push(res);
    return res;
  }

  it('a run over every endpoint, with the key in every place it may travel, and failures too', async () => {
    const issued = await call(t.admin('POST', '/admin/v1/keys', { email: 'logs@example.org', license_type: 'research' }));
    expect(issued.status).toBe(201);
    const key: string = issued.body.api_key;
    const keyId: string = issued.body.key_id;
    const other = await t.issueKey({ licenseType: 'commercial' });
    secrets.push(key, key.slice(9), other.api_key, other.api_key.slice(9));
    // an operator's own changes, with its own token
    const operator = await call(t.admin('POST', '/admin/v1/operators', { name: 'Logs Operator', role: 'admin' }));
    expect(operator.status).toBe(201);
    secrets.push(operator.body.token, operator.body.token.slice('svc_admin_'.length));
    const byOperator = await call(
      t.request('POST', '/admin/v1/keys', {
        json: { email: 'operator-issued@example.org', license_type: 'free' },
        headers: { authorization: `Bearer ${operator.body.token}` },
      }),
    );
    expect(byOperator.status).toBe(201);
    secrets.push(byOperator.body.api_key, byOperator.body.api_key.slice(9));
    const header = { 'x-api-key': key };

    const expectations: Array<[Promise<HttpAnswer>, number]> = [
      [t.post('/v1/auth/validate', { api_key: key }), 200],
      [t.post('/auth/validate', { api_key: key }), 200],
      [t.post('/v1/auth/refresh', { api_key: key }), 200],
      [t.get('/v1/installer/github-token', header), 200],
      [t.get(`/v1/installer/github-token?api_key=${key}`), 200],
      [t.post('/v1/installer/github-token', { api_key: key }), 200],
      [t.post('/installer/github-token', undefined, header), 200],
      [t.get(`/v1/models/list?api_key=${key}&type=SvcLDA`), 200],
      [t.get('/v1/models/list', header), 200],
      [t.get(`/v1/models/motor_imagery_4class_v1?api_key=${key}`), 200],
      [t.get(`/v1/models/motor_imagery_4class_v1/download?api_key=${key}`), 302],
      [t.post('/v1/analytics/log', { api_key: key, event_type: 'inference', model_name: 'motor_imagery_4class_v1' }), 202],
      [t.post('/v1/analytics/log', { event_type: 'model_load' }, header), 202],
      [t.get('/api/health'), 200],
      [t.get('/api/health/live'), 200],
      [t.get('/api/health/ready'), 200],
      [t.get('/metrics'), 200],
      [t.get('/api/docs-json'), 200],
      [t.admin('GET', `/admin/v1/keys/${keyId}`), 200],
      [t.admin('PATCH', `/admin/v1/keys/${keyId}`, { license_type: 'commercial' }), 200],
      [t.admin('GET', `/admin/v1/audit?key_id=${keyId}`), 200],
      [t.admin('GET', `/admin/v1/usage?key_id=${keyId}`), 200],
      [t.admin('GET', '/admin/v1/models'), 200],
      // failures that carry a key or a token somewhere
      [t.get(`/v1/auth/validate?api_key=${key}`), 405],
      [t.get(`/nope?api_key=${key}&token=${INSTALLER_TOKEN}`), 404],
      [t.get(`/v1/auth/${key}`), 404],
      [t.get(`/${key.slice(9)}`), 404],
      [t.post('/v1/auth/validate', { api_key: key.toUpperCase() }), 400],
      [t.post('/v1/auth/validate', { api_key: `${key}0` }), 400],
      [t.post('/v1/auth/validate', { api_key: `${key.slice(0, 9)}${'0'.repeat(48)}` }), 401],
      [t.post('/v1/analytics/log', { api_key: key, event_type: 'nope', error_message: key }), 400],
      [t.get(`/v1/models/no_such_model?api_key=${key}`), 404],
      [t.get('/v1/installer/github-token', { 'x-api-key': `${key}x` }), 400],
      [t.request('POST', '/v1/auth/validate', { raw: `{"api_key":"${key}"`, headers: { 'content-type': 'application/json' } }), 400],
      [t.request('POST', '/v1/auth/validate', { raw: `api_key=${key}`, headers: { 'content-type': 'text/plain' } }), 415],
      [t.request('GET', '/admin/v1/audit', { headers: { authorization: `Bearer ${key}` } }), 401],
      [t.admin('GET', `/admin/v1/keys/${key}`), 404],
    ];
    for (const [answer, status] of expectations) {
      const res = await call(answer);
      expect({ status: res.status, body: res.status >= 400 ? res.body : undefined }).toEqual({
        status,
        body: res.status >= 400 ? res.body : undefined,
      });
    }
    const malformed = await rawRequest(t.baseUrl, 'GET', `/v1/models/%zz?api_key=${key}`);
    expect(malformed.status).toBe(400);

    expect((await call(t.post('/v1/auth/revoke', { api_key: key, reason: `rotated; old key was ${key}` }))).status).toBe(200);
    expect((await call(t.admin('POST', `/admin/v1/keys/${other.key_id}/revoke`, { reason: 'abuse' }))).status).toBe(200);
    await eventually(() => t.logger.requestLines().length >= answers.length);
  });

  it('no line holds a key, its secret part, the installer token or the admin token', () => {
    expect(t.logger.lines.length).toBeGreaterThan(answers.length);
    for (const line of t.logger.lines) {
      for (const secret of secrets) {
        expect({ line: line.slice(0, 400), leaked: line.includes(secret) }).toEqual({ line: line.slice(0, 400), leaked: false });
      }
    }
    const urls = t.logger.requestLines().map((line) => line.url as string);
    expect(urls).toEqual(expect.arrayContaining(['/v1/installer/github-token?api_key=[REDACTED]', '/v1/auth/[REDACTED]']));
  });

  it('every line is JSON with a level, a time and a message', () => {
    expect(t.logger.records.length).toBe(t.logger.lines.length);
    for (const record of t.logger.records) {
      expect(record).toEqual(
        expect.objectContaining({
          level: expect.stringMatching(/^(trace|debug|info|warn|error|fatal)$/),
          time: expect.any(Number),
          msg: expect.any(String),
        }),
      );
    }
  });

  it('one line per answered request, whose req_id is the X-Request-Id of the answer', () => {
    const lines = t.logger.requestLines();
    for (const res of answers) {
      const id = res.headers.get('x-request-id');
      expect(id).toMatch(UUID);
      const matching = lines.filter((line) => line.req_id === id);
      expect({ id, count: matching.length }).toEqual({ id, count: 1 });
      expect(matching[0]).toEqual(
        expect.objectContaining({
          event: 'request',
          status: res.status,
          method: expect.any(String),
          url: expect.any(String),
          route: expect.any(String),
          duration_ms: expect.any(Number),
        }),
      );
    }
    for (const line of lines) expect(line.req_id).toEqual(expect.any(String));
    expect(lines.find((line) => line.status === 404)?.route).toBe('unmatched');
    expect(lines.find((line) => line.url === '/auth/validate')?.route).toBe('/v1/auth/validate');
  });

  it('audit events are lines of their own: issuance, tier changes, token issuance, revocations, model changes', () => {
    const audits = t.logger.records.filter((record) => record.event === 'audit');
    const actions = audits.map((record) => record.action);
    expect(actions).toEqual(expect.arrayContaining(['key.issued', 'key.updated', 'installer.token_issued', 'key.revoked']));
    expect(actions.filter((action) => action === 'installer.token_issued')).toHaveLength(4);
    for (const record of audits.filter((r) => String(r.action).startsWith('key.') || r.action === 'installer.token_issued')) {
      expect(record).toEqual(expect.objectContaining({ key_id: expect.stringMatching(/^key_/), audit_id: expect.any(String) }));
    }
    // the sample catalogue published at start-up: model events, naming the model rather than a key
    const models = audits.filter((record) => String(record.action).startsWith('model.'));
    expect(models.length).toBeGreaterThan(0);
    for (const record of models) {
      expect(record).toEqual(
        expect.objectContaining({
          action: 'model.created',
          key_id: null,
          audit_id: expect.any(String),
          details: expect.objectContaining({
            model: expect.any(String),
            checksum: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
            channel: 'api',
          }),
        }),
      );
    }
    const revocation = audits.find(
      (record) => record.action === 'key.revoked' && record.details && (record.details as { by: string }).by === 'holder',
    );
    expect(revocation?.reason).toBe('rotated; old key was [REDACTED]');
  });

  it('audit lines name the actor, as the database and GET /admin/v1/audit carry it', async () => {
    const shown = new Map<string, unknown>();
    let cursor: string | null = null;
    do {
      const page: HttpAnswer = await t.admin('GET', `/admin/v1/audit?limit=200${cursor === null ? '' : `&cursor=${cursor}`}`);
      expect(page.status).toBe(200);
      for (const entry of page.body.entries as Array<{ id: string; actor: unknown }>) shown.set(entry.id, entry.actor);
      cursor = page.body.next_cursor;
    } while (cursor !== null);
    const audits = t.logger.records.filter((record) => record.event === 'audit');
    expect(audits.length).toBeGreaterThan(0);
    for (const record of audits) {
      const id = record.audit_id as string;
      expect({ id, action: record.action, actor: record.actor }).toEqual({ id, action: record.action, actor: shown.get(id) });
    }
    const actors = audits.map((record) => record.actor as { type: string; name?: string });
    expect(actors).toEqual(
      expect.arrayContaining([
        { type: 'bootstrap' },
        { type: 'operator', operator_id: expect.stringMatching(/^opr_/), name: 'Logs Operator' },
        { type: 'key', key_id: expect.stringMatching(/^key_/) },
      ]),
    );
    // the operator's key issuance is logged as the operator's
    const issuedByOperator = audits.find(
      (record) => record.action === 'key.issued' && (record.actor as { type: string }).type === 'operator',
    );
    expect(issuedByOperator).toBeDefined();
  });

  describe('request ids', () => {
    it('keeps a sane incoming X-Request-Id, and replaces one that is not', async () => {
      const sane = await t.get('/api/health/live', { 'x-request-id': 'sdk-0.4.2:abc/123=' });
      expect(sane.headers.get('x-request-id')).toBe('sdk-0.4.2:abc/123=');
      for (const insane of ['has spaces in it', 'x'.repeat(129), 'quote"d', 'semi;colon', '']) {
        const res = await t.get('/api/health/live', { 'x-request-id': insane });
        expect(res.headers.get('x-request-id')).toMatch(UUID);
      }
      await eventually(() => t.logger.requestLines().some((line) => line.req_id === 'sdk-0.4.2:abc/123='));
    });

    it('error answers carry it too', async () => {
      for (const res of [await t.get('/nope'), await t.request('PUT', '/v1/auth/validate'), await t.post('/v1/auth/validate', {})]) {
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.headers.get('x-request-id')).toMatch(UUID);
      }
    });
  });

  describe('migrations at start-up', () => {
    /** The lines saying a migration was applied, as `[level, name]`. */
    function migrationLines(app: TestApp): Array<[unknown, string]> {
      return app.logger.records
        .filter((record) => record.context === 'Database' && /^migration \S+ applied$/.test(String(record.msg)))
        .map((record) => [record.level, String(record.msg).split(' ')[1]]);
    }

    it('a fresh database: one info line per migration applied, in the order applied; a restart on it: none', async () => {
      // a database of its own, created empty (SQLite, PostgreSQL or MySQL): the service migrates it
      const fresh = await TestApp.start({ emptyDatabase: true, env: { LOG_LEVEL: 'info' } });
      const recorded: Array<{ name: string }> = await fresh.app.get(DataSource).query('SELECT name FROM migrations ORDER BY id');
      expect(recorded.length).toBeGreaterThan(5);
      expect(migrationLines(fresh)).toEqual(recorded.map(({ name }) => ['info', name]));

      const again = await TestApp.start({ env: { DATABASE_URL: fresh.databaseUrl, LOG_LEVEL: 'info' } });
      try {
        expect(migrationLines(again)).toEqual([]);
        // the same database, migrated once: the second start found nothing to apply
        expect(await again.app.get(DataSource).query('SELECT name FROM migrations ORDER BY id')).toEqual(recorded);
      } finally {
        await again.close();
        await fresh.close();
      }
    });
  });

  describe('LOG_LEVEL', () => {
    it('warn: no request lines, warnings still written', async () => {
      const quiet = await TestApp.start({ env: { LOG_LEVEL: 'warn' } });
      try {
        await quiet.get('/api/health');
        await quiet.post('/v1/auth/validate', {});
        expect(quiet.logger.requestLines()).toEqual([]);
        expect(quiet.logger.records.every((record) => ['warn', 'error', 'fatal'].includes(String(record.level)))).toBe(true);
      } finally {
        await quiet.close();
      }
    });
  });
});
