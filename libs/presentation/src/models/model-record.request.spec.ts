import 'reflect-metadata';
import { InvalidRequestError, MODEL_NAME_RULE } from '@svc/domain';
import { validatedRequest } from '../validation/request-validation';
import { ModelRecordRequest, modelDescriptionInputOf, modelFileClaimsOf } from './model-record.request';

const METADATA = { description: 'd', training_subjects: 15, accuracy: '0.80-0.90', feature_type: 'erp', recommended_use: 'r' };
const RECORD = {
  name: 'p300_binary_v1',
  version: '2.0',
  type: 'SvcProbit',
  paradigm: 'p300',
  n_features: 120,
  n_classes: 2,
  requires_license: 'research',
  metadata: METADATA,
};

/** The record as the admin API and the CLI read it. */
function read(record: object): Promise<ModelRecordRequest> {
  return validatedRequest(ModelRecordRequest, record);
}

/** The public hint of the INVALID_REQUEST reading `record` raises. */
async function hintOf(record: object): Promise<string | undefined> {
  const error = await read(record).then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(InvalidRequestError);
  return (error as InvalidRequestError).hint;
}

describe(ModelRecordRequest.name, () => {
  it('reads a full record, keeping extra metadata fields as given and dropping unknown fields', async () => {
    const metadata = { ...METADATA, channels: ['C3', 'Cz', 'C4'], montage: { reference: 'A1' }, note: null };
    const record = await read({ ...RECORD, surprise: 1, metadata });
    expect(record).toBeInstanceOf(ModelRecordRequest);
    expect('surprise' in record).toBe(false);
    expect(modelDescriptionInputOf(record)).toEqual({
      name: 'p300_binary_v1',
      version: '2.0',
      type: 'SvcProbit',
      paradigm: 'p300',
      nFeatures: 120,
      nClasses: 2,
      downloadUrl: null,
      requiresLicense: 'research',
      ownerUserId: null,
      metadata,
    });
    expect(Object.keys(record.metadata)).toEqual(Object.keys(metadata));
  });

  it('reads the optional fields, null as left out', async () => {
    const given = await read({ ...RECORD, download_url: 'https://cdn.example.com/m.bin', owner_user_id: 'usr_a' });
    expect(modelDescriptionInputOf(given)).toMatchObject({ downloadUrl: 'https://cdn.example.com/m.bin', ownerUserId: 'usr_a' });
    const nulls = await read({ ...RECORD, download_url: null, owner_user_id: null });
    expect(modelDescriptionInputOf(nulls)).toMatchObject({ downloadUrl: null, ownerUserId: null });
  });

  it('may leave the name out (the path names the model); the domain requires it otherwise', async () => {
    const { name: _, ...unnamed } = RECORD;
    expect(modelDescriptionInputOf(await read(unnamed)).name).toBeUndefined();
  });

  it('reads checksum, size_bytes and size_mb as claims about the file (the domain judges them), null as left out', async () => {
    const checksum = `sha256:${'0'.repeat(64)}`;
    expect(modelFileClaimsOf(await read({ ...RECORD, checksum, size_bytes: 1500, size_mb: 0.0015 }))).toEqual({
      checksum,
      sizeBytes: 1500,
      sizeMb: 0.0015,
    });
    const none = { checksum: null, sizeBytes: null, sizeMb: null };
    expect(modelFileClaimsOf(await read(RECORD))).toEqual(none);
    expect(modelFileClaimsOf(await read({ ...RECORD, checksum: null, size_bytes: null, size_mb: null }))).toEqual(none);
  });

  it.each<[string, unknown, string]>([
    ['checksum', 'sha256:ABC', 'checksum must be sha256:<64 lowercase hex> of the file'],
    ['checksum', `sha256:${'A'.repeat(64)}`, 'checksum must be sha256:<64 lowercase hex> of the file'],
    ['checksum', 7, 'checksum must be sha256:<64 lowercase hex> of the file'],
    ['size_bytes', 0, `size_bytes must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}`],
    ['size_bytes', 1.5, `size_bytes must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}`],
    ['size_bytes', '12', `size_bytes must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}`],
    ['size_bytes', 2 ** 53, `size_bytes must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}`],
    ['size_mb', -1, 'size_mb must be a number >= 0 (size_bytes / 1000000)'],
    ['size_mb', 'big', 'size_mb must be a number >= 0 (size_bytes / 1000000)'],
  ])('refuses a malformed %s (%j), naming it', async (field, value, hint) => {
    expect(await hintOf({ ...RECORD, [field]: value })).toBe(hint);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['name null', { name: null }, MODEL_NAME_RULE],
    ['name upper case', { name: 'Upper_Case' }, MODEL_NAME_RULE],
    ['name "list"', { name: 'list' }, MODEL_NAME_RULE],
    ['name too long', { name: 'x'.repeat(101) }, MODEL_NAME_RULE],
    ['name a number', { name: 7 }, MODEL_NAME_RULE],
    ['requires_license unknown', { requires_license: 'gold' }, 'requires_license must be one of free, research, commercial, enterprise'],
    ['requires_license missing', { requires_license: undefined }, 'requires_license must be one of free, research, commercial, enterprise'],
    ['owner_user_id a number', { owner_user_id: 42 }, 'owner_user_id must be a user id'],
    ['owner_user_id empty', { owner_user_id: '' }, 'owner_user_id must be a user id'],
    ['owner_user_id too long', { owner_user_id: 'u'.repeat(41) }, 'owner_user_id must be a user id'],
    ['version missing', { version: undefined }, 'version is required'],
    ['version null', { version: null }, 'version is required'],
    ['version v1', { version: 'v1' }, 'version must be dotted digits such as 1.0.2'],
    ['version 1.0-beta', { version: '1.0-beta' }, 'version must be dotted digits such as 1.0.2'],
    ['version a number', { version: 1 }, 'version must be dotted digits such as 1.0.2'],
    ['version too long', { version: '1.'.repeat(20) + '1' }, 'version must be dotted digits such as 1.0.2'],
    ['type missing', { type: undefined }, 'type is required'],
    ['type unknown', { type: 'SvcBayes' }, 'type must be one of SvcLDA, SvcQDA, SvcProbit'],
    ['paradigm missing', { paradigm: undefined }, 'paradigm is required'],
    [
      'paradigm with a space',
      { paradigm: 'Motor Imagery' },
      'paradigm must be 1-64 lowercase letters, digits, "_" or "-" (e.g. motor_imagery, p300, ssvep)',
    ],
    ['paradigm a number', { paradigm: 3 }, 'paradigm must be 1-64 lowercase letters, digits, "_" or "-" (e.g. motor_imagery, p300, ssvep)'],
    ['n_features missing', { n_features: undefined }, 'n_features is required'],
    ['n_features 0', { n_features: 0 }, 'n_features must be an integer from 1 to 1000000'],
    ['n_features 1.5', { n_features: 1.5 }, 'n_features must be an integer from 1 to 1000000'],
    ['n_features "12"', { n_features: '12' }, 'n_features must be an integer from 1 to 1000000'],
    ['n_features over the bound', { n_features: 1_000_001 }, 'n_features must be an integer from 1 to 1000000'],
    ['n_classes 1', { n_classes: 1 }, 'n_classes must be an integer from 2 to 1000000'],
    ['download_url ftp', { download_url: 'ftp://example.com/x.bin' }, 'download_url must be an http(s) URL of at most 2048 characters'],
    ['download_url not a URL', { download_url: 'not a url' }, 'download_url must be an http(s) URL of at most 2048 characters'],
    ['download_url a number', { download_url: 5 }, 'download_url must be an http(s) URL of at most 2048 characters'],
  ])('refuses %s, naming the field', async (_, change, hint) => {
    expect(await hintOf({ ...RECORD, ...change })).toBe(hint);
  });

  const METADATA_RULE = 'metadata must be an object with description, training_subjects, accuracy, feature_type and recommended_use';
  it.each<[string, unknown, string]>([
    ['missing', undefined, METADATA_RULE],
    ['null', null, METADATA_RULE],
    ['an array', [1], METADATA_RULE],
    ['a string', 'd', METADATA_RULE],
    ['over 16 KiB of JSON', { ...METADATA, notes: 'x'.repeat(16 * 1024) }, 'metadata must be at most 16384 bytes of JSON'],
    ['without a description', { ...METADATA, description: undefined }, 'metadata.description is required'],
    [
      'with a description too long',
      { ...METADATA, description: 'd'.repeat(2001) },
      'metadata.description must be a string of at most 2000 characters',
    ],
    ['with training_subjects -1', { ...METADATA, training_subjects: -1 }, 'metadata.training_subjects must be an integer >= 0'],
    ['with training_subjects 1.5', { ...METADATA, training_subjects: 1.5 }, 'metadata.training_subjects must be an integer >= 0'],
    ['with a numeric accuracy', { ...METADATA, accuracy: 0.8 }, 'metadata.accuracy must be a string of at most 200 characters'],
    ['without a feature_type', { ...METADATA, feature_type: null }, 'metadata.feature_type is required'],
    [
      'with recommended_use a number',
      { ...METADATA, recommended_use: 1 },
      'metadata.recommended_use must be a string of at most 2000 characters',
    ],
  ])('refuses metadata %s, naming the field', async (_, metadata, hint) => {
    expect(await hintOf({ ...RECORD, metadata })).toBe(hint);
  });

  it('judges the fields in the order the domain did: the file fields, name, tier, owner, then the rest in SPEC order', async () => {
    const allBad = {
      checksum: 'x',
      name: 'Bad',
      requires_license: 'gold',
      owner_user_id: 1,
      version: 'v',
      type: 'X',
      paradigm: 'P',
      n_features: 0,
      n_classes: 0,
      download_url: 'x',
      metadata: 1,
    };
    const order = [
      'checksum',
      'name',
      'requires_license',
      'owner_user_id',
      'version',
      'type',
      'paradigm',
      'n_features',
      'n_classes',
      'download_url',
      'metadata',
    ];
    for (const [index, field] of order.entries()) {
      const record = { ...RECORD, ...Object.fromEntries(order.slice(index).map((f) => [f, allBad[f as keyof typeof allBad]])) };
      expect(await hintOf(record)).toMatch(new RegExp(`^${field} `));
    }
  });
});
