import { request as httpRequest } from 'node:http';
import { type HttpAnswer } from './http';

export interface RawHttpOptions {
  /** Sent exactly as given; no Content-Type is added. */
  readonly body?: string | Uint8Array;
  /** Sent exactly as given (a Content-Length is added when there is a body and none is given). */
  readonly headers?: Record<string, string>;
  /** The local address to connect from (any 127.x.y.z on Linux): a client of its own address. */
  readonly localAddress?: string;
}

/**
 * A raw HTTP/1.1 request with node:http, for what fetch refuses to send: a
 * body with GET or HEAD, a body without any Content-Type, odd header values.
 * The answer has the same shape as the fetch-based `request` of `http.ts`.
 */
export function rawRequest(baseUrl: string, method: string, path: string, options: RawHttpOptions = {}): Promise<HttpAnswer> {
  const url = new URL(baseUrl);
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  const body = options.body === undefined ? undefined : Buffer.from(options.body);
  if (body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-length')) {
    headers['content-length'] = String(body.length);
  }
  return new Promise<HttpAnswer>((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, method, path, headers, agent: false, localAddress: options.localAddress },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const answerHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value === undefined) continue;
            for (const one of Array.isArray(value) ? value : [value]) answerHeaders.append(name, one);
          }
          let parsed: unknown;
          try {
            parsed = text === '' ? undefined : JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: answerHeaders, text, body: parsed as any });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
