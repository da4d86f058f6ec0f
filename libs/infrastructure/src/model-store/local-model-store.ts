import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type ByteRangeRequest,
  ModelStore,
  type ModelStoreEntry,
  type OpenedModelFile,
  RangeNotSatisfiableError,
  type StoredModelFile,
  byteRangeOf,
} from '@svc/domain';
import { isStoredFileName, newStoredFileName } from './stored-file-names';

/**
 * The model store on the local disk (MODEL_STORE_DIR). A file is written to a
 * hidden temporary name, hashed as it streams, flushed, and renamed into place
 * in one step: a reader sees the whole file or nothing. Stored names carry 96
 * random bits, so two uploads never collide, and they are checked against a
 * strict form, so no name can reach outside the folder.
 */
export class LocalModelStore extends ModelStore {
  constructor(private readonly folder: string) {
    super();
  }

  async put(label: string, source: AsyncIterable<Uint8Array | string> | Uint8Array): Promise<StoredModelFile> {
    const name = newStoredFileName(label);
    await mkdir(this.folder, { recursive: true });
    const temporary = join(this.folder, `.upload-${randomBytes(12).toString('hex')}.tmp`);
    const hash = createHash('sha256');
    let sizeBytes = 0;
    const handle = await open(temporary, 'wx', 0o644);
    try {
      try {
        for await (const chunk of source instanceof Uint8Array ? [source] : source) {
          const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
          hash.update(bytes);
          sizeBytes += bytes.length;
          await handle.write(bytes);
        }
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, join(this.folder, name));
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
    await this.syncFolder();
    return { path: name, sha256: hash.digest('hex'), sizeBytes };
  }

  async open(path: string, requested?: ByteRangeRequest): Promise<OpenedModelFile | null> {
    if (!isStoredFileName(path)) return null;
    let handle;
    try {
      handle = await open(join(this.folder, path), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    const stat = await handle.stat();
    if (!stat.isFile()) {
      await handle.close();
      return null;
    }
    const range = requested === undefined ? null : byteRangeOf(requested, stat.size);
    if (requested !== undefined && range === null) {
      await handle.close();
      throw new RangeNotSatisfiableError(stat.size);
    }
    // streamed from the disk in 64 KiB reads: never the whole file in memory
    const stream = handle.createReadStream({ autoClose: true, ...(range === null ? {} : { start: range.start, end: range.end }) });
    return { stream, sizeBytes: stat.size, range };
  }

  async remove(path: string): Promise<void> {
    if (!isStoredFileName(path)) throw new Error('model store: not a stored file name');
    await unlink(join(this.folder, path)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }

  /** The stored files (names of the stored form): temporaries (`.upload-*.tmp`, being written) and strangers are skipped. */
  async list(): Promise<ModelStoreEntry[]> {
    let names: string[];
    try {
      names = await readdir(this.folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const entries: ModelStoreEntry[] = [];
    for (const name of names) {
      if (!isStoredFileName(name)) continue;
      try {
        const info = await stat(join(this.folder, name));
        if (info.isFile()) entries.push({ path: name, modifiedAt: new Date(info.mtimeMs) });
      } catch (error) {
        // removed meanwhile
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    return entries;
  }

  /** Makes the rename durable (best effort: not every platform can sync a folder). */
  private async syncFolder(): Promise<void> {
    try {
      const folder = await open(this.folder, 'r');
      try {
        await folder.sync();
      } finally {
        await folder.close();
      }
    } catch {
      // not supported here; the file itself is already flushed
    }
  }
}
