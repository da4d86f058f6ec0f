import { invalidRequestHintOf, readBody } from '../../../../../../test/harness/validated-body';
import { UpdateKeyRequest } from './update-key.request';

const read = (body: object): Promise<UpdateKeyRequest> => readBody(UpdateKeyRequest, body);
const hintOf = (body: object): Promise<string | undefined> => invalidRequestHintOf(UpdateKeyRequest, body);

describe(UpdateKeyRequest.name, () => {
  it('an empty body changes nothing: every field stays undefined', async () => {
    expect({ ...(await read({})) }).toEqual({});
  });

  it.each([
    ['an integer', 250],
    ['zero', 0],
    ['null (unlimited)', null],
    ['"tier" (back to the tier)', 'tier'],
  ])('takes a monthly_limit that is %s', async (_, monthly_limit) => {
    expect((await read({ monthly_limit })).monthly_limit).toBe(monthly_limit);
  });

  it.each([[-1], [1.5], [2 ** 53], ['x'], ['Tier'], ['100'], [true], [{}]])(
    'refuses the monthly_limit %j, naming it',
    async (monthly_limit) => {
      expect(await hintOf({ monthly_limit })).toBe('monthly_limit must be an integer >= 0, null for unlimited, or "tier"');
    },
  );

  it.each([['platinum'], [null], [''], [3]])('refuses the license_type %j (a key always has a tier), naming it', async (license_type) => {
    expect(await hintOf({ license_type })).toBe('license_type must be one of free, research, commercial, enterprise');
  });

  it('takes a tier and an expiry', async () => {
    expect({ ...(await read({ license_type: 'commercial', expires_at: '2030-01-01T00:00:00Z' })) }).toEqual({
      license_type: 'commercial',
      expires_at: '2030-01-01T00:00:00Z',
    });
  });

  it('judges expires_at first, then license_type, then monthly_limit', async () => {
    expect(await hintOf({ expires_at: 'tomorrow', license_type: 'gold', monthly_limit: -1 })).toMatch(/^expires_at /);
    expect(await hintOf({ license_type: 'gold', monthly_limit: -1 })).toMatch(/^license_type /);
  });
});
