import { createHash, randomBytes } from 'node:crypto';
import { access, constants, mkdir, open, readdir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type ByteRangeRequest,
  type ModelFileLinkTerms,
  type ModelLinkSigner,
  ModelStore,
  type ModelStoreEntry,
  type OpenedModelFile,
  RangeNotSatisfiableError,
  type StoredModelFile,
  byteRangeOf,
  modelFileLinkPayload,
  modelFileLinkQuery,
  modelFilePathOf,
} from '@svc/domain';
import { isStoredFileName, newStoredFileName } from './stored-file-names';

/** The temporary a file is written to before it is renamed into place. */
const TEMPORARY_FORM = /^\.upload-[0-9a-f]{24}\.tmp$/;

/**
 * The model store on the local disk (MODEL_STORE_DIR). A file is written to a
 * hidden temporary name, hashed as it streams, flushed, and renamed into place
 * in one step: a reader sees the whole file or nothing. Stored names carry 96
 * random bits, so two uploads never collide, and they are checked against a
 * strict form, so no name can reach outside the folder. The service serves
 * the files itself: links are `/model-files` links signed by `signer`.
 */
export class LocalModelStore extends ModelStore {
  constructor(
    private readonly folder: string,
    private readonly signer: ModelLinkSigner,
  ) {
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
    const names = await this.names();
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

  /** `<origin>/model-files/<file>?expires=…&signature=…` (model-file-link.ts), checked by the `/model-files` route. */
  async linkTo(path: string, terms: ModelFileLinkTerms): Promise<string> {
    const linkPath = modelFilePathOf(path);
    const expires = Math.floor(terms.signedAt.getTime() / 1000) + terms.validForSeconds;
    return `${terms.serviceOrigin}${linkPath}?${modelFileLinkQuery(expires, this.signer.sign(modelFileLinkPayload(linkPath, expires)))}`;
  }

  /** The folder can be written (made on the way when it does not exist yet). */
  async answers(): Promise<boolean> {
    try {
      await mkdir(this.folder, { recursive: true });
      await access(this.folder, constants.W_OK);
      return true;
    } catch {
      return false;
    }
  }

  /** Removes the temporaries (`.upload-*.tmp`) last written before `startedBefore`: uploads a stopped process left. */
  async discardUnfinishedUploads(startedBefore: Date): Promise<string[]> {
    const discarded: string[] = [];
    for (const name of (await this.names()).filter((n) => TEMPORARY_FORM.test(n))) {
      try {
        const info = await stat(join(this.folder, name));
        if (info.mtimeMs >= startedBefore.getTime()) continue;
        await unlink(join(this.folder, name));
        discarded.push(name);
      } catch (error) {
        // finished or removed meanwhile
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    return discarded;
  }

  /** Every name in the folder; none while it does not exist yet (made on the first write). */
  private async names(): Promise<string[]> {
    try {
      return await readdir(this.folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
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
