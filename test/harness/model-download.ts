import { createHash } from 'node:crypto';
import { get } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import { ModelStore } from '@svc/domain';
import { ModelFileLinks } from '../../apps/api/src/modules/models/model-file-links';

export interface Downloaded {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly bytes: Buffer;
}

/**
 * GETs a model file's bytes over a connection of its own that closes after
 * the answer (`agent: false`), as an SDK downloading once would; a keep-alive
 * socket left behind could otherwise outlive the service under test.
 */
export function downloadFile(url: string, headers: Record<string, string> = {}): Promise<Downloaded> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

/**
 * GETs a large file the same way, keeping none of it: its size and its checksum (`sha256:<hex>`),
 * hashed as it streams, so the test's own memory stays flat however large the file.
 */
export function streamDownload(url: string): Promise<{ readonly status: number; readonly bytes: number; readonly checksum: string }> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (res) => {
      const hash = createHash('sha256');
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        bytes += chunk.length;
      });
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, checksum: `sha256:${hash.digest('hex')}` }));
    }).on('error', reject);
  });
}

/**
 * The link a key would be handed for the stored file an unsigned address
 * names (an operator's view shows the record's unsigned address): made by
 * the running app's model store on its ModelFileLinks' terms (valid for the TTL).
 */
export async function signedLinkOf(app: INestApplication, unsignedUrl: string): Promise<string> {
  const url = new URL(unsignedUrl);
  const file = decodeURIComponent(url.pathname.slice(url.pathname.lastIndexOf('/') + 1));
  const terms = app.get(ModelFileLinks, { strict: false }).termsFor(url.origin);
  return app.get(ModelStore, { strict: false }).linkTo(file, terms);
}
