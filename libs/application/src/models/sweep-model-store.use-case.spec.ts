import { FixedClock } from '@svc/domain';
import { InMemoryModelStore } from '@svc/infrastructure/model-store/in-memory-model-store';
import { InMemoryAuditLog, InMemoryModelRepository, InMemoryUserRepository } from '../../../../test/in-memory';
import { SequentialIdGenerator, T0, makeModel } from '../../../../test/factories/domain.factory';
import { DeleteModel } from './delete-model.use-case';
import { ReplaceModel } from './replace-model.use-case';
import { SweepModelStore } from './sweep-model-store.use-case';
import { UploadModelFile } from './upload-model-file.use-case';

describe(SweepModelStore.name, () => {
  let models: InMemoryModelRepository;
  let store: InMemoryModelStore;
  let sweep: SweepModelStore;
  const old = (): Date => new Date(Date.now() - SweepModelStore.GRACE_MS - 1000);

  beforeEach(() => {
    models = new InMemoryModelRepository();
    store = new InMemoryModelStore();
    sweep = new SweepModelStore(models, store);
  });

  it('removes an old file no record names, keeps a named one and a young one', async () => {
    const named = await store.put('mi_v1-1.0', Buffer.from('named'));
    const orphan = await store.put('gone_v1-1.0', Buffer.from('orphan'));
    const young = await store.put('new_v1-1.0', Buffer.from('young'));
    await models.insert(makeModel({ name: 'mi_v1', storedFile: named.path }));
    store.age(named.path, old());
    store.age(orphan.path, old());

    await expect(sweep.execute()).resolves.toEqual({ removed: [orphan.path], kept: 2, abortedUploads: [] });
    expect(store.paths().sort()).toEqual([named.path, young.path].sort());
    await expect(sweep.execute()).resolves.toEqual({ removed: [], kept: 2, abortedUploads: [] });
  });
});

describe('model changes are audited with their channel', () => {
  it('upload, replace and delete append entries naming the model, version, checksum and channel', async () => {
    const models = new InMemoryModelRepository();
    const store = new InMemoryModelStore();
    const audit = new InMemoryAuditLog();
    const ids = new SequentialIdGenerator();
    const clock = new FixedClock(T0);
    await models.insert(makeModel({ name: 'mi_v1', storedFile: null, checksum: null, sizeBytes: null }));

    const uploaded = await new UploadModelFile(models, store, audit, ids, clock).execute({
      name: 'mi_v1',
      file: Buffer.from('bytes'),
      actor: { type: 'cli', user: 'ada' },
    });
    const { name: _, ...description } = makeModel({ version: '9.0' });
    await new ReplaceModel(models, new InMemoryUserRepository(), store, audit, ids, clock).execute({
      name: 'mi_v1',
      description: { ...description, downloadUrl: null },
      actor: { type: 'bootstrap' },
    });
    await new DeleteModel(models, store, audit, ids, clock).execute({ name: 'mi_v1', actor: { type: 'cli', user: 'ada' } });

    const entries = await audit.list({ limit: 10 });
    expect(entries.map((e) => [e.action, e.keyId, e.details, e.actor.type])).toEqual(
      expect.arrayContaining([
        ['model.uploaded', null, { model: 'mi_v1', version: '1.0.0', checksum: uploaded.checksum, channel: 'cli' }, 'cli'],
        ['model.replaced', null, { model: 'mi_v1', version: '9.0', checksum: uploaded.checksum, channel: 'api' }, 'bootstrap'],
        ['model.deleted', null, { model: 'mi_v1', version: '9.0', checksum: uploaded.checksum, channel: 'cli' }, 'cli'],
      ]),
    );
    expect(entries).toHaveLength(3);
    expect(store.paths()).toEqual([]);
  });
});
