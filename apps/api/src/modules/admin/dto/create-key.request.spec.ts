import { invalidRequestHintOf, readBody } from '../../../../../../test/harness/validated-body';
import { CreateKeyRequest } from './create-key.request';

const read = (body: object): Promise<CreateKeyRequest> => readBody(CreateKeyRequest, body);
const hintOf = (body: object): Promise<string | undefined> => invalidRequestHintOf(CreateKeyRequest, body);

const VALID = { email: 'ada@example.org', license_type: 'research' };

describe(CreateKeyRequest.name, () => {
  it('reads a full body, typed, dropping unknown fields', async () => {
    const body = await read({ ...VALID, environment: 'test', expires_at: '2027-01-01T00:00:00Z', monthly_limit: 1500, key_id: 'key_mine' });
    expect(body).toBeInstanceOf(CreateKeyRequest);
    expect({ ...body }).toEqual({ ...VALID, environment: 'test', expires_at: '2027-01-01T00:00:00Z', monthly_limit: 1500 });
  });

  it('keeps monthly_limit omitted (the tier) apart from null (unlimited)', async () => {
    expect('monthly_limit' in (await read(VALID))).toBe(false);
    expect((await read({ ...VALID, monthly_limit: null })).monthly_limit).toBeNull();
    expect((await read({ ...VALID, monthly_limit: 0 })).monthly_limit).toBe(0);
    expect((await read({ ...VALID, monthly_limit: Number.MAX_SAFE_INTEGER })).monthly_limit).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('takes each tier, and either environment or none (null too: live)', async () => {
    for (const license_type of ['free', 'research', 'commercial', 'enterprise']) {
      expect((await read({ ...VALID, license_type })).license_type).toBe(license_type);
    }
    for (const environment of ['live', 'test', null, undefined]) {
      expect((await read({ ...VALID, environment })).environment).toBe(environment);
    }
  });

  it.each([
    ['unknown', 'gold'],
    ['missing', undefined],
    ['null', null],
    ['upper case', 'FREE'],
    ['a number', 1],
  ])('refuses a license_type %s, naming it', async (_, license_type) => {
    expect(await hintOf({ ...VALID, license_type })).toBe('license_type must be one of free, research, commercial, enterprise');
  });

  it.each([['prod'], [0], ['LIVE']])('refuses the environment %j, naming it', async (environment) => {
    expect(await hintOf({ ...VALID, environment })).toBe('environment must be live or test');
  });

  it.each([[-1], [1.5], [NaN], [2 ** 53], ['x'], ['100'], ['tier'], [true], [{ limit: 5 }], [[5]]])(
    'refuses the monthly_limit %j, naming it',
    async (monthly_limit) => {
      expect(await hintOf({ ...VALID, monthly_limit })).toBe('monthly_limit must be an integer >= 0, or null for unlimited');
    },
  );

  it('judges the shapes of the other fields first, then the tier, the environment and the limit', async () => {
    expect(await hintOf({ email: 42, license_type: 'gold' })).toMatch(/^email /);
    expect(await hintOf({ ...VALID, expires_at: 'tomorrow', license_type: 'gold' })).toMatch(/^expires_at /);
    expect(await hintOf({ ...VALID, license_type: 'gold', environment: 'prod', monthly_limit: -1 })).toMatch(/^license_type /);
    expect(await hintOf({ ...VALID, environment: 'prod', monthly_limit: -1 })).toMatch(/^environment /);
  });
});
