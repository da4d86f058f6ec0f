import { type Model, type ModelFile } from './model';

/** The model registry's records. */
export abstract class ModelRepository {
  abstract findByName(name: string): Promise<Model | null>;
  /** Every record, published or not, in no particular order (the domain sorts). */
  abstract list(): Promise<Model[]>;
  /** Inserts a new record; false (nothing written) when the name is taken. */
  abstract insert(model: Model): Promise<boolean>;
  /**
   * Replaces what the operator describes (everything but the file columns and
   * `created_at`); false when the record is gone.
   */
  abstract updateDescription(model: Model): Promise<boolean>;
  /**
   * Replaces the description (as `updateDescription`) and sets the file
   * columns of a record whose file the service does not hold: no stored file,
   * and `checksum` and `size_bytes` as `model` carries them (an external
   * file's, or null); false when the record is gone.
   */
  abstract updateUnstored(model: Model): Promise<boolean>;
  /**
   * Sets the record's file in one conditional step, only if its stored file is
   * still `expected`: false when another upload got there first or the record is gone.
   */
  abstract replaceFile(name: string, expected: string | null, file: ModelFile, at: Date): Promise<boolean>;
  /** Deletes the record; the deleted record, or null when there was none. */
  abstract delete(name: string): Promise<Model | null>;
}
