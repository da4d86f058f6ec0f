import { InvalidRequestError } from '../shared/domain-error';
import { type ModelDescriptionInput, modelDescriptionOf, sizeMbOf } from './model';
import { isStoredFileUrl, recordFileOf } from './model-file-claims';
import { MODEL_NAME_RULE, isDownloadUrl, isModelName } from './model-forms';
import { compareModels, isPublished, readModelFilter, requiredTierOf, visibilityOf } from './model-visibility';
import { makeModel } from '../../../../test/factories/domain.factory';
import { InvalidParameterError, ModelRecordError, type ModelRecordViolation } from './model.errors';

/** The public hint of the domain error `run` throws (its `message` is only the description). */
function hintOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidRequestError);
    return (error as InvalidRequestError).hint;
  }
  throw new Error('expected an InvalidRequestError');
}

/** The record rule `run` breaks (the edge words it; the domain only names it). */
function violationOf(run: () => unknown): ModelRecordViolation {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ModelRecordError);
    expect(error).toBeInstanceOf(InvalidRequestError);
    return (error as ModelRecordError).violation;
  }
  throw new Error('expected a ModelRecordError');
}

const INPUT: ModelDescriptionInput = {
  name: 'p300_binary_v1',
  version: '2.0',
  type: 'SvcProbit',
  paradigm: 'p300',
  nFeatures: 120,
  nClasses: 2,
  downloadUrl: null,
  requiresLicense: 'research',
  ownerUserId: null,
  metadata: { description: 'd', training_subjects: 15, accuracy: '0.80-0.90', feature_type: 'erp', recommended_use: 'r', channels: 8 },
};

describe('model rules', () => {
  describe(isModelName.name, () => {
    it.each(['a', 'motor_imagery_4class_v1', 'p300.v2', 'x-1', '9lives', 'a'.repeat(100)])('accepts %j', (name) => {
      expect(isModelName(name)).toBe(true);
    });
    it.each(['', 'list', 'Upper', '_x', '.x', '-x', 'a/b', 'a b', 'a'.repeat(101), 42, null])('refuses %j', (name) => {
      expect(isModelName(name)).toBe(false);
    });
  });

  describe(visibilityOf.name, () => {
    const viewer = (licenseType: 'free' | 'research' | 'commercial' | 'enterprise', userId = 'usr_a') => ({ licenseType, userId });

    it('a published model at or below the tier is visible; above it, insufficient', () => {
      const research = makeModel({ requiresLicense: 'research' });
      expect(visibilityOf(research, viewer('free'))).toBe('insufficient');
      expect(visibilityOf(research, viewer('research'))).toBe('visible');
      expect(visibilityOf(research, viewer('enterprise'))).toBe('visible');
    });

    it('an unpublished model is not found, whatever the tier', () => {
      expect(visibilityOf(makeModel({ storedFile: null }), viewer('enterprise'))).toBe('not-found');
    });

    it('an explicit address with its checksum and size publishes a model', () => {
      const byUrl = makeModel({ storedFile: null, downloadUrl: 'https://cdn.example.com/m.bin' });
      expect(isPublished(byUrl)).toBe(true);
      expect(visibilityOf(byUrl, viewer('free'))).toBe('visible');
    });

    it('a record without a checksum or size is never published (an older external row stays unlisted until completed)', () => {
      const incomplete = makeModel({ storedFile: null, checksum: null, sizeBytes: null, downloadUrl: 'https://cdn.example.com/m.bin' });
      expect(isPublished(incomplete)).toBe(false);
      expect(visibilityOf(incomplete, viewer('enterprise'))).toBe('not-found');
      expect(isPublished(makeModel({ checksum: null }))).toBe(false);
    });

    it("a custom model: another user's keys never find it; the owner's need commercial", () => {
      const custom = makeModel({ ownerUserId: 'usr_a', requiresLicense: 'free' });
      expect(requiredTierOf(custom)).toBe('commercial');
      expect(visibilityOf(custom, viewer('enterprise', 'usr_b'))).toBe('not-found');
      expect(visibilityOf(custom, viewer('research', 'usr_a'))).toBe('insufficient');
      expect(visibilityOf(custom, viewer('commercial', 'usr_a'))).toBe('visible');
      expect(visibilityOf(makeModel({ ownerUserId: 'usr_a', requiresLicense: 'enterprise' }), viewer('commercial', 'usr_a'))).toBe(
        'insufficient',
      );
    });
  });

  it('size_mb is bytes / 1,000,000, unrounded', () => {
    expect(sizeMbOf(makeModel({ sizeBytes: 1234567 }))).toBe(1.234567);
    expect(sizeMbOf(makeModel({ sizeBytes: null }))).toBeNull();
  });

  it('sorts by paradigm, then name, in code-unit order', () => {
    const names = [
      makeModel({ paradigm: 'ssvep', name: 'a' }),
      makeModel({ paradigm: 'motor_imagery', name: 'motor_imagery_b' }),
      makeModel({ paradigm: 'motor_imagery', name: 'motor_imagery_A' }),
      makeModel({ paradigm: 'p300', name: 'z' }),
    ]
      .sort(compareModels)
      .map((m) => `${m.paradigm}/${m.name}`);
    expect(names).toEqual(['motor_imagery/motor_imagery_A', 'motor_imagery/motor_imagery_b', 'p300/z', 'ssvep/a']);
  });

  describe(readModelFilter.name, () => {
    it('takes any paradigm and one of the three types', () => {
      expect(readModelFilter({})).toEqual({});
      expect(readModelFilter({ paradigm: 'anything at all', type: 'SvcQDA' })).toEqual({ paradigm: 'anything at all', type: 'SvcQDA' });
    });
    it.each([[{ type: 'Bogus' }], [{ type: ['SvcLDA', 'SvcQDA'] }], [{ paradigm: ['p300', 'ssvep'] }], [{ type: '' }]])(
      'refuses %j with INVALID_PARAMETER',
      (query) => {
        expect(() => readModelFilter(query)).toThrow(InvalidParameterError);
      },
    );
  });

  describe(isDownloadUrl.name, () => {
    it.each(['https://cdn.example.com/m.bin', 'http://models.example.org/a/b?sig=1', `https://cdn.example.com/${'a'.repeat(2000)}`])(
      'accepts %j',
      (url) => {
        expect(isDownloadUrl(url)).toBe(true);
      },
    );
    it.each([
      'ftp://example.com/x.bin',
      'not a url',
      'javascript:alert(1)',
      'https://',
      'https://a b',
      `https://cdn.example.com/${'a'.repeat(2030)}`,
    ])('refuses %j', (url) => {
      expect(isDownloadUrl(url)).toBe(false);
    });
  });

  describe(modelDescriptionOf.name, () => {
    it('is the description, extra metadata fields kept', () => {
      expect(modelDescriptionOf(INPUT)).toEqual({ ...INPUT, name: 'p300_binary_v1' });
      expect(modelDescriptionOf(INPUT).metadata).toEqual({ ...INPUT.metadata, channels: 8 });
    });

    it('takes the name from the path when left out, and refuses another', () => {
      const { name: _, ...unnamed } = INPUT;
      expect(modelDescriptionOf(unnamed, 'p300_binary_v1').name).toBe('p300_binary_v1');
      expect(violationOf(() => modelDescriptionOf(INPUT, 'other_v1'))).toEqual({ rule: 'renamed' });
      expect(hintOf(() => modelDescriptionOf(INPUT, 'other_v1'))).toBe('a model cannot be renamed');
    });

    it.each([
      ['left out, with no path', undefined],
      ['upper case', 'Upper_Case'],
      ['the reserved "list"', 'list'],
      ['too long', 'x'.repeat(101)],
    ])('refuses a name %s with the name rule', (_, name) => {
      expect(hintOf(() => modelDescriptionOf({ ...INPUT, name }))).toBe(MODEL_NAME_RULE);
    });

    it('a custom model must require commercial or above', () => {
      const belowTier = { rule: 'custom-model-below-tier', tier: 'commercial' };
      expect(violationOf(() => modelDescriptionOf({ ...INPUT, ownerUserId: 'usr_a' }))).toEqual(belowTier);
      expect(violationOf(() => modelDescriptionOf({ ...INPUT, ownerUserId: 'usr_a', requiresLicense: 'free' }))).toEqual(belowTier);
      expect(modelDescriptionOf({ ...INPUT, ownerUserId: 'usr_a', requiresLicense: 'commercial' }).ownerUserId).toBe('usr_a');
      expect(modelDescriptionOf({ ...INPUT, ownerUserId: 'usr_a', requiresLicense: 'enterprise' }).ownerUserId).toBe('usr_a');
    });
  });

  describe('recordFileOf (CONTRACT 7: complete records, round trips)', () => {
    const STORED = makeModel();
    const description = { ...STORED, downloadUrl: null };
    const EXTERNAL = 'https://cdn.example.com/m.bin';
    const CHECKSUM = `sha256:${'b'.repeat(64)}`;

    it('an external download_url needs checksum and size_bytes, naming the missing one', () => {
      const external = { ...description, downloadUrl: EXTERNAL };
      expect(violationOf(() => recordFileOf(external, { sizeBytes: 10 }, null))).toEqual({
        rule: 'external-file-needs',
        claim: 'checksum',
      });
      expect(violationOf(() => recordFileOf(external, { checksum: CHECKSUM }, STORED))).toEqual({
        rule: 'external-file-needs',
        claim: 'sizeBytes',
      });
      expect(violationOf(() => recordFileOf(external, { checksum: CHECKSUM, sizeBytes: 10, sizeMb: 1 }, null))).toEqual({
        rule: 'size-mb-not-derived',
      });
      expect(recordFileOf(external, { checksum: CHECKSUM, sizeBytes: 10, sizeMb: 0.00001 }, null)).toEqual({
        description: external,
        file: { kind: 'external', checksum: CHECKSUM, sizeBytes: 10 },
      });
    });

    it("a stored file's own values are accepted, others refused naming the field", () => {
      const same = { checksum: STORED.checksum, sizeBytes: STORED.sizeBytes, sizeMb: sizeMbOf(STORED) };
      expect(recordFileOf(description, same, STORED)).toEqual({ description, file: { kind: 'stored' } });
      expect(recordFileOf(description, { checksum: null, sizeBytes: null, sizeMb: null }, STORED).file).toEqual({ kind: 'stored' });
      const differs = (claim: string, stored: unknown) => ({ rule: 'differs-from-stored-file', claim, stored });
      expect(violationOf(() => recordFileOf(description, { ...same, checksum: CHECKSUM }, STORED))).toEqual(
        differs('checksum', STORED.checksum),
      );
      expect(violationOf(() => recordFileOf(description, { ...same, sizeBytes: 1 }, STORED))).toEqual(
        differs('sizeBytes', STORED.sizeBytes),
      );
      expect(violationOf(() => recordFileOf(description, { ...same, sizeMb: 1 }, STORED))).toEqual(differs('sizeMb', sizeMbOf(STORED)));
    });

    it('a download_url naming the stored file (any base, any query) keeps the file and is not stored', () => {
      for (const url of [
        `https://api.example.com/model-files/${STORED.storedFile}`,
        `http://127.0.0.1:3000/model-files/${STORED.storedFile}?expires=1&signature=abc`,
        `https://cdn.example.com/files/${STORED.storedFile}`,
      ]) {
        expect(isStoredFileUrl(url, STORED.storedFile!)).toBe(true);
        expect(recordFileOf({ ...description, downloadUrl: url }, { checksum: STORED.checksum }, STORED)).toEqual({
          description,
          file: { kind: 'stored' },
        });
      }
      expect(isStoredFileUrl(EXTERNAL, STORED.storedFile!)).toBe(false);
      expect(isStoredFileUrl(`https://x.example.com/model-files/${STORED.storedFile}/more`, STORED.storedFile!)).toBe(false);
    });

    it('without any file, checksum and sizes cannot be set', () => {
      expect(recordFileOf(description, {}, null)).toEqual({ description, file: { kind: 'none' } });
      const external = makeModel({ storedFile: null, downloadUrl: EXTERNAL });
      expect(recordFileOf(description, {}, external).file).toEqual({ kind: 'none' });
      for (const [claim, claims] of [
        ['checksum', { checksum: CHECKSUM }],
        ['sizeBytes', { sizeBytes: 3 }],
        ['sizeMb', { sizeMb: 3 }],
      ] as const) {
        expect(violationOf(() => recordFileOf(description, claims, null))).toEqual({ rule: 'computed-from-stored-file', claim });
      }
    });
  });
});
