import { TEST_ADMIN_TOKEN, TestApp } from '../harness/create-test-app';
import { type HttpAnswer } from '../harness/http';
import { eventually } from '../harness/eventually';

const TOO_DEEP = { error: 'Invalid request', code: 'INVALID_REQUEST', message: 'The body is nested deeper than 32 levels' };

/** `depth` arrays inside one another around `inner`: `[[…inner…]]`. */
function arrays(depth: number, inner = ''): string {
  return '['.repeat(depth) + inner + ']'.repeat(depth);
}

/** `depth` objects inside one another, `{"a":{"a":…{"a":1}…}}`. */
function objects(depth: number): string {
  return '{"a":'.repeat(depth - 1) + '{"a":1}' + '}'.repeat(depth - 1);
}

/**
 * JSON nested deeper than 32 levels (the body object itself is level 1) is
 * refused while the body is parsed, with the service's 400 INVALID_REQUEST, on
 * every route: thousands of levels used to overflow the stack in
 * class-transformer or JSON.stringify, answering 500 and logging a stack
 * trace. The fuzz suite sends deep bodies to every route.
 */
describe('JSON bodies nested deeper than 32 levels', () => {
  let t: TestApp;
  let operatorId: string;
  beforeAll(async () => {
    t = await TestApp.start({ env: { SAMPLE_MODELS: 'false' } });
    operatorId = (await t.admin('POST', '/admin/v1/operators', { name: 'Deep', role: 'viewer' })).body.operator_id;
  });
  afterAll(async () => {
    await t.close();
  });

  async function expectRefusedQuietly(res: HttpAnswer): Promise<void> {
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: TOO_DEEP });
    const id = res.headers.get('x-request-id');
    await eventually(() => t.logger.requestLines().some((line) => line.req_id === id));
    expect(t.logger.requestLines().find((line) => line.req_id === id)).toEqual(expect.objectContaining({ status: 400 }));
    const noisy = t.logger.lines.filter((line) => /RangeError|Maximum call stack|\n\s+at |"stack"|^error /.test(line));
    expect(noisy).toEqual([]);
  }

  const raw = (method: string, path: string, text: string, authorized = true) =>
    t.request(method, path, {
      raw: text,
      headers: { 'content-type': 'application/json', ...(authorized ? { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } : {}) },
    });

  describe.each([
    ['/admin/v1/operators', '{"name":NEST,"role":"viewer"}'],
    ['/admin/v1/keys', '{"email":NEST,"license_type":"free"}'],
    ['/admin/v1/webhooks', '{"url":NEST,"events":["key.issued"]}'],
  ])('POST %s', (path, shape) => {
    it('30,000 nested arrays (a 60 KB body) in a field, or as the whole body: 400 INVALID_REQUEST, nothing logged but the request', async () => {
      const inField = shape.replace('NEST', arrays(30_000));
      expect(inField.length).toBeLessThan(64 * 1024);
      await expectRefusedQuietly(await raw('POST', path, inField));
      await expectRefusedQuietly(await raw('POST', path, arrays(30_000)));
    });

    it('refused before authentication, as any malformed body is', async () => {
      await expectRefusedQuietly(await raw('POST', path, shape.replace('NEST', arrays(40)), false));
    });
  });

  it('PATCH /admin/v1/operators/{id}: 14,000 objects and arrays inside one another', async () => {
    const mixed = '{"a":['.repeat(7_000) + ']}'.repeat(7_000);
    await expectRefusedQuietly(await raw('PATCH', `/admin/v1/operators/${operatorId}`, `{"name":${mixed}}`));
  });

  describe('POST /v1/analytics/log', () => {
    let apiKey: string;
    beforeAll(async () => {
      apiKey = (await t.issueKey()).api_key;
    });

    const event = (metadata: string) => `{"api_key":"${apiKey}","event_type":"model_load","metadata":${metadata}}`;

    it('metadata nested 6,000 deep: 400 INVALID_REQUEST, nothing stored, nothing logged but the request', async () => {
      const body = event(objects(6_000));
      expect(body.length).toBeLessThan(64 * 1024);
      await expectRefusedQuietly(await raw('POST', '/v1/analytics/log', body, false));
      await expectRefusedQuietly(await raw('POST', '/v1/analytics/log', event(`{"a":${arrays(6_000, '1')}}`), false));
    });

    it('32 levels with the body itself (metadata 31 deep) are accepted; 33 are refused', async () => {
      const at32 = await raw('POST', '/v1/analytics/log', event(objects(31)), false);
      expect(at32.status).toBe(202);
      expect(at32.body.logged).toBe(true);
      await expectRefusedQuietly(await raw('POST', '/v1/analytics/log', event(objects(32)), false));
      // the body, metadata, then 30 arrays: 32 levels; 31 arrays: 33
      const arraysAt32 = await raw('POST', '/v1/analytics/log', event(`{"a":${arrays(30, '1')}}`), false);
      expect(arraysAt32.status).toBe(202);
      await expectRefusedQuietly(await raw('POST', '/v1/analytics/log', event(`{"a":${arrays(31, '1')}}`), false));
    });

    it('brackets inside strings are text, not nesting', async () => {
      const res = await raw('POST', '/v1/analytics/log', event(JSON.stringify({ note: '[{'.repeat(500), quoted: '"[[[[\\' })), false);
      expect(res.status).toBe(202);
    });
  });

  it('an admin body at 32 levels is read as usual (the extra field dropped); at 33 it is refused', async () => {
    const at32 = await raw('POST', '/admin/v1/operators', `{"name":"Level 32","role":"viewer","extra":${objects(31)}}`);
    expect(at32.status).toBe(201);
    await expectRefusedQuietly(await raw('POST', '/admin/v1/operators', `{"name":"Level 33","role":"viewer","extra":${objects(32)}}`));
    const names = (await t.admin('GET', '/admin/v1/operators')).body.operators.map((operator: { name: string }) => operator.name);
    expect(names).toContain('Level 32');
    expect(names).not.toContain('Level 33');
  });
});
