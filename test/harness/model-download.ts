import { get } from 'node:http';

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
export function downloadFile(url: string): Promise<Downloaded> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

