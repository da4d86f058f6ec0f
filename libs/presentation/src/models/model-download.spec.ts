import { makeModel } from '../../../../test/factories/domain.factory';
import { MODEL_FILES_PATH } from '@svc/domain';
import { downloadUrlOf, modelFileBaseOf } from './model-download';

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
    expect(downloadUrlOf(stored, modelFileBaseOf(null, 'http://127.0.0.1:3000'))).toBe(
      `http://127.0.0.1:3000/model-files/${stored.storedFile}`,
    );
    expect(downloadUrlOf(stored, modelFileBaseOf('https://cdn.example.com/m', 'http://ignored'))).toBe(
      `https://cdn.example.com/m/${stored.storedFile}`,
    );
    expect(downloadUrlOf(makeModel({ downloadUrl: 'https://x.example/y.bin' }), 'https://cdn')).toBe('https://x.example/y.bin');
    expect(downloadUrlOf(makeModel({ storedFile: null }), 'https://cdn')).toBeNull();
  });
});
