import { GeneratedSecretRepository, type LicenseSigningKey, LicenseSigningKeyRepository } from '@svc/domain';
import { T0, uniqueId } from '../factories/domain.factory';
import { type MakePersistence, useFixture } from './persistence-fixture';

const LATER = new Date(T0.getTime() + 3_600_000);

export function makeSigningKey(generation: number, overrides: Partial<LicenseSigningKey> = {}): LicenseSigningKey {
  return {
    generation,
    privateKey: `-----BEGIN PRIVATE KEY-----\n${uniqueId('pem')}\n-----END PRIVATE KEY-----\n`,
    createdAt: T0,
    signsFrom: LATER,
    ...overrides,
  };
}

/**
 * The secrets the service generates when none is configured (CONTRACT 19), on
 * every adapter: kept by name, the first writer's kept whoever races it.
 */
export function describeGeneratedSecretRepositoryContract(make: MakePersistence): void {
  describe(`${GeneratedSecretRepository.name} contract`, () => {
    const fixture = useFixture(make);

    it('keeps the first secret under a name and answers it to every later writer; names are apart', async () => {
      const f = fixture();
      const name = uniqueId('secret');
      await expect(f.secrets.find(name)).resolves.toBeNull();
      await expect(f.secrets.keepFirst(name, 'first-value', T0)).resolves.toBe('first-value');
      await expect(f.secrets.keepFirst(name, 'second-value', LATER)).resolves.toBe('first-value');
      await expect(f.secrets.find(name)).resolves.toBe('first-value');
      const other = uniqueId('secret');
      await expect(f.secrets.keepFirst(other, 'other-value', T0)).resolves.toBe('other-value');
      await expect(f.secrets.find(name)).resolves.toBe('first-value');
    });

    it('of writers racing under one name, all are answered the one value kept', async () => {
      const f = fixture();
      const name = uniqueId('secret');
      const values = Array.from({ length: 10 }, (_, i) => `value-${i}-${uniqueId('v')}`);
      const answers = await Promise.all(values.map((value) => f.secrets.keepFirst(name, value, T0)));
      expect(new Set(answers).size).toBe(1);
      expect(values).toContain(answers[0]);
      await expect(f.secrets.find(name)).resolves.toBe(answers[0]);
    });
  });
}

/**
 * The generated license signing keys (CONTRACT 19), on every adapter: one per
 * generation, the first writer's; listed by generation; removed by generation.
 */
export function describeLicenseSigningKeyRepositoryContract(make: MakePersistence): void {
  describe(`${LicenseSigningKeyRepository.name} contract`, () => {
    const fixture = useFixture(make);

    it('keeps a key per generation, the first one only, and lists them oldest generation first as stored', async () => {
      const f = fixture();
      await expect(f.signingKeys.list()).resolves.toEqual([]);
      const [third, first, second] = [makeSigningKey(3), makeSigningKey(1, { signsFrom: T0 }), makeSigningKey(2)];
      for (const key of [third, first, second]) await expect(f.signingKeys.addIfAbsent(key)).resolves.toBe(true);
      await expect(f.signingKeys.addIfAbsent(makeSigningKey(2, { createdAt: LATER }))).resolves.toBe(false);
      await expect(f.signingKeys.list()).resolves.toEqual([first, second, third]);
    });

    it('removes the generations named, and nothing for none', async () => {
      const f = fixture();
      const keys = [makeSigningKey(1), makeSigningKey(2), makeSigningKey(3)];
      for (const key of keys) await f.signingKeys.addIfAbsent(key);
      await f.signingKeys.remove([]);
      await expect(f.signingKeys.list()).resolves.toHaveLength(3);
      await f.signingKeys.remove([1, 3, 9]);
      await expect(f.signingKeys.list()).resolves.toEqual([keys[1]]);
    });

    it('of writers racing for one generation, exactly one keeps its key', async () => {
      const f = fixture();
      await f.signingKeys.addIfAbsent(makeSigningKey(1));
      const racing = Array.from({ length: 8 }, () => makeSigningKey(2));
      const kept = await Promise.all(racing.map((key) => f.signingKeys.addIfAbsent(key)));
      expect(kept.filter(Boolean)).toHaveLength(1);
      const listed = await f.signingKeys.list();
      expect(listed.map((key) => key.generation)).toEqual([1, 2]);
      expect(listed[1]).toEqual(racing[kept.indexOf(true)]);
    });
  });
}
