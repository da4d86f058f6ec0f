/**
 * The console's only door to the service: the admin API (CONTRACT 12 and 17) over fetch, with
 * the admin token as the bearer header (never in a URL), no caching, cancellable, and the service's
 * error envelope `{ error, code, message? }` turned into an ApiError with readable text.
 */

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

export type Query = Record<string, string | number | undefined | null>;

export interface CallOptions {
  readonly query?: Query;
  readonly body?: unknown;
  /** Cancels the call (useLoad passes one per load). */
  readonly signal?: AbortSignal;
}

/**
 * The admin API for one admin token (the session's). `onUnauthorized` runs when the service refuses
 * the token (401): the session signs out and says why. `onForbidden` runs on a 403 (the role was
 * changed meanwhile): the session reads GET /me again.
 */
export class AdminApi {
  constructor(
    private readonly token: string,
    private readonly onUnauthorized: () => void = () => undefined,
    private readonly onForbidden: () => void = () => undefined,
  ) {}

  /** One admin call; `query` values that are empty or undefined are left out. */
  async call<T>(method: string, path: string, options: CallOptions = {}): Promise<T> {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
    }
    const url = `/admin/v1${path}${params.size > 0 ? `?${params.toString()}` : ''}`;
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, {
        method,
        cache: 'no-store',
        credentials: 'omit',
        signal: options.signal,
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${this.token}`,
          ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
      });
      text = await response.text();
    } catch (failure) {
      if (isAbort(failure)) throw failure;
      throw new ApiError(0, 'NETWORK', 'The service cannot be reached');
    }
    if (!response.ok) {
      if (response.status === 401) this.onUnauthorized();
      if (response.status === 403) this.onForbidden();
      throw errorOf(response.status, text);
    }
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /**
   * PUT /admin/v1/models/{name}/file with the file's bytes, through XMLHttpRequest so the upload's
   * progress can be shown (fetch has no upload progress). `onProgress` gets 0..1.
   */
  uploadModelFile(name: string, file: Blob, onProgress: (fraction: number) => void): Promise<AdminModel> {
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
          resolve(JSON.parse(xhr.responseText) as AdminModel);
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

// ---- the shapes the console reads ----

export type Counts = Record<string, number>;

export interface Quota {
  monthly_limit: number | null;
  used: number;
  remaining: number | null;
  resets_at: string;
}

export interface KeySummary {
  key_id: string;
  user_id: string;
  email: string;
  prefix: string;
  license_type: string;
  environment: string;
  status: string;
  created_at?: string;
  expires_at: string;
  revoked_at: string | null;
  monthly_limit: number | null;
  monthly_limit_source: 'tier' | 'override';
}

export interface KeyDetails extends KeySummary {
  quota: Quota;
  license_id: string;
  rotated_from: string | null;
  rotated_to: string | null;
  /** How far keys.update alone may move the terms; beyond needs keys.raise_limit / keys.extend_expiry (admin). */
  update_bounds: { monthly_limit_max: number | null; expires_at_max: string };
}

export interface KeyPage {
  keys: KeySummary[];
  next_cursor: string | null;
}

export interface IssuedKey {
  key_id: string;
  api_key: string;
  user_id: string;
  license_type: string;
  environment: string;
  expires_at: string;
  monthly_limit: number | null;
}

export interface RotatedKey {
  api_key: string;
  key_id: string;
  expires_at: string;
  previous_key_expires_at: string;
  message: string;
}

export interface LicenseKey {
  key_id: string;
  prefix: string;
  status: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  rotated_from: string | null;
  rotated_to: string | null;
}

export interface DailyUsage {
  license_id: string;
  key_id: string | null;
  keys: LicenseKey[];
  from: string;
  to: string;
  days: Array<{ date: string; inferences: number; by_key: Counts }>;
  by_key: Counts;
  by_event_type: Counts;
  by_model: Counts;
  by_outcome: Counts;
}

/** Who made an audit entry (CONTRACT 21). */
export type Actor =
  | { type: 'operator'; operator_id: string; name: string }
  | { type: 'bootstrap' }
  | { type: 'key'; key_id: string }
  | { type: 'cli'; user: string }
  | { type: 'system' };

export interface AuditEntry {
  id: string;
  at: string;
  action: string;
  key_id: string | null;
  actor: Actor;
  reason?: string;
  details?: Record<string, unknown>;
}

export interface AuditPage {
  entries: AuditEntry[];
  next_cursor?: string | null;
}

export interface NearQuotaKey {
  key_id: string;
  email: string;
  prefix: string;
  license_type: string;
  used: number;
  monthly_limit: number;
  percent: number;
}

export interface NearQuotaPage {
  keys: NearQuotaKey[];
  next_cursor: string | null;
}

export interface Overview {
  keys_by_tier: Counts;
  keys_by_status: Counts;
  events_per_day: Array<{ date: string; events: number }>;
  near_quota: NearQuotaKey[];
  recent_audit: AuditEntry[];
}

export interface ModelMetadata {
  description: string;
  training_subjects: number;
  accuracy: string;
  feature_type: string;
  recommended_use: string;
  [extra: string]: unknown;
}

export interface AdminModel {
  name: string;
  version: string;
  type: string;
  paradigm: string;
  n_features: number;
  n_classes: number;
  download_url: string | null;
  checksum: string | null;
  size_mb: number | null;
  size_bytes?: number | null;
  requires_license: string;
  owner_user_id: string | null;
  published: boolean;
  stored_file: string | null;
  metadata: ModelMetadata;
  created_at: string;
  updated_at: string;
}

export const ROLES = ['viewer', 'support', 'admin', 'owner'] as const;

/** GET /admin/v1/me: who is signed in, the role, the permissions it holds and, for each it lacks, the role needed. */
export interface Me {
  operator_id: string | null;
  name: string;
  email?: string | null;
  role: string;
  permissions: string[];
  denied: Record<string, string>;
}

export interface AdminOperator {
  operator_id: string;
  name: string;
  email: string | null;
  role: string;
  created_at: string;
  last_used_at: string | null;
  disabled_at: string | null;
}

export interface AdminOperatorWithToken extends AdminOperator {
  token: string;
}

export const TIERS = ['free', 'research', 'commercial', 'enterprise'] as const;
export const STATUSES = ['active', 'expired', 'revoked'] as const;
export const MODEL_TYPES = ['SvcLDA', 'SvcQDA', 'SvcProbit'] as const;
export const AUDIT_ACTIONS = [
  'key.issued',
  'key.updated',
  'key.revoked',
  'key.rotated',
  'installer.token_issued',
  'model.created',
  'model.uploaded',
  'model.replaced',
  'model.deleted',
  'operator.created',
  'operator.updated',
  'operator.token_replaced',
] as const;
