import type { Readable } from 'node:stream';

/** A file written to the model store, with what was computed from its bytes while writing. */
export interface StoredModelFile {
  /** The file's name in the store: unique, and safe to put in a URL path. */
  readonly path: string;
  /** Lowercase hex SHA-256 of the bytes. */
  readonly sha256: string;
  readonly sizeBytes: number;
}

/**
 * A single byte range asked of a file (HTTP `Range: bytes=...`): from `start`
 * to `end` inclusive (`end` absent: to the end of the file), or the last
 * `suffixLength` bytes.
 */
export type ByteRangeRequest = { readonly start: number; readonly end?: number } | { readonly suffixLength: number };

/** A satisfiable range of a file: `start` to `end`, both inclusive. */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/**
 * The bytes of a file of `sizeBytes` that `request` names (RFC 9110 14.1.2):
 * an `end` past the file is cut to its last byte; a suffix longer than the
 * file is the whole file. Null when unsatisfiable: a start at or past the end,
 * an empty file, or a zero-length suffix.
 */
export function byteRangeOf(request: ByteRangeRequest, sizeBytes: number): ByteRange | null {
  if (sizeBytes === 0) return null;
  if ('suffixLength' in request) {
    return request.suffixLength <= 0 ? null : { start: Math.max(0, sizeBytes - request.suffixLength), end: sizeBytes - 1 };
  }
  if (request.start >= sizeBytes || (request.end !== undefined && request.end < request.start)) return null;
  return { start: request.start, end: Math.min(request.end ?? sizeBytes - 1, sizeBytes - 1) };
}

/** An open stored file, ready to stream. */
export interface OpenedModelFile {
  /** The whole file's bytes, or only `range`'s when one was asked. */
  readonly stream: Readable;
  /** The whole file's size. */
  readonly sizeBytes: number;
  /** The bytes `stream` holds when a range was asked; null: the whole file. */
  readonly range: ByteRange | null;
}

/** A complete file of the store, as `list` names it. */
export interface ModelStoreEntry {
  /** The file's name in the store, as `put` gave it. */
  readonly path: string;
  /** When the file was last written. */
  readonly modifiedAt: Date;
}

/**
 * The terms of a download link to a stored file: signed at `signedAt`, valid
 * `validForSeconds` from then (MODEL_URL_TTL_SECONDS), and the origin the
 * caller reached the service by (`<protocol>://<host>`), for a store the
 * service serves itself.
 */
export interface ModelFileLinkTerms {
  readonly signedAt: Date;
  readonly validForSeconds: number;
  readonly serviceOrigin: string;
}

/**
 * Where model files live (CONTRACT 7, 19): the local folder (MODEL_STORE_DIR)
 * or an S3-compatible object store (MODEL_STORE_URL), one of them bound once
 * at start-up. Each store also makes the links its files are downloaded by
 * (a signed `/model-files` link, or a presigned GET), says whether it answers,
 * and clears what interrupted uploads left behind; a store that cannot be
 * reached throws ModelStoreUnavailableError.
 */
export abstract class ModelStore {
  /**
   * Writes a new file whose name starts with `label`, computing its SHA-256
   * and size from the bytes as they stream; complete or not at all. A source
   * that fails makes `put` reject with the source's own error.
   */
  abstract put(label: string, source: AsyncIterable<Uint8Array | string> | Uint8Array): Promise<StoredModelFile>;
  /**
   * The file, or only `range` of it, or null when the store has no such file.
   * Throws RangeNotSatisfiableError when the range is outside the file.
   */
  abstract open(path: string, range?: ByteRangeRequest): Promise<OpenedModelFile | null>;
  /** Removes the file; a file already gone is no error. */
  abstract remove(path: string): Promise<void>;
  /**
   * Every complete file of the store, in no particular order; never a file
   * still being written (a temporary), never anything the store did not name.
   */
  abstract list(): Promise<ModelStoreEntry[]>;
  /**
   * The link a key downloads the stored file `path` by, valid on `terms`;
   * made without asking the store (a listing works while the store is down).
   */
  abstract linkTo(path: string, terms: ModelFileLinkTerms): Promise<string>;
  /** Whether the store answers now, within a short time (readiness, downloads). */
  abstract answers(): Promise<boolean>;
  /**
   * Discards the uploads begun before `startedBefore` and never finished (a
   * process that died mid-upload): their temporaries, or the object store's
   * incomplete multipart uploads. Answers what was discarded, by the store's
   * names for them.
   */
  abstract discardUnfinishedUploads(startedBefore: Date): Promise<string[]>;
}
