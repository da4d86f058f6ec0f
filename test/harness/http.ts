/** A real HTTP client for the tests: fetch against the listening service. */
export interface HttpAnswer<T = any> {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  readonly body: T;
}

export interface HttpOptions {
  /** Sent as JSON with `Content-Type: application/json`. */
  readonly json?: unknown;
  /** Sent as is; set the content type yourself. */
  readonly raw?: string | Uint8Array;
  readonly headers?: Record<string, string>;
}

export async function request(baseUrl: string, method: string, path: string, options: HttpOptions = {}): Promise<HttpAnswer> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  let body: string | Uint8Array | undefined;
  if (options.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.raw !== undefined) {
    body = options.raw;
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: parsed as any };
}
