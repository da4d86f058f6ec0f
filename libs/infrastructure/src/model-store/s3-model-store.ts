import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  type CompletedPart,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  S3Client,
  type S3ClientConfig,
  S3ServiceException,
  PutObjectCommand,
  UploadPartCommand,
  paginateListObjectsV2,
} from '@aws-sdk/client-s3';
import { S3RequestPresigner, getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  type ByteRange,
  type ByteRangeRequest,
  type ModelFileLinkTerms,
  ModelStore,
  type ModelStoreEntry,
  ModelStoreUnavailableError,
  type OpenedModelFile,
  RangeNotSatisfiableError,
  type StoredModelFile,
  byteRangeOf,
} from '@svc/domain';
import { isStoredFileName, newStoredFileName } from './stored-file-names';

/** Where the object store is (MODEL_STORE_URL `s3://BUCKET[/PREFIX]`, S3_ENDPOINT, S3_FORCE_PATH_STYLE). */
export interface ObjectStoreLocation {
  readonly bucket: string;
  /** Empty, or a key prefix ending in `/`. */
  readonly prefix: string;
  /** S3_ENDPOINT; null: AWS S3 itself. */
  readonly endpoint: string | null;
  readonly forcePathStyle: boolean;
}

/** Links are made once per file and this window (see `linkTo`). */
const LINK_WINDOW_MS = 60_000;
/** The longest a SigV4 presigned link may live. */
const SIGV4_LONGEST_SECONDS = 604_800;

/** How long a readiness or download check waits for the store before it counts as down. */
export const OBJECT_STORE_PING_TIMEOUT_MS = 1500;

/**
 * Multipart parts of 5 MiB (the S3 minimum; 1 GiB, the upload limit, is 205
 * parts). An upload holds one part buffer whatever the file's size, reused
 * part after part (two, one filling while the other is sent, held more memory
 * at the peak for no gain on a local network).
 */
const PART_SIZE = 5 * 1024 * 1024;

const NETWORK_CODES = ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN'];
/** The same codes in an error's text: the SDK's retry wrapper may keep only the text of what it wraps. */
const NETWORK_TEXT = new RegExp(`\\b(${NETWORK_CODES.join('|')})\\b`);

/**
 * The model store in an S3-compatible object store (CONTRACT 19), through the
 * AWS SDK v3 with its standard credential chain. Uploads stream, hashed on
 * the way: a file of one part is one PutObject, a larger one a multipart
 * upload (PartUploads); the object appears under its name only when the
 * upload completes, and a failed upload is aborted (an abort that fails too
 * is left to `discardUnfinishedUploads`). Links are
 * presigned GETs: byte ranges and the bytes themselves are the store's.
 * A store out of reach (network errors, timeouts, 5xx) is
 * ModelStoreUnavailableError.
 */
export class S3ModelStore extends ModelStore {
  private readonly bucket: string;
  private readonly prefix: string;
  /** How links are addressed: learnt from the first presigned link (null: none made yet; 'sdk': always the SDK's getSignedUrl). */
  private addressing: LinkAddressing | 'sdk' | null = null;
  /** The link last made for each key, and the minute and lifetime it was made for. */
  private readonly recentLinks = new Map<string, { window: number; validForSeconds: number; link: string }>();

  constructor(
    location: ObjectStoreLocation,
    private readonly client: S3Client = S3ModelStore.clientFor(location),
  ) {
    super();
    this.bucket = location.bucket;
    this.prefix = location.prefix;
  }

  /**
   * A client on the SDK's standard chain (region and credentials from the
   * environment, profiles, web identity). Checksums only where S3 requires
   * them: the SDK's default trailing CRC32 (aws-chunked bodies) is not
   * understood by every S3-compatible store. `explicit` (tests) sets what
   * the chain would otherwise find, such as a region and credentials.
   */
  static clientFor(location: ObjectStoreLocation, explicit: Pick<S3ClientConfig, 'region' | 'credentials'> = {}): S3Client {
    return new S3Client({
      ...explicit,
      ...(location.endpoint === null ? {} : { endpoint: location.endpoint }),
      forcePathStyle: location.forcePathStyle,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: { connectionTimeout: 2000, requestTimeout: 30_000 },
    });
  }

  /** The client's region, checked at start-up: presigning and every call need one. */
  async region(): Promise<string> {
    return this.client.config.region();
  }

  async put(label: string, source: AsyncIterable<Uint8Array | string> | Uint8Array): Promise<StoredModelFile> {
    const name = newStoredFileName(label);
    const hash = createHash('sha256');
    let sizeBytes = 0;
    const parts = new PartUploads(this.client, this.bucket, this.key(name));
    let buffer: Buffer | null = null;
    let filled = 0;
    try {
      for await (const chunk of source instanceof Uint8Array ? [source] : source) {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        hash.update(bytes);
        sizeBytes += bytes.length;
        // copied into the part: the caller may reuse its buffer once the chunk is handed over
        for (let offset = 0; offset < bytes.length;) {
          if (buffer !== null && filled === PART_SIZE) {
            await parts.send(buffer, filled).catch((error: unknown) => Promise.reject(new StoreFailure(error)));
            buffer = null;
          }
          if (buffer === null) [buffer, filled] = [parts.freeBuffer(), 0];
          const taken = Math.min(bytes.length - offset, PART_SIZE - filled);
          buffer.set(bytes.subarray(offset, offset + taken), filled);
          filled += taken;
          offset += taken;
        }
      }
    } catch (error) {
      await parts.abort();
      // the source's own error as it is (a cut or oversized upload), the store's as what it means
      throw error instanceof StoreFailure ? this.unavailableOr(error.cause) : error;
    }
    try {
      await parts.finish(buffer === null ? Buffer.alloc(0) : buffer.subarray(0, filled));
    } catch (error) {
      await parts.abort();
      throw this.unavailableOr(error);
    }
    return { path: name, sha256: hash.digest('hex'), sizeBytes };
  }

  async open(path: string, requested?: ByteRangeRequest): Promise<OpenedModelFile | null> {
    if (!isStoredFileName(path)) return null;
    try {
      let range = null;
      let sizeBytes: number | undefined;
      if (requested !== undefined) {
        const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.key(path) }));
        sizeBytes = head.ContentLength ?? 0;
        range = byteRangeOf(requested, sizeBytes);
        if (range === null) throw new RangeNotSatisfiableError(sizeBytes);
      }
      const object = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.key(path),
          ...(range === null ? {} : { Range: `bytes=${range.start}-${range.end}` }),
        }),
      );
      const body = object.Body as Readable;
      if (range === null) return { stream: body, sizeBytes: object.ContentLength ?? 0, range };
      return { stream: exactly(body, range, object.ContentRange), sizeBytes: sizeBytes ?? 0, range };
    } catch (error) {
      if (isMissing(error)) return null;
      if (error instanceof RangeNotSatisfiableError) throw error;
      throw this.unavailableOr(error);
    }
  }

  async remove(path: string): Promise<void> {
    if (!isStoredFileName(path)) throw new Error('model store: not a stored file name');
    // S3 answers a delete of a missing key with success
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(path) })).catch((error: unknown) => {
      throw this.unavailableOr(error);
    });
  }

  /** The objects under the prefix whose names are of the stored form (nothing in deeper "folders", nothing else). */
  async list(): Promise<ModelStoreEntry[]> {
    const entries: ModelStoreEntry[] = [];
    try {
      for await (const page of paginateListObjectsV2({ client: this.client }, { Bucket: this.bucket, Prefix: this.prefix })) {
        for (const object of page.Contents ?? []) {
          const name = this.nameOf(object.Key);
          if (name !== null && object.LastModified) entries.push({ path: name, modifiedAt: object.LastModified });
        }
      }
    } catch (error) {
      throw this.unavailableOr(error);
    }
    return entries;
  }

  /**
   * A presigned GET of the object, valid at least `validForSeconds` from
   * `signedAt`; made locally, without asking the store. Links are made once
   * per file and minute (a listing presigns every model, and a SigV4 presign
   * costs several times the local store's HMAC): signed at
   * the minute's start and valid `validForSeconds` plus a minute, so each
   * link handed out lives `validForSeconds` to `validForSeconds` + 60 s
   * (SigV4's 7 days at most). The first link is the SDK's own getSignedUrl
   * (its endpoint rules decide the address); later ones sign the same
   * request (address and `x-id`) with the same presigner directly, skipping
   * the command's middleware and endpoint resolution: the links are the
   * same, signature included.
   */
  async linkTo(path: string, terms: ModelFileLinkTerms): Promise<string> {
    const key = this.key(path);
    const window = Math.floor(terms.signedAt.getTime() / LINK_WINDOW_MS) * LINK_WINDOW_MS;
    const recent = this.recentLinks.get(key);
    if (recent !== undefined && recent.window === window && recent.validForSeconds === terms.validForSeconds) return recent.link;
    if (this.recentLinks.size >= 10_000) this.recentLinks.clear();
    const options = {
      expiresIn: Math.min(terms.validForSeconds + LINK_WINDOW_MS / 1000, SIGV4_LONGEST_SECONDS),
      signingDate: new Date(window),
    };
    const link = await this.presign(key, options);
    this.recentLinks.set(key, { window, validForSeconds: terms.validForSeconds, link });
    return link;
  }

  private async presign(key: string, options: { expiresIn: number; signingDate: Date }): Promise<string> {
    if (this.addressing === null) {
      const link = await getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: key }), options);
      this.addressing = addressingOf(new URL(link), key, this.client);
      return link;
    }
    if (this.addressing === 'sdk') return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: key }), options);
    const { presigner, protocol, hostname, port, basePath } = this.addressing;
    const host = port === '' ? hostname : `${hostname}:${port}`;
    const signed = await presigner.presign(
      {
        method: 'GET',
        protocol,
        hostname,
        ...(port === '' ? {} : { port: Number(port) }),
        path: `${basePath}${escapedKey(key)}`,
        query: { 'x-id': 'GetObject' },
        headers: { host },
      },
      options,
    );
    const query = Object.entries(signed.query ?? {})
      .map(([name, value]) => `${escapeUri(name)}=${escapeUri(String(value))}`)
      .join('&');
    return `${protocol}//${host}${signed.path}?${query}`;
  }

  /** The bucket answers a HEAD within OBJECT_STORE_PING_TIMEOUT_MS (needs s3:ListBucket). */
  async answers(): Promise<boolean> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), {
        abortSignal: AbortSignal.timeout(OBJECT_STORE_PING_TIMEOUT_MS),
      });
      return true;
    } catch {
      return false;
    }
  }

  /** Aborts the multipart uploads under the prefix initiated before `startedBefore`; answers their keys' names. */
  async discardUnfinishedUploads(startedBefore: Date): Promise<string[]> {
    const discarded: string[] = [];
    try {
      let marker: { KeyMarker?: string; UploadIdMarker?: string } = {};
      for (;;) {
        const page = await this.client.send(new ListMultipartUploadsCommand({ Bucket: this.bucket, Prefix: this.prefix, ...marker }));
        for (const upload of page.Uploads ?? []) {
          const name = this.nameOf(upload.Key);
          if (name === null || !upload.UploadId || !upload.Initiated || upload.Initiated >= startedBefore) continue;
          await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: upload.Key, UploadId: upload.UploadId }));
          discarded.push(name);
        }
        if (!page.IsTruncated) break;
        marker = { KeyMarker: page.NextKeyMarker, UploadIdMarker: page.NextUploadIdMarker };
      }
    } catch (error) {
      throw this.unavailableOr(error);
    }
    return discarded;
  }

  private key(name: string): string {
    return `${this.prefix}${name}`;
  }

  /** The stored name a key of the bucket stands for, or null when it is not one of the store's. */
  private nameOf(key: string | undefined): string | null {
    if (key === undefined || !key.startsWith(this.prefix)) return null;
    const name = key.slice(this.prefix.length);
    return isStoredFileName(name) ? name : null;
  }

  /** ModelStoreUnavailableError when `error` says the store is out of reach, else `error` itself. */
  private unavailableOr(error: unknown): unknown {
    return isUnreachable(error) ? new ModelStoreUnavailableError({ cause: error }) : error;
  }
}

/** Where presigned links point: the address the SDK gave the first one, and a presigner on the client's configuration. */
interface LinkAddressing {
  readonly presigner: S3RequestPresigner;
  readonly protocol: string;
  readonly hostname: string;
  readonly port: string;
  /** The path before the object key (`/` or `/bucket/`). */
  readonly basePath: string;
}

/** The addressing of `link`, the SDK's presigned GET of `key`; 'sdk' when its path does not end with the key as escaped here. */
function addressingOf(link: URL, key: string, client: S3Client): LinkAddressing | 'sdk' {
  const escaped = escapedKey(key);
  if (!link.pathname.endsWith(escaped)) return 'sdk';
  return {
    presigner: new S3RequestPresigner({ ...client.config }),
    protocol: link.protocol,
    hostname: link.hostname,
    port: link.port,
    basePath: link.pathname.slice(0, link.pathname.length - escaped.length),
  };
}

/** RFC 3986 escaping as SigV4 wants it (also `!'()*`). */
function escapeUri(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** An object key as it appears in an S3 path: each segment escaped, the slashes kept. */
function escapedKey(key: string): string {
  return key.split('/').map(escapeUri).join('/');
}

/** An error of the object store met while the source was still being read. */
class StoreFailure extends Error {
  constructor(override readonly cause: unknown) {
    super('the object store failed during an upload');
  }
}

/**
 * The parts of one upload, each sent before the next is filled: one buffer
 * of PART_SIZE is all it holds, reused part after part. Not lib-storage's
 * Upload: its stream chunker concatenates every part into a fresh buffer,
 * and a large upload's worth of such garbage grew the resident memory by
 * about half the file's size before V8 collected it.
 */
class PartUploads {
  private uploadId: string | null = null;
  private readonly completed: CompletedPart[] = [];
  private buffer: Buffer | null = null;

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly key: string,
  ) {}

  /** The buffer to fill: the one every part reuses. */
  freeBuffer(): Buffer {
    this.buffer ??= Buffer.allocUnsafe(PART_SIZE);
    return this.buffer;
  }

  /** Sends `buffer`'s first `length` bytes as the next part (beginning the multipart upload with the first). */
  async send(buffer: Buffer, length: number): Promise<void> {
    this.uploadId ??= (await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: this.key }))).UploadId ?? null;
    if (this.uploadId === null) throw new Error('model store: the object store gave no upload id');
    const PartNumber = this.completed.length + 1;
    const { ETag } = await this.client.send(
      new UploadPartCommand({ Bucket: this.bucket, Key: this.key, UploadId: this.uploadId, PartNumber, Body: buffer.subarray(0, length) }),
    );
    this.completed.push({ PartNumber, ETag });
  }

  /** Stores `last` (the bytes after the sent parts): one PutObject when no part was sent, else the last part and the completion. */
  async finish(last: Buffer): Promise<void> {
    if (this.uploadId === null) {
      await this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: this.key, Body: last, ContentType: 'application/octet-stream' }),
      );
      return;
    }
    if (last.length > 0) await this.send(last, last.length);
    await this.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.bucket,
        Key: this.key,
        UploadId: this.uploadId,
        MultipartUpload: { Parts: this.completed },
      }),
    );
    this.uploadId = null;
  }

  /** Aborts the multipart upload if one was begun; never throws (what is left is swept after a day). */
  async abort(): Promise<void> {
    if (this.uploadId === null) return;
    await this.client
      .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: this.key, UploadId: this.uploadId }))
      .catch(() => undefined);
    this.uploadId = null;
  }
}

/**
 * The asked range's bytes of a ranged GET's body. A store may answer more
 * than was asked: HTTP lets a server ignore `Range` (200, the whole object),
 * and some S3-compatible servers widen a range (s3rver 3.7 reads
 * `bytes=0-0` as the whole object); the surplus is cut here.
 */
function exactly(body: Readable, range: ByteRange, answered: string | undefined): Readable {
  const [, start, end] = /^bytes (\d+)-(\d+)\//.exec(answered ?? '') ?? [];
  if (Number(start) === range.start && Number(end) === range.end) return body;
  return Readable.from(cut(body, range.start - (start === undefined ? 0 : Number(start)), range.end - range.start + 1), {
    objectMode: false,
  });
}

async function* cut(body: Readable, skip: number, length: number): AsyncIterable<Buffer> {
  let left = length;
  for await (const chunk of body) {
    const bytes = (chunk as Buffer).subarray(Math.max(0, skip));
    skip -= (chunk as Buffer).length - bytes.length;
    const kept = bytes.subarray(0, left);
    left -= kept.length;
    if (kept.length > 0) yield kept;
    if (left === 0) return;
  }
}

/** A key the bucket does not hold (GetObject's NoSuchKey, HeadObject's bare 404). */
function isMissing(error: unknown): boolean {
  return (
    error instanceof S3ServiceException &&
    (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404)
  );
}

/** Network failures, timeouts and the store's own 5xx answers (after the SDK's retries). */
function isUnreachable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 3) return false;
  const { code, name, message, $metadata, cause } = error as {
    code?: unknown;
    name?: unknown;
    message?: unknown;
    $metadata?: { httpStatusCode?: number };
    cause?: unknown;
  };
  if (typeof code === 'string' && NETWORK_CODES.includes(code)) return true;
  if (typeof message === 'string' && NETWORK_TEXT.test(message)) return true;
  if (name === 'TimeoutError' || name === 'AbortError') return true;
  if (($metadata?.httpStatusCode ?? 0) >= 500) return true;
  return isUnreachable(cause, depth + 1);
}
