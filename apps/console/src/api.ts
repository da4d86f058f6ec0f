import createClient, { type Client } from 'openapi-fetch';
import {
  type components,
  type paths,
  auditEntryResponseActionValues,
  createKeyRequestEnvironmentValues,
  createKeyRequestLicense_typeValues,
  createOperatorRequestRoleValues,
  createWebhookRequestEventsValues,
  listedKeyResponseStatusValues,
  modelRecordRequestTypeValues,
} from './api-schema';

/**
 * The console's only door to the service: the admin API (CONTRACT 12 and 17) through openapi-fetch,
 * typed by `api-schema.ts`, which `npm run openapi` generates from openapi.json (the API's response
 * and request classes): no shape and no list of the API is written here. The admin token travels as
 * the bearer header (never in a URL), nothing is cached, every call can be cancelled, and the
 * service's error envelope `{ error, code, message? }` becomes an ApiError with readable text.
 */

/** A shape of the API, by its name in openapi.json (`Schema<'KeyResponse'>`). */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

// The lists the console offers, as the API declares them (the enums of openapi.json).
export const AUDIT_ACTIONS = auditEntryResponseActionValues;
export const WEBHOOK_EVENT_TYPES = createWebhookRequestEventsValues;
export const ROLES = createOperatorRequestRoleValues;
export const TIERS = createKeyRequestLicense_typeValues;
export const ENVIRONMENTS = createKeyRequestEnvironmentValues;
export const STATUSES = listedKeyResponseStatusValues;
export const MODEL_TYPES = modelRecordRequestTypeValues;

/** An answer that was not a success, with the envelope's code and text. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The request was cancelled (the page left, or asked again): never shown. */
export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

function errorOf(status: number, text: string): ApiError {
  try {
    const body = JSON.parse(text) as { error?: unknown; code?: unknown; message?: unknown };
    if (typeof body.code === 'string') {
      const detail = typeof body.message === 'string' ? body.message : typeof body.error === 'string' ? body.error : '';
      return new ApiError(status, body.code, detail ? `${detail} (${body.code})` : body.code);
    }
  } catch {
    // not the envelope: fall through to the status
  }
  return new ApiError(status, `HTTP_${status}`, `The service answered ${status}`);
}

/** The query string of a call: parameters that are empty, null or undefined are left out. */
function queryOf(query: Record<string, unknown> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    // the console's parameters are strings and numbers
    if ((typeof value === 'string' && value !== '') || typeof value === 'number') params.set(name, String(value));
  }
  return params.toString();
}

/**
 * The body of a successful answer (undefined for 204). An error answer is an ApiError (the client's
 * middleware reads the envelope), a call that could not reach the service a NETWORK one.
 */
export async function ok<T>(pending: Promise<{ data?: T; response: Response }>): Promise<T> {
  try {
    return (await pending).data as T;
  } catch (failure) {
    // a cancelled call, an error answer (ApiError) or a body that is not JSON: as they are; anything else is the network's
    if (failure instanceof ApiError || failure instanceof SyntaxError || isAbort(failure)) throw failure;
    throw new ApiError(0, 'NETWORK', 'The service cannot be reached');
  }
}

/**
 * The admin API for one admin token (the session's): `client` is openapi-fetch's typed client over
 * the paths of openapi.json; wrap each call in `ok()` for its answer. `onUnauthorized` runs when
 * the service refuses the token (401): the session signs out and says why. `onForbidden` runs on a
 * 403 (the role was changed meanwhile): the session reads GET /me again.
 */
export class AdminApi {
  readonly client: Client<paths>;

  constructor(
    private readonly token: string,
    private readonly onUnauthorized: () => void = () => undefined,
    private readonly onForbidden: () => void = () => undefined,
  ) {
    this.client = createClient<paths>({
      cache: 'no-store',
      credentials: 'omit',
      headers: { accept: 'application/json', authorization: `Bearer ${token}` },
      querySerializer: queryOf,
    });
    this.client.use({
      onResponse: async ({ response }) => {
        if (response.ok) return undefined;
        if (response.status === 401) this.onUnauthorized();
        if (response.status === 403) this.onForbidden();
        throw errorOf(response.status, await response.text());
      },
    });
  }

  /**
   * PUT /admin/v1/models/{name}/file with the file's bytes, through XMLHttpRequest so the upload's
   * progress can be shown (fetch has no upload progress). `onProgress` gets 0..1.
   */
  uploadModelFile(name: string, file: Blob, onProgress: (fraction: number) => void): Promise<Schema<'AdminModelResponse'>> {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('PUT', `/admin/v1/models/${encodeURIComponent(name)}/file`);
      xhr.setRequestHeader('authorization', `Bearer ${this.token}`);
      xhr.setRequestHeader('content-type', 'application/octet-stream');
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
      };
      xhr.onload = () => {
        if (xhr.status >= 200 && xhr.status < 300) {
          onProgress(1);
          resolve(JSON.parse(xhr.responseText) as Schema<'AdminModelResponse'>);
        } else {
          if (xhr.status === 401) this.onUnauthorized();
          if (xhr.status === 403) this.onForbidden();
          reject(errorOf(xhr.status, xhr.responseText));
        }
      };
      xhr.onerror = () => reject(new ApiError(0, 'NETWORK', 'The upload failed: the service cannot be reached'));
      xhr.send(file);
    });
  }
}
