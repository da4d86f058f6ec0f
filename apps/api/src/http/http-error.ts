import { type HttpErrorCode } from './error-status.map';

/** An error decided at the HTTP edge (routing, media type, admin auth), rendered by the envelope filter. */
export class HttpEdgeError extends Error {
  constructor(
    readonly code: HttpErrorCode,
    readonly description: string,
    readonly hint?: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(description);
    this.name = 'HttpEdgeError';
  }
}
