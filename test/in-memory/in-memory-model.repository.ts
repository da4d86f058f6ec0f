import { type Model, type ModelFile, ModelRepository, compareModels } from '@svc/domain';

/**
 * Model records in a map keyed by name, for use-case tests only. Every method
 * checks and changes state within one synchronous step, so concurrent callers
 * see the same all-or-nothing outcomes as the SQL adapter (one `replaceFile`
 * wins a race on the same expected file).
 */
export class InMemoryModelRepository extends ModelRepository {
  private readonly byName = new Map<string, Model>();

  async findByName(name: string): Promise<Model | null> {
    const model = this.byName.get(name);
    return model ? copyOf(model) : null;
  }

  async list(): Promise<Model[]> {
    return [...this.byName.values()].sort(compareModels).map(copyOf);
  }

  async insert(model: Model): Promise<boolean> {
    if (this.byName.has(model.name)) return false;
    this.byName.set(model.name, copyOf(model));
    return true;
  }

  async updateDescription(model: Model): Promise<boolean> {
    const stored = this.byName.get(model.name);
    if (!stored) return false;
    this.byName.set(
      model.name,
      copyOf({
        ...model,
        storedFile: stored.storedFile,
        checksum: stored.checksum,
        sizeBytes: stored.sizeBytes,
        createdAt: stored.createdAt,
      }),
    );
    return true;
  }

  async updateUnstored(model: Model): Promise<boolean> {
    const stored = this.byName.get(model.name);
    if (!stored) return false;
    this.byName.set(model.name, copyOf({ ...model, storedFile: null, createdAt: stored.createdAt }));
    return true;
  }

  async replaceFile(name: string, expected: string | null, file: ModelFile, at: Date): Promise<boolean> {
    const stored = this.byName.get(name);
    if (!stored || stored.storedFile !== expected) return false;
    this.byName.set(
      name,
      copyOf({ ...stored, storedFile: file.storedFile, checksum: file.checksum, sizeBytes: file.sizeBytes, updatedAt: at }),
    );
    return true;
  }

  async delete(name: string): Promise<Model | null> {
    const stored = this.byName.get(name);
    if (!stored) return null;
    this.byName.delete(name);
    return copyOf(stored);
  }
}

function copyOf(model: Model): Model {
  return {
    ...model,
    metadata: JSON.parse(JSON.stringify(model.metadata)) as Model['metadata'],
    createdAt: new Date(model.createdAt.getTime()),
    updatedAt: new Date(model.updatedAt.getTime()),
  };
}
