import { TestApp } from '../harness/create-test-app';
import { type HttpAnswer } from '../harness/http';

/**
 * Free text that cannot disguise itself: names, organizations, descriptions, reasons,
 * addresses and the ids of bodies refuse control characters and bidirectional formatting
 * characters with 400 INVALID_REQUEST naming the field; a path parameter or query value holding
 * NUL is 400 too. Run on SQLite, PostgreSQL (which stores no NUL in text: these answered 500) and
 * MySQL alike.
 */

/** NUL, the line breaks, tab, a C1 control, the separators, and the bidirectional marks, overrides and isolates. */
const DISGUISES: Array<[string, string]> = [
  ['NUL', '\u0000'],
  ['a line feed', '\n'],
  ['a carriage return', '\r'],
  ['a tab', '\t'],
  ['escape', '\u001b'],
  ['DEL', '\u007f'],
  ['NEL (C1)', '\u0085'],
  ['the line separator', '\u2028'],
  ['RLO (right-to-left override)', '\u202e'],
  ['LRE (left-to-right embedding)', '\u202a'],
  ['RLI (right-to-left isolate)', '\u2067'],
  ['PDI (pop directional isolate)', '\u2069'],
  ['RLM (right-to-left mark)', '\u200f'],
  ['LRM (left-to-right mark)', '\u200e'],
];

/** Text that is fine: other scripts, right-to-left words, accents, emoji with their joiners. */
const PLAIN = ['Zoë Ångström', 'محمد بن موسى', 'עברית', '李小龙', 'Team 👩‍💻', 'می‌خواهم'];

function model(name: string, overrides: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    version: '1.0.0',
    type: 'SvcQDA',
    paradigm: 'motor_imagery',
    n_features: 4,
    n_classes: 2,
    requires_license: 'research',
    download_url: 'https://cdn.example.com/m.bin',
    checksum: `sha256:${'ab'.repeat(32)}`,
    size_bytes: 10,
    ...overrides,
    metadata: { description: 'd', training_subjects: 1, accuracy: '0.9', feature_type: 'csp', recommended_use: 'tests', ...metadata },
  };
}

function expectRefused(answer: HttpAnswer, field: string): void {
  expect({ status: answer.status, body: answer.body }).toEqual({
    status: 400,
    body: {
      error: 'Invalid request',
      code: 'INVALID_REQUEST',
      message: expect.stringMatching(new RegExp(`^${field.replace('.', '\\.')} `)),
    },
  });
}

describe('free text without control or bidirectional formatting characters', () => {
  let t: TestApp;
  let apiKey: string;
  let keyId: string;
  let operatorId: string;
  let webhookId: string;
  let counter = 0;
  const unique = () => `m_${Date.now().toString(36)}_${counter++}`;

  beforeAll(async () => {
    t = await TestApp.start({ env: { SAMPLE_MODELS: 'false', WEBHOOK_ALLOW_INSECURE: 'true' } });
    const key = await t.issueKey();
    apiKey = key.api_key;
    keyId = key.key_id;
    const operator = await t.admin('POST', '/admin/v1/operators', { name: 'Plain Name', role: 'viewer' });
    expect(operator.status).toBe(201);
    operatorId = operator.body.operator_id as string;
    // a local address nobody listens on: nothing subscribed happens here
    const webhook = await t.admin('POST', '/admin/v1/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['model.deleted'] });
    expect(webhook.status).toBe(201);
    webhookId = webhook.body.id as string;
  });
  afterAll(async () => t?.close());

  /** Each free-text field of a request, as a call that sends `text` in it. */
  const FIELDS: Array<[string, (text: string) => Promise<HttpAnswer>]> = [
    ['name', (text) => t.admin('POST', '/admin/v1/operators', { name: `Grace${text}Hopper`, role: 'viewer' })],
    ['name', (text) => t.admin('PATCH', `/admin/v1/operators/${operatorId}`, { name: `Grace${text}` })],
    ['email', (text) => t.admin('POST', '/admin/v1/operators', { name: 'Grace', email: `grace${text}@example.org`, role: 'viewer' })],
    ['name', (text) => t.admin('POST', '/admin/v1/keys', { email: 'ada@example.org', name: `Ada${text}`, license_type: 'free' })],
    [
      'organization',
      (text) => t.admin('POST', '/admin/v1/keys', { email: 'ada@example.org', organization: `${text}Engines`, license_type: 'free' }),
    ],
    ['email', (text) => t.admin('POST', '/admin/v1/keys', { email: `ada${text}@example.org`, license_type: 'free' })],
    ['user_id', (text) => t.admin('POST', '/admin/v1/keys', { user_id: `usr_${text}`, license_type: 'free' })],
    ['reason', (text) => t.admin('POST', `/admin/v1/keys/${keyId}/revoke`, { reason: `gone${text}` })],
    ['reason', (text) => t.post('/v1/auth/revoke', { api_key: apiKey, reason: `gone${text}` })],
    [
      'description',
      (text) =>
        t.admin('POST', '/admin/v1/webhooks', { url: 'http://127.0.0.1:9/h', events: ['key.issued'], description: `Billing${text}` }),
    ],
    ['description', (text) => t.admin('PATCH', `/admin/v1/webhooks/${webhookId}`, { description: `Billing${text}` })],
    ['url', (text) => t.admin('POST', '/admin/v1/webhooks', { url: `http://127.0.0.1:9/h${text}`, events: ['key.issued'] })],
    ['url', (text) => t.admin('PATCH', `/admin/v1/webhooks/${webhookId}`, { url: `http://127.0.0.1:9/h?q=${text}` })],
    ['metadata.description', (text) => t.admin('POST', '/admin/v1/models', model(unique(), {}, { description: `LDA${text}` }))],
    ['metadata.accuracy', (text) => t.admin('POST', '/admin/v1/models', model(unique(), {}, { accuracy: `0.9${text}` }))],
    ['metadata.feature_type', (text) => t.admin('POST', '/admin/v1/models', model(unique(), {}, { feature_type: `csp${text}` }))],
    ['metadata.recommended_use', (text) => t.admin('POST', '/admin/v1/models', model(unique(), {}, { recommended_use: `x${text}` }))],
    [
      'download_url',
      (text) => t.admin('POST', '/admin/v1/models', model(unique(), { download_url: `https://cdn.example.com/m${text}.bin` })),
    ],
    [
      'owner_user_id',
      (text) => t.admin('POST', '/admin/v1/models', model(unique(), { owner_user_id: `usr_${text}`, requires_license: 'commercial' })),
    ],
    ['model_name', (text) => t.post('/v1/analytics/log', { api_key: apiKey, event_type: 'inference', model_name: `m${text}` })],
  ];

  describe('400 INVALID_REQUEST naming the field', () => {
    it.each(FIELDS.flatMap(([field, send]) => DISGUISES.map(([what, c]) => [field, what, send, c] as const)))(
      '%s with %s',
      async (field, _what, send, c) => {
        const answer = await send(c);
        // an e-mail address's own rule names it (an address has no control characters)
        if (field === 'email' && answer.body?.message === 'email must be an e-mail address') expect(answer.status).toBe(400);
        else expectRefused(answer, field);
      },
    );

    it.each(DISGUISES.filter(([, c]) => !'\t\n\r'.includes(c)))('an SDK error_message with %s', async (_, c) => {
      const answer = await t.post('/v1/analytics/log', { api_key: apiKey, event_type: 'error', error_message: `failed${c}here` });
      expectRefused(answer, 'error_message');
    });

    it('changes nothing it refused', async () => {
      expect((await t.admin('GET', `/admin/v1/operators/${operatorId}`)).body).toMatchObject({ name: 'Plain Name' });
      expect((await t.admin('GET', `/admin/v1/webhooks/${webhookId}`)).body).toMatchObject({
        url: 'http://127.0.0.1:9/hooks',
        description: null,
      });
      expect((await t.admin('GET', `/admin/v1/keys/${keyId}`)).body).toMatchObject({ status: 'active' });
      expect((await t.admin('GET', '/admin/v1/models')).body.models).toEqual([]);
    });
  });

  describe('a NUL in a path parameter or query value', () => {
    it.each([
      ['key_id', 'GET', '/admin/v1/keys/key_%00'],
      ['key_id', 'PATCH', '/admin/v1/keys/key_%00'],
      ['key_id', 'POST', '/admin/v1/keys/key_%00/revoke'],
      ['key_id', 'POST', '/admin/v1/keys/key_%00/rotate'],
      ['operator_id', 'GET', '/admin/v1/operators/op_%00'],
      ['operator_id', 'PATCH', '/admin/v1/operators/op_%00'],
      ['operator_id', 'POST', '/admin/v1/operators/op_%00/token'],
      ['id', 'GET', '/admin/v1/webhooks/whe_%00'],
      ['id', 'DELETE', '/admin/v1/webhooks/whe_%00'],
      ['id', 'POST', '/admin/v1/webhooks/whe_%00/test'],
      ['delivery_id', 'POST', `/admin/v1/webhooks/{webhook}/deliveries/msg_%00/retry`],
      ['name', 'GET', '/admin/v1/models/m%00'],
      ['name', 'DELETE', '/admin/v1/models/m%00'],
      ['email', 'GET', '/admin/v1/keys?email=ada%00@example.org'],
      ['email_prefix', 'GET', '/admin/v1/keys?email_prefix=ada%00'],
      ['user_id', 'GET', '/admin/v1/keys?user_id=usr_%00'],
      ['key_id', 'GET', '/admin/v1/audit?key_id=key_%00'],
      ['actor', 'GET', '/admin/v1/audit?actor=op_%00'],
      ['key_id', 'GET', '/admin/v1/usage?key_id=key_%00'],
      ['license_id', 'GET', '/admin/v1/usage?license_id=key_%00'],
      ['key_id', 'GET', '/admin/v1/usage/daily?key_id=key_%00'],
      ['license_id', 'GET', '/admin/v1/usage/daily?license_id=key_%00'],
    ])('%s: %s %s', async (field, method, path) => {
      const answer = await t.admin(method, path.replace('{webhook}', webhookId), method === 'GET' || method === 'DELETE' ? undefined : {});
      expectRefused(answer, field);
    });

    it('on the SDK routes, after the key is checked', async () => {
      for (const path of ['/v1/models/m%00', '/v1/models/m%00/download']) {
        expectRefused(await t.get(path, { 'x-api-key': apiKey }), 'name');
        expect((await t.get(path, { 'x-api-key': 'svc_live_nope' })).body).toMatchObject({ code: 'INVALID_FORMAT' });
      }
    });

    it('the key itself with a NUL is malformed (INVALID_FORMAT), never looked up', async () => {
      for (const path of ['/v1/auth/validate', '/v1/auth/refresh', '/v1/auth/revoke']) {
        expect((await t.post(path, { api_key: `${apiKey.slice(0, -1)}\u0000` })).body).toMatchObject({ code: 'INVALID_FORMAT' });
      }
      expect((await t.get('/v1/installer/github-token?api_key=svc_live_%00')).body).toMatchObject({ code: 'INVALID_FORMAT' });
    });
  });

  describe('accepted', () => {
    it.each(PLAIN)('%s as a name, an organization, a description and a reason', async (text) => {
      const operator = await t.admin('POST', '/admin/v1/operators', { name: text, role: 'viewer' });
      expect(operator.status).toBe(201);
      expect(operator.body.name).toBe(text);
      const key = await t.admin('POST', '/admin/v1/keys', {
        email: 'ok@example.org',
        name: text,
        organization: text,
        license_type: 'free',
      });
      expect(key.status).toBe(201);
      const validated = await t.post('/v1/auth/validate', { api_key: key.body.api_key });
      expect(validated.body).toMatchObject({ valid: true, name: text, organization: text });
      const changed = await t.admin('PATCH', `/admin/v1/webhooks/${webhookId}`, { description: text });
      expect(changed.body).toMatchObject({ description: text });
      expect((await t.admin('POST', `/admin/v1/keys/${key.body.key_id}/revoke`, { reason: text })).status).toBe(200);
    });

    it('an SDK error_message over several lines, with tabs', async () => {
      const answer = await t.post('/v1/analytics/log', {
        api_key: apiKey,
        event_type: 'error',
        error_message: 'Traceback:\n\tat decode()\r\n\tat run()',
      });
      expect(answer.status).toBe(202);
    });
  });
});
