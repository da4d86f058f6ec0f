import { InvalidKeyError, LinkExpiredError, ModelRecordError, modelDescriptionOf, recordFileOf } from '@svc/domain';
import { makeModel } from '../../../../test/factories/domain.factory';
import { publicHintOf } from './public-hint';

/** The hint the edge answers with for the domain error `run` throws. */
function hintAtTheEdge(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ModelRecordError);
    return publicHintOf(error as ModelRecordError);
  }
  throw new Error('expected a ModelRecordError');
}

describe(publicHintOf.name, () => {
  const stored = makeModel();
  const description = { ...stored, downloadUrl: null };
  const external = { ...description, downloadUrl: 'https://cdn.example.com/m.bin' };

  it("words the model record rules with the request's own field names", () => {
    expect(hintAtTheEdge(() => modelDescriptionOf({ ...description, ownerUserId: 'usr_a', requiresLicense: 'free' }))).toBe(
      'requires_license must be commercial or enterprise for a custom model (one with owner_user_id)',
    );
    expect(hintAtTheEdge(() => modelDescriptionOf(description, 'other_v1'))).toBe(
      'name must match the model in the path (a model cannot be renamed)',
    );
    expect(hintAtTheEdge(() => recordFileOf(external, { sizeBytes: 1 }, null))).toMatch(
      /^checksum is required with an external download_url/,
    );
    expect(hintAtTheEdge(() => recordFileOf(external, { checksum: stored.checksum }, null))).toMatch(/^size_bytes is required/);
    expect(hintAtTheEdge(() => recordFileOf(external, { checksum: stored.checksum, sizeBytes: 10, sizeMb: 1 }, null))).toBe(
      'size_mb must equal size_bytes / 1000000 (it is derived from size_bytes)',
    );
    expect(hintAtTheEdge(() => recordFileOf(description, { sizeBytes: 1 }, stored))).toBe(
      `size_bytes must be the stored file's (${stored.sizeBytes}): it is computed from the uploaded file`,
    );
    expect(hintAtTheEdge(() => recordFileOf(description, { sizeMb: 3 }, null))).toBe(
      'size_mb can be set only with an external download_url; otherwise it is computed from the uploaded model file',
    );
  });

  it('names the route a fresh link comes from, and keeps every other hint as the domain gave it', () => {
    expect(publicHintOf(new LinkExpiredError())).toBe('Ask GET /v1/models/{name}/download for a fresh link');
    expect(new LinkExpiredError().hint).not.toContain('/v1/');
    expect(publicHintOf(new InvalidKeyError())).toBeUndefined();
  });
});
