import type { Readable } from 'node:stream';

/** A file written to the model store, with what was computed from its bytes while writing. */
export interface StoredModelFile {
  /** The file's name in the store: unique, and safe to put in a URL path. */
  readonly path: string;
  /** Lowercase hex SHA-256 of the bytes. */
  readonly sha256: string;
  readonly sizeBytes: number;
}

/** An open stored file, ready to stream. */
export interface OpenedModelFile {
  readonly stream: Readable;
  readonly sizeBytes: number;
}

/** A complete file of the store, as `list` names it. */
export interface ModelStoreEntry {
  /** The file's name in the store, as `put` gave it. */
  readonly path: string;
  /** When the file was last written. */
  readonly modifiedAt: Date;
}

/** Where model files live (MODEL_STORE_DIR): the service's own model host. */
export abstract class ModelStore {
  /**
   * Writes a new file whose name starts with `label`, computing its SHA-256
   * and size from the bytes as they stream; complete or not at all.
   */
  abstract put(label: string, source: AsyncIterable<Uint8Array | string> | Uint8Array): Promise<StoredModelFile>;
  /** The file, or null when the store has no such file. */
  abstract open(path: string): Promise<OpenedModelFile | null>;
  /** Removes the file; a file already gone is no error. */
  abstract remove(path: string): Promise<void>;
  /**
   * Every complete file of the store, in no particular order; never a file
   * still being written (a temporary), never anything the store did not name.
   */
  abstract list(): Promise<ModelStoreEntry[]>;
}
