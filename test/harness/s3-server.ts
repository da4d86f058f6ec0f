import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, readdir, rm, stat, utimes } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

/** Credentials s3rver accepts (its fixed pair). */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

/**
 * A real S3-compatible server for the tests: s3rver 3.7 (a devDependency) on
 * 127.0.0.1, on a random port, storing in a temporary folder of its own, with
 * one bucket. It answers the AWS SDK v3's put, ranged and presigned get,
 * multipart upload, list and delete over HTTP, signatures checked.
 *
 * s3rver 3.7 does not implement two calls of the S3 API the service uses to
 * clear what a failed upload leaves: ListMultipartUploads
 * (`GET /bucket?uploads`, answered NotImplemented) and AbortMultipartUpload
 * (`DELETE /bucket/key?uploadId=`, answered MethodNotAllowed). This harness
 * adds them over s3rver's own record of uploads in progress (a folder per
 * upload under `<bucket>/._S3rver_uploads/`, holding the key and the parts),
 * in S3's XML, ahead of s3rver's routes; everything else is s3rver's.
 */
export class S3TestServer {
  private server: S3rver | null = null;
  private http: Server | null = null;
  private portNumber = 0;

  private constructor(
    readonly bucket: string,
    private readonly directory: string,
  ) {}

  /** Starts a server with `bucket` (created empty) in a new temporary folder. */
  static async start(bucket = 'models'): Promise<S3TestServer> {
    const server = new S3TestServer(bucket, mkdtempSync(join(tmpdir(), 'svc-s3rver-')));
    await server.resume();
    return server;
  }

  /** `http://127.0.0.1:<port>`: S3_ENDPOINT. */
  get endpoint(): string {
    return `http://127.0.0.1:${this.portNumber}`;
  }

  /** The environment of a service (or CLI) using this server as its model store, under `prefix`. */
  envFor(prefix = ''): Record<string, string> {
    return {
      MODEL_STORE_URL: `s3://${this.bucket}${prefix === '' ? '' : `/${prefix}`}`,
      S3_ENDPOINT: this.endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    };
  }

  /** Stops answering (connections refused) and keeps the stored objects, so `resume` brings the same store back. */
  async stop(): Promise<void> {
    const http = this.http;
    this.http = null;
    this.server = null;
    if (http === null) return;
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  }

  /** Starts answering again, on the same port once it has been given (first start: a random one), over the same folder. */
  async resume(): Promise<void> {
    if (this.http !== null) return;
    const server = new S3rver({
      address: '127.0.0.1',
      port: this.portNumber,
      silent: true,
      directory: this.directory,
      configureBuckets: [{ name: this.bucket }],
    });
    // after s3rver's logger and XML encoder, before its routes
    server.middleware.splice(2, 0, this.unimplementedUploadCalls());
    await server.run();
    this.http = server.httpServer;
    this.server = server;
    this.portNumber = (this.http.address() as AddressInfo).port;
  }

  /** Stops and removes the folder. */
  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.directory, { recursive: true, force: true });
  }

  /** The object keys of the bucket (everything s3rver stores as an object), sorted. */
  async objectKeys(): Promise<string[]> {
    const keys: string[] = [];
    const walk = async (folder: string, prefix: string): Promise<void> => {
      for (const entry of await readdir(folder, { withFileTypes: true }).catch(() => [])) {
        if (entry.name === '._S3rver_uploads') continue;
        const suffix = entry.name.match(/^(.*)\._S3rver_object$/);
        if (suffix) keys.push(`${prefix}${suffix[1]}`);
        else if (entry.isDirectory()) await walk(join(folder, entry.name), `${prefix}${entry.name}/`);
      }
    };
    await walk(join(this.directory, this.bucket), '');
    return keys.sort();
  }

  /** The keys of the multipart uploads begun and neither completed nor aborted, sorted. */
  async unfinishedUploadKeys(): Promise<string[]> {
    return (await this.unfinishedUploads()).map((upload) => upload.key).sort();
  }

  /** Makes every unfinished upload look begun at `at` (for tests of what is old enough to abort). */
  async backdateUnfinishedUploads(at: Date): Promise<void> {
    for (const upload of await this.unfinishedUploads()) await utimes(join(upload.folder, 'key'), at, at);
  }

  private uploadsFolder(): string {
    return join(this.directory, this.bucket, '._S3rver_uploads');
  }

  private async unfinishedUploads(): Promise<Array<{ id: string; key: string; folder: string; initiated: Date }>> {
    const ids = await readdir(this.uploadsFolder()).catch(() => [] as string[]);
    const uploads = [];
    for (const id of ids) {
      const folder = join(this.uploadsFolder(), id);
      try {
        const [key, info] = await Promise.all([readFile(join(folder, 'key'), 'utf8'), stat(join(folder, 'key'))]);
        uploads.push({ id, key, folder, initiated: info.mtime });
      } catch {
        // completed meanwhile
      }
    }
    return uploads;
  }

  /** ListMultipartUploads and AbortMultipartUpload (see the class comment); anything else goes on to s3rver. */
  private unimplementedUploadCalls() {
    return async (ctx: S3rverContext, next: () => Promise<void>): Promise<void> => {
      const url = new URL(ctx.url, 'http://s3');
      // the SDK asks for a bucket's sub-resources at `/bucket/?uploads`
      const [bucket, ...keyParts] = url.pathname.slice(1).replace(/\/$/, '').split('/');
      if (bucket !== this.bucket) return next();
      if (ctx.method === 'GET' && keyParts.length === 0 && url.searchParams.has('uploads')) {
        const prefix = url.searchParams.get('prefix') ?? '';
        const uploads = (await this.unfinishedUploads()).filter((upload) => upload.key.startsWith(prefix));
        ctx.status = 200;
        ctx.type = 'application/xml';
        ctx.body = [
          '<?xml version="1.0" encoding="UTF-8"?>',
          '<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">',
          `<Bucket>${bucket}</Bucket><KeyMarker></KeyMarker><UploadIdMarker></UploadIdMarker><Prefix>${escapeXml(prefix)}</Prefix>`,
          `<MaxUploads>1000</MaxUploads><IsTruncated>false</IsTruncated>`,
          ...uploads.map(
            (upload) =>
              `<Upload><Key>${escapeXml(upload.key)}</Key><UploadId>${upload.id}</UploadId><Initiated>${upload.initiated.toISOString()}</Initiated></Upload>`,
          ),
          '</ListMultipartUploadsResult>',
        ].join('');
        return;
      }
      const uploadId = url.searchParams.get('uploadId');
      if (ctx.method === 'DELETE' && keyParts.length > 0 && uploadId !== null) {
        const upload = (await this.unfinishedUploads()).find((candidate) => candidate.id === uploadId);
        if (!upload || upload.key !== decodeURIComponent(keyParts.join('/'))) {
          ctx.status = 404;
          ctx.type = 'application/xml';
          ctx.body = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>`;
          return;
        }
        await rm(upload.folder, { recursive: true, force: true });
        ctx.status = 204;
        return;
      }
      return next();
    };
  }
}

/** The part of Koa's context the two added calls use. */
interface S3rverContext {
  readonly url: string;
  readonly method: string;
  status: number;
  type: string;
  body: unknown;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
