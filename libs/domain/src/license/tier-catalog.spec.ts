import shippedTiers from '../../../../config/tiers.json';
import { LICENSE_TYPES, isLicenseType, meetsTier, rankOf } from './license-type';
import { TierCatalog, type TierCatalogSource } from './tier-catalog';

const SOURCE: TierCatalogSource = {
  free: { adds: ['a'], monthly_limit: 10 },
  research: { adds: ['b', 'c'], monthly_limit: 20 },
  commercial: { adds: [], monthly_limit: 30 },
  enterprise: { adds: ['d'], monthly_limit: null },
};

function withTier(tier: string, entry: unknown): TierCatalogSource {
  return { ...SOURCE, [tier]: entry } as TierCatalogSource;
}

describe(`${TierCatalog.name}: device policies (CONTRACT 23)`, () => {
  it("takes CONTRACT 23's defaults for a tier that says nothing of devices", () => {
    const catalog = TierCatalog.fromSource(SOURCE);
    expect(catalog.devicePolicyOf('research')).toEqual({ maxDevices: 3, leaseSeconds: null, requireDevice: false });
    expect(catalog.devicePolicyOf('enterprise').maxDevices).toBeNull();
  });

  it('reads max_devices, device_lease_seconds and require_device', () => {
    const catalog = TierCatalog.fromSource(
      withTier('free', { adds: ['a'], monthly_limit: 10, max_devices: 2, device_lease_seconds: 3600, require_device: true }),
    );
    expect(catalog.devicePolicyOf('free')).toEqual({ maxDevices: 2, leaseSeconds: 3600, requireDevice: true });
  });

  it.each([
    [{ max_devices: -1 }, /"free": "max_devices" must be an integer from 0/],
    [{ max_devices: 1.5 }, /"max_devices"/],
    [{ max_devices: '3' }, /"max_devices"/],
    [{ device_lease_seconds: 59 }, /"free": "device_lease_seconds" must be an integer from 60/],
    [{ device_lease_seconds: 'an hour' }, /"device_lease_seconds"/],
    [{ require_device: 'yes' }, /"free": "require_device" must be true or false/],
    [{ require_device: null }, /"require_device"/],
  ])('refuses %j with a plain sentence', (fields, message) => {
    expect(() => TierCatalog.fromSource(withTier('free', { adds: ['a'], monthly_limit: 10, ...fields }))).toThrow(message);
  });
});

describe(TierCatalog.name, () => {
  describe('the shipped config/tiers.json', () => {
    const catalog = TierCatalog.fromSource(shippedTiers);

    it('gives exactly the feature matrix of CONTRACT 4, in order', () => {
      const free = ['batch_inference'];
      const research = [...free, 'streaming', 'training', 'model_calibration', 'model_export'];
      const commercial = [...research, 'priority_support', 'custom_models'];
      const enterprise = [...commercial, 'dedicated_support', 'on_premise'];

      expect(catalog.featuresOf('free')).toEqual(free);
      expect(catalog.featuresOf('research')).toEqual(research);
      expect(catalog.featuresOf('commercial')).toEqual(commercial);
      expect(catalog.featuresOf('enterprise')).toEqual(enterprise);
    });

    it('gives the monthly limits 10000, 50000, 500000 and unlimited', () => {
      expect(LICENSE_TYPES.map((tier) => catalog.monthlyLimitOf(tier))).toEqual([10000, 50000, 500000, null]);
    });

    it('gives the device policies of CONTRACT 23: 1, 3, 25 and unlimited devices, no lease, no device required', () => {
      expect(LICENSE_TYPES.map((tier) => catalog.devicePolicyOf(tier))).toEqual([
        { maxDevices: 1, leaseSeconds: null, requireDevice: false },
        { maxDevices: 3, leaseSeconds: null, requireDevice: false },
        { maxDevices: 25, leaseSeconds: null, requireDevice: false },
        { maxDevices: null, leaseSeconds: null, requireDevice: false },
      ]);
    });

    it('answers terms as features and limit together', () => {
      expect(catalog.termsOf('free')).toEqual({ features: ['batch_inference'], monthlyLimit: 10000 });
    });
  });

  describe('fromSource', () => {
    it('makes each tier inherit the features of the tiers below it', () => {
      const catalog = TierCatalog.fromSource(SOURCE);
      expect(catalog.featuresOf('free')).toEqual(['a']);
      expect(catalog.featuresOf('research')).toEqual(['a', 'b', 'c']);
      expect(catalog.featuresOf('commercial')).toEqual(['a', 'b', 'c']);
      expect(catalog.featuresOf('enterprise')).toEqual(['a', 'b', 'c', 'd']);
    });

    it('lists a feature added again by a higher tier only once', () => {
      const catalog = TierCatalog.fromSource(withTier('commercial', { adds: ['a', 'e'], monthly_limit: 30 }));
      expect(catalog.featuresOf('commercial')).toEqual(['a', 'b', 'c', 'e']);
    });

    it('accepts a limit of 0', () => {
      expect(TierCatalog.fromSource(withTier('free', { adds: [], monthly_limit: 0 })).monthlyLimitOf('free')).toBe(0);
    });

    it('hands out features that cannot be changed from outside', () => {
      const catalog = TierCatalog.fromSource(SOURCE);
      expect(() => (catalog.featuresOf('free') as string[]).push('hacked')).toThrow(TypeError);
      expect(catalog.featuresOf('free')).toEqual(['a']);
    });

    it('does not share state with the source it was built from', () => {
      const adds = ['a'];
      const catalog = TierCatalog.fromSource(withTier('free', { adds, monthly_limit: 10 }));
      adds.push('late');
      expect(catalog.featuresOf('free')).toEqual(['a']);
    });

    it.each([
      ['an unknown tier', { ...SOURCE, platinum: { adds: [], monthly_limit: 1 } }, 'unknown tier "platinum"'],
      ['a tier in capitals', { ...SOURCE, Free: { adds: [], monthly_limit: 1 } }, 'unknown tier "Free"'],
      ['a missing tier', { free: SOURCE.free, research: SOURCE.research, commercial: SOURCE.commercial }, 'tier "enterprise" is missing'],
      ['no tiers at all', {}, 'tier "free" is missing'],
      [
        'adds that is not a list',
        withTier('research', { adds: 'streaming', monthly_limit: 1 }),
        'tier "research": "adds" must be a list of feature names',
      ],
      ['adds missing', withTier('research', { monthly_limit: 1 }), 'tier "research": "adds" must be a list of feature names'],
      ['an empty feature name', withTier('free', { adds: [''], monthly_limit: 1 }), 'tier "free": "adds" must be a list of feature names'],
      [
        'a feature that is not a string',
        withTier('free', { adds: [7], monthly_limit: 1 }),
        'tier "free": "adds" must be a list of feature names',
      ],
      [
        'a negative limit',
        withTier('free', { adds: [], monthly_limit: -1 }),
        'tier "free": "monthly_limit" must be an integer >= 0 or null',
      ],
      [
        'a fractional limit',
        withTier('free', { adds: [], monthly_limit: 1.5 }),
        'tier "free": "monthly_limit" must be an integer >= 0 or null',
      ],
      [
        'a limit as text',
        withTier('free', { adds: [], monthly_limit: '10000' }),
        'tier "free": "monthly_limit" must be an integer >= 0 or null',
      ],
      ['a limit left out', withTier('free', { adds: [] }), 'tier "free": "monthly_limit" must be an integer >= 0 or null'],
      ['a tier that is not an object', withTier('free', null), 'tier "free" is missing'],
    ])('refuses a source with %s', (_, source, message) => {
      expect(() => TierCatalog.fromSource(source)).toThrow(message);
    });
  });
});

describe('license tiers', () => {
  it('rank free < research < commercial < enterprise', () => {
    expect(LICENSE_TYPES).toEqual(['free', 'research', 'commercial', 'enterprise']);
    expect(LICENSE_TYPES.map(rankOf)).toEqual([0, 1, 2, 3]);
  });

  it.each([
    ['free', 'free', true],
    ['research', 'free', true],
    ['enterprise', 'commercial', true],
    ['commercial', 'enterprise', false],
    ['free', 'research', false],
    ['research', 'research', true],
  ] as const)('%s meets %s: %s', (held, required, expected) => {
    expect(meetsTier(held, required)).toBe(expected);
  });

  it.each([
    ['free', true],
    ['enterprise', true],
    ['Free', false],
    ['trial', false],
    ['', false],
    [' free', false],
    [null, false],
    [1, false],
  ])('isLicenseType(%j) is %s', (value, expected) => {
    expect(isLicenseType(value)).toBe(expected);
  });
});
