import { Model } from '@svc/domain';
import { MODEL_FILES_PATH, downloadUrlOf, modelFileBaseOf } from './model-download';

const AT = new Date('2026-03-15T12:00:00Z');

function makeModel(overrides: Partial<Model> = {}): Model {
  return {
    name: 'motor_imagery_4class_v1',
    version: '1.0.0',
    type: 'SvcLDA',
    paradigm: 'motor_imagery',
    nFeatures: 24,
    nClasses: 4,
    downloadUrl: null,
    requiresLicense: 'free',
    ownerUserId: null,
    metadata: { description: 'd', training_subjects: 9, accuracy: '0.70-0.80', feature_type: 'csp', recommended_use: 'r' },
    storedFile: 'motor_imagery_4class_v1-1.0.0-000000000000000000000000.bin',
    checksum: `sha256:${'a'.repeat(64)}`,
    sizeBytes: 1234567,
    createdAt: AT,
    updatedAt: AT,
    ...overrides,
  };
}

describe(modelFileBaseOf.name, () => {
  it("is MODEL_HOST when set, else the service's own /model-files under the origin (relative when empty)", () => {
    expect(MODEL_FILES_PATH).toBe('/model-files');
    expect(modelFileBaseOf('https://cdn.example.com/m', 'http://ignored')).toBe('https://cdn.example.com/m');
    expect(modelFileBaseOf(null, 'http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000/model-files');
    expect(modelFileBaseOf(null, '')).toBe('/model-files');
  });
});

describe(downloadUrlOf.name, () => {
  it('prefers the explicit address, else the stored file under the file base', () => {
    const stored = makeModel();
    expect(downloadUrlOf(stored, modelFileBaseOf(null, 'http://127.0.0.1:3000'))).toBe(`http://127.0.0.1:3000/model-files/${stored.storedFile}`);
    expect(downloadUrlOf(stored, modelFileBaseOf('https://cdn.example.com/m', 'http://ignored'))).toBe(`https://cdn.example.com/m/${stored.storedFile}`);
    expect(downloadUrlOf(makeModel({ downloadUrl: 'https://x.example/y.bin' }), 'https://cdn')).toBe('https://x.example/y.bin');
    expect(downloadUrlOf(makeModel({ storedFile: null }), 'https://cdn')).toBeNull();
  });
});
