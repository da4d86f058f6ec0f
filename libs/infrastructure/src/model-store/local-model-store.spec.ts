import { mkdtempSync, rmSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeModelStoreContract } from '../../../../test/contracts/model-store.contract';
import { HmacModelLinkSigner } from '../crypto/hmac-model-link-signer';
import { LocalModelStore } from './local-model-store';

describe(`${LocalModelStore.name} in a temporary folder`, () => {
  let parent: string | undefined;
  beforeAll(() => {
    parent = mkdtempSync(join(tmpdir(), 'svc-model-store-test-'));
  });
  afterAll(() => {
    if (parent) rmSync(parent, { recursive: true, force: true });
  });
  let next = 0;

  // A folder of its own per test, not yet created: the store makes it on its first write.
  describeModelStoreContract(async () => {
    if (!parent) throw new Error('the temporary folder exists only while the tests run');
    next += 1;
    const folder = join(parent, `store-${next}`);
    return {
      store: new LocalModelStore(folder, new HmacModelLinkSigner('a test link secret of 32 characters')),
      names: async () => readdir(folder).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? [] : Promise.reject(error))),
      dispose: () => rm(folder, { recursive: true, force: true }),
    };
  });
});
