import { type WebhookEvent } from '../webhook/webhook-event';
import { type Model, type ModelFile } from './model';

/** The model registry's records. */
export abstract class ModelRepository {
  abstract findByName(name: string): Promise<Model | null>;
  /** Every record, published or not, in no particular order (the domain sorts). */
  abstract list(): Promise<Model[]>;
  /**
   * Inserts a new record; false (nothing written) when the name is taken.
   * `events` (webhook events, CONTRACT 20) are recorded in the same
   * transaction as the change, here and in every write below that takes them.
   */
  abstract insert(model: Model, events?: readonly WebhookEvent[]): Promise<boolean>;
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
  abstract updateUnstored(model: Model, events?: readonly WebhookEvent[]): Promise<boolean>;
  /**
   * Sets the record's file in one conditional step, only if its stored file is
   * still `expected`: false when another upload got there first or the record is gone.
   */
  abstract replaceFile(
    name: string,
    expected: string | null,
    file: ModelFile,
    at: Date,
    events?: readonly WebhookEvent[],
  ): Promise<boolean>;
  /** Deletes the record, with the events `eventsOf(the deleted record)` in the same transaction; the deleted record, or null when there was none. */
  abstract delete(name: string, eventsOf?: (deleted: Model) => readonly WebhookEvent[]): Promise<Model | null>;
}
