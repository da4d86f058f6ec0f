import { Injectable } from '@nestjs/common';
import { ModelRepository, ModelStore } from '@svc/domain';

export interface SweepModelStoreResult {
  /** The store's names of the files removed. */
  readonly removed: string[];
  /** How many files were kept (named by a record, or too recent to judge). */
  readonly kept: number;
  /** The names of the uploads discarded unfinished (begun over UNFINISHED_UPLOAD_MS ago). */
  readonly abortedUploads: string[];
}

/**
 * Removes the files of the model store that no record names (CONTRACT 7):
 * run at the API's start-up and by the CLI's `models sweep`. Never a file a
 * record still names, never one being written (the store does not list
 * temporaries), and never one written in the last `GRACE_MS`: a file is
 * stored before its record points at it (an upload, a publish), possibly by
 * another instance, so a young unnamed file may be about to be named.
 * Uploads begun over a day ago and never finished (a process stopped
 * mid-upload: an object store's incomplete multipart upload, a local
 * temporary) are discarded too (CONTRACT 19).
 */
@Injectable()
export class SweepModelStore {
  static readonly GRACE_MS = 10 * 60_000;
  static readonly UNFINISHED_UPLOAD_MS = 24 * 3600_000;

  constructor(
    private readonly models: ModelRepository,
    private readonly store: ModelStore,
  ) {}

  async execute(): Promise<SweepModelStoreResult> {
    // The files first, then the records: a file stored and named between the two reads is seen named.
    const files = await this.store.list();
    const named = new Set<string>();
    for (const model of await this.models.list()) if (model.storedFile !== null) named.add(model.storedFile);
    // Files carry the file system's wall-clock times, so the cut-off is wall-clock too (not the service's Clock).
    const cutoff = Date.now() - SweepModelStore.GRACE_MS;
    const removed: string[] = [];
    for (const file of files) {
      if (named.has(file.path) || file.modifiedAt.getTime() > cutoff) continue;
      await this.store.remove(file.path);
      removed.push(file.path);
    }
    removed.sort();
    const abortedUploads = (await this.store.discardUnfinishedUploads(new Date(Date.now() - SweepModelStore.UNFINISHED_UPLOAD_MS))).sort();
    return { removed, kept: files.length - removed.length, abortedUploads };
  }
}
