import { type Model, type ModelFile, ModelRepository } from '@svc/domain';
import { T0, makeModel, makeUser } from '../factories/domain.factory';
import { type MakePersistence, useFixture } from './persistence-fixture';

const LATER = new Date('2026-04-01T09:30:00.789Z');

function fileOf(suffix: string, sizeBytes = 4096): ModelFile {
  return {
    storedFile: `motor_imagery_4class_v1-1.0.0-${suffix.padStart(24, '0')}.bin`,
    checksum: `sha256:${suffix.padStart(64, '0')}`,
    sizeBytes,
  };
}

function byName(a: Model, b: Model): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** The behaviour every ModelRepository adapter must share: records keyed by name, file swaps conditional. */
export function describeModelRepositoryContract(make: MakePersistence): void {
  describe(`${ModelRepository.name} contract`, () => {
    const fixture = useFixture(make);

    describe('insert, findByName and list', () => {
      it('round-trips every field, dates to the millisecond', async () => {
        const f = fixture();
        const model = makeModel({
          createdAt: new Date('2026-01-31T08:15:30.456Z'),
          updatedAt: new Date('2026-02-01T00:00:00.001Z'),
        });

        await expect(f.models.insert(model)).resolves.toBe(true);

        await expect(f.models.findByName(model.name)).resolves.toEqual(model);
        await expect(f.models.list()).resolves.toEqual([model]);
      });

      it.each<[string, Partial<Model>]>([
        ['without a file (unpublished)', { storedFile: null, checksum: null, sizeBytes: null }],
        [
          'with only an explicit address',
          { storedFile: null, checksum: null, sizeBytes: null, downloadUrl: 'https://cdn.example.com/m.bin?sig=a%2Fb' },
        ],
        ['with a file and an address', { downloadUrl: 'https://cdn.example.com/m.bin' }],
        ['of an empty file', { sizeBytes: 0 }],
        ['of a file beyond 32 bits', { sizeBytes: 5_000_000_123 }],
        ['of another type and tier', { type: 'SvcProbit', requiresLicense: 'enterprise', nFeatures: 1, nClasses: 2 }],
      ])('round-trips a record %s', async (_, overrides) => {
        const f = fixture();
        const model = makeModel(overrides);

        await expect(f.models.insert(model)).resolves.toBe(true);

        await expect(f.models.findByName(model.name)).resolves.toEqual(model);
      });

      it("round-trips a custom model's owner", async () => {
        const f = fixture();
        const owner = makeUser();
        await f.users.insert(owner);
        const model = makeModel({ ownerUserId: owner.id, requiresLicense: 'commercial' });

        await expect(f.models.insert(model)).resolves.toBe(true);

        await expect(f.models.findByName(model.name)).resolves.toEqual(model);
      });

      it('round-trips the metadata as the same JSON object, extra fields and nesting kept', async () => {
        const f = fixture();
        const metadata = {
          description: 'Motor imagery, 4 classes: "left", "right", \'feet\', tongue \\ é ✓ 🧠',
          training_subjects: 9,
          accuracy: '0.70-0.80',
          feature_type: 'csp',
          recommended_use: 'r',
          channels: ['C3', 'Cz', 'C4'],
          sampling_rate_hz: 250.5,
          calibrated: false,
          reference: null,
          filters: { bandpass: [8, 30], notch: { hz: 50, q: 30 } },
        };
        const model = makeModel({ metadata });

        await f.models.insert(model);

        const found = await f.models.findByName(model.name);
        expect(found?.metadata).toEqual(metadata);
        expect(found?.metadata).toStrictEqual(metadata);
      });

      it('answers null for an unknown name, and nothing for an empty registry', async () => {
        const f = fixture();
        await expect(f.models.list()).resolves.toEqual([]);
        await f.models.insert(makeModel({ name: 'known_v1' }));

        await expect(f.models.findByName('unknown_v1')).resolves.toBeNull();
        await expect(f.models.findByName('KNOWN_v1')).resolves.toBeNull();
        await expect(f.models.findByName('known_v')).resolves.toBeNull();
      });

      it('lists every record, published or not', async () => {
        const f = fixture();
        const models = [
          makeModel({ name: 'c_v1', paradigm: 'ssvep' }),
          makeModel({ name: 'a_v1', paradigm: 'p300', storedFile: null, checksum: null, sizeBytes: null }),
          makeModel({ name: 'b_v1', storedFile: null, checksum: null, sizeBytes: null, downloadUrl: 'https://cdn.example.com/b.bin' }),
        ];
        for (const model of models) await expect(f.models.insert(model)).resolves.toBe(true);

        const listed = await f.models.list();

        expect([...listed].sort(byName)).toEqual([...models].sort(byName));
      });

      it('refuses a taken name (false), leaving the stored record as it was', async () => {
        const f = fixture();
        const first = makeModel({ version: '1.0.0' });
        await f.models.insert(first);

        await expect(
          f.models.insert(
            makeModel({ version: '2.0.0', storedFile: null, checksum: null, sizeBytes: null, createdAt: LATER, updatedAt: LATER }),
          ),
        ).resolves.toBe(false);

        await expect(f.models.findByName(first.name)).resolves.toEqual(first);
        await expect(f.models.list()).resolves.toHaveLength(1);
      });
    });

    describe('updateDescription', () => {
      it('replaces the description and updated_at, keeping the file columns and created_at', async () => {
        const f = fixture();
        const stored = makeModel();
        await f.models.insert(stored);
        const replacement = makeModel({
          version: '1.1.0',
          type: 'SvcQDA',
          paradigm: 'p300',
          nFeatures: 48,
          nClasses: 2,
          downloadUrl: 'https://cdn.example.com/new.bin',
          requiresLicense: 'research',
          metadata: { description: 'new', training_subjects: 20, accuracy: '0.9', feature_type: 'erp', recommended_use: 'x', extra: [1] },
          // what a replacement must not change:
          storedFile: null,
          checksum: null,
          sizeBytes: null,
          createdAt: LATER,
          updatedAt: LATER,
        });

        await expect(f.models.updateDescription(replacement)).resolves.toBe(true);

        await expect(f.models.findByName(stored.name)).resolves.toEqual({
          ...replacement,
          storedFile: stored.storedFile,
          checksum: stored.checksum,
          sizeBytes: stored.sizeBytes,
          createdAt: stored.createdAt,
        });
      });

      it('clears nullable description columns', async () => {
        const f = fixture();
        const owner = makeUser();
        await f.users.insert(owner);
        const stored = makeModel({ ownerUserId: owner.id, requiresLicense: 'enterprise', downloadUrl: 'https://cdn.example.com/m.bin' });
        await f.models.insert(stored);

        await expect(f.models.updateDescription({ ...stored, ownerUserId: null, downloadUrl: null, updatedAt: LATER })).resolves.toBe(true);

        await expect(f.models.findByName(stored.name)).resolves.toEqual({
          ...stored,
          ownerUserId: null,
          downloadUrl: null,
          updatedAt: LATER,
        });
      });

      it('answers false for a record that is gone, creating nothing', async () => {
        const f = fixture();
        await expect(f.models.updateDescription(makeModel({ name: 'gone_v1' }))).resolves.toBe(false);
        await expect(f.models.findByName('gone_v1')).resolves.toBeNull();
        await expect(f.models.list()).resolves.toEqual([]);
      });
    });

    describe('updateUnstored', () => {
      it("replaces the description, drops the stored file, and sets the external file's checksum and size", async () => {
        const f = fixture();
        const stored = makeModel();
        await f.models.insert(stored);
        const external = makeModel({
          version: '1.2.0',
          downloadUrl: 'https://cdn.example.com/external.bin',
          storedFile: 'motor_imagery_4class_v1-1.0.0-ffffffffffffffffffffffff.bin',
          checksum: `sha256:${'e'.repeat(64)}`,
          sizeBytes: 9_007_199_254_740_991,
          createdAt: LATER,
          updatedAt: LATER,
        });

        await expect(f.models.updateUnstored(external)).resolves.toBe(true);

        await expect(f.models.findByName(stored.name)).resolves.toEqual({ ...external, storedFile: null, createdAt: stored.createdAt });
      });

      it('clears checksum and size when the record names no file any more', async () => {
        const f = fixture();
        const stored = makeModel({
          storedFile: null,
          downloadUrl: 'https://cdn.example.com/m.bin',
          checksum: `sha256:${'a'.repeat(64)}`,
          sizeBytes: 12,
        });
        await f.models.insert(stored);

        const cleared = { ...stored, downloadUrl: null, checksum: null, sizeBytes: null, updatedAt: LATER };
        await expect(f.models.updateUnstored(cleared)).resolves.toBe(true);

        await expect(f.models.findByName(stored.name)).resolves.toEqual(cleared);
      });

      it('answers false for a record that is gone, creating nothing', async () => {
        const f = fixture();
        await expect(f.models.updateUnstored(makeModel({ name: 'gone_v1' }))).resolves.toBe(false);
        await expect(f.models.list()).resolves.toEqual([]);
      });
    });

    describe('replaceFile', () => {
      it('sets the first file of a record without one (expected null), and updated_at only', async () => {
        const f = fixture();
        const stored = makeModel({ storedFile: null, checksum: null, sizeBytes: null });
        await f.models.insert(stored);
        const file = fileOf('1');

        await expect(f.models.replaceFile(stored.name, null, file, LATER)).resolves.toBe(true);

        await expect(f.models.findByName(stored.name)).resolves.toEqual({ ...stored, ...file, updatedAt: LATER });
      });

      it('replaces the file the caller expected', async () => {
        const f = fixture();
        const stored = makeModel({ storedFile: fileOf('1').storedFile });
        await f.models.insert(stored);
        const file = fileOf('2', 5_000_000_000);

        await expect(f.models.replaceFile(stored.name, fileOf('1').storedFile, file, LATER)).resolves.toBe(true);

        await expect(f.models.findByName(stored.name)).resolves.toEqual({ ...stored, ...file, updatedAt: LATER });
      });

      it.each<[string, string | null, string | null]>([
        ['another file than the stored one', fileOf('1').storedFile, fileOf('9').storedFile],
        ['no file while one is stored', fileOf('1').storedFile, null],
        ['a file while none is stored', null, fileOf('1').storedFile],
      ])('refuses (false, nothing changed) when the caller expected %s', async (_, storedFile, expected) => {
        const f = fixture();
        const stored = makeModel(storedFile === null ? { storedFile: null, checksum: null, sizeBytes: null } : { storedFile });
        await f.models.insert(stored);

        await expect(f.models.replaceFile(stored.name, expected, fileOf('2'), LATER)).resolves.toBe(false);

        await expect(f.models.findByName(stored.name)).resolves.toEqual(stored);
      });

      it('answers false for a record that is gone, creating nothing', async () => {
        const f = fixture();
        await expect(f.models.replaceFile('gone_v1', null, fileOf('1'), LATER)).resolves.toBe(false);
        await expect(f.models.findByName('gone_v1')).resolves.toBeNull();
      });

      it('lets exactly one of two concurrent swaps from the same expected file win', async () => {
        const f = fixture();
        const stored = makeModel({ storedFile: fileOf('1').storedFile });
        await f.models.insert(stored);
        const files = [fileOf('a'), fileOf('b')];

        const results = await Promise.all(files.map((file) => f.models.replaceFile(stored.name, stored.storedFile, file, LATER)));

        expect(results.filter((won) => won)).toHaveLength(1);
        const winner = files[results.indexOf(true)];
        await expect(f.models.findByName(stored.name)).resolves.toEqual({ ...stored, ...winner, updatedAt: LATER });
      });

      it('lets exactly one of ten concurrent first uploads (expected null) win', async () => {
        const f = fixture();
        const stored = makeModel({ storedFile: null, checksum: null, sizeBytes: null });
        await f.models.insert(stored);
        const files = Array.from({ length: 10 }, (_, i) => fileOf(`c${i}`));

        const results = await Promise.all(files.map((file) => f.models.replaceFile(stored.name, null, file, LATER)));

        expect(results.filter((won) => won)).toHaveLength(1);
        expect((await f.models.findByName(stored.name))?.storedFile).toBe(files[results.indexOf(true)].storedFile);
      });
    });

    describe('delete', () => {
      it('answers the deleted record, file columns and dates included; then it is gone', async () => {
        const f = fixture();
        const model = makeModel({
          downloadUrl: 'https://cdn.example.com/m.bin',
          sizeBytes: 5_000_000_123,
          metadata: {
            description: 'd',
            training_subjects: 9,
            accuracy: 'a',
            feature_type: 'f',
            recommended_use: 'r',
            nested: { x: [1, 'é'] },
          },
          createdAt: new Date('2026-01-31T08:15:30.456Z'),
          updatedAt: new Date('2026-02-01T00:00:00.001Z'),
        });
        const other = makeModel({ name: 'other_v1' });
        await f.models.insert(model);
        await f.models.insert(other);

        await expect(f.models.delete(model.name)).resolves.toEqual(model);

        await expect(f.models.findByName(model.name)).resolves.toBeNull();
        await expect(f.models.list()).resolves.toEqual([other]);
        await expect(f.models.delete(model.name)).resolves.toBeNull();
      });

      it('answers the record as last swapped and described', async () => {
        const f = fixture();
        const owner = makeUser();
        await f.users.insert(owner);
        const model = makeModel({ storedFile: null, checksum: null, sizeBytes: null, createdAt: T0, updatedAt: T0 });
        await f.models.insert(model);
        await f.models.replaceFile(model.name, null, fileOf('3'), LATER);
        const described = { ...model, version: '3.0', ownerUserId: owner.id, requiresLicense: 'commercial' as const, updatedAt: LATER };
        await f.models.updateDescription(described);

        await expect(f.models.delete(model.name)).resolves.toEqual({ ...described, ...fileOf('3') });
      });

      it('answers null for an unknown name, deleting nothing', async () => {
        const f = fixture();
        const model = makeModel();
        await f.models.insert(model);

        await expect(f.models.delete('unknown_v1')).resolves.toBeNull();

        await expect(f.models.list()).resolves.toEqual([model]);
      });
    });
  });
}
