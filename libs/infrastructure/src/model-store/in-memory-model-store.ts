import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  type ByteRangeRequest,
  type ModelFileLinkTerms,
  ModelStore,
  type ModelStoreEntry,
  type OpenedModelFile,
  RangeNotSatisfiableError,
  type StoredModelFile,
  byteRangeOf,
} from '@svc/domain';
import { isStoredFileName, newStoredFileName } from './stored-file-names';

/**
 * The model store in a map, for use-case tests only (never bound by
 * InfrastructureModule). Like LocalModelStore: the hash and size are computed
 * while the source is read, a file becomes visible only once the source is
 * read to its end (a failing source leaves nothing), names are
 * the same names (stored-file-names.ts), and removing a missing file is no error.
 */
export class InMemoryModelStore extends ModelStore {
  private readonly files = new Map<string, Buffer>();
  private readonly written = new Map<string, Date>();
  /** Whether the store answers (`answers`); a test may switch it. */
  reachable = true;

  async put(label: string, source: AsyncIterable<Uint8Array | string> | Uint8Array): Promise<StoredModelFile> {
    const path = newStoredFileName(label);
    const hash = createHash('sha256');
    const chunks: Buffer[] = [];
    let sizeBytes = 0;
    for await (const chunk of source instanceof Uint8Array ? [source] : source) {
      // copied: the caller may reuse its buffer once the chunk is handed over
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk);
      hash.update(bytes);
      sizeBytes += bytes.length;
      chunks.push(bytes);
    }
    this.files.set(path, Buffer.concat(chunks, sizeBytes));
    this.written.set(path, new Date());
    return { path, sha256: hash.digest('hex'), sizeBytes };
  }

  async open(path: string, requested?: ByteRangeRequest): Promise<OpenedModelFile | null> {
    const bytes = isStoredFileName(path) ? this.files.get(path) : undefined;
    if (bytes === undefined) return null;
    const range = requested === undefined ? null : byteRangeOf(requested, bytes.length);
    if (requested !== undefined && range === null) throw new RangeNotSatisfiableError(bytes.length);
    const served = range === null ? bytes : bytes.subarray(range.start, range.end + 1);
    return { stream: Readable.from([Buffer.from(served)]), sizeBytes: bytes.length, range };
  }

  async remove(path: string): Promise<void> {
    if (!isStoredFileName(path)) throw new Error('model store: not a stored file name');
    this.files.delete(path);
    this.written.delete(path);
  }

  async list(): Promise<ModelStoreEntry[]> {
    return [...this.written].map(([path, modifiedAt]) => ({ path, modifiedAt: new Date(modifiedAt.getTime()) }));
  }

  /** `memory:<file>?expires=<unix s>`: links nothing serves, for tests of who gets which link. */
  async linkTo(path: string, terms: ModelFileLinkTerms): Promise<string> {
    return `memory:${encodeURIComponent(path)}?expires=${Math.floor(terms.signedAt.getTime() / 1000) + terms.validForSeconds}`;
  }

  async answers(): Promise<boolean> {
    return this.reachable;
  }

  /** Nothing: a file here is complete or absent, never left half-written. */
  async discardUnfinishedUploads(): Promise<string[]> {
    return [];
  }

  /** Back-dates a file's write time, for tests of what is old enough to sweep. */
  age(path: string, modifiedAt: Date): void {
    if (this.written.has(path)) this.written.set(path, modifiedAt);
  }

  /** Every stored name, for tests that check what was (and was not) kept. */
  paths(): string[] {
    return [...this.files.keys()];
  }
}
