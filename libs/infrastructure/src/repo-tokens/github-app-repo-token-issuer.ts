import { Logger } from '@nestjs/common';
import { KeyObject, createPrivateKey, sign } from 'node:crypto';
import { RepoToken, RepoTokenIssuer, UpstreamError } from '@svc/application';
import { ConfigError, GithubAppConfig } from '@svc/config';
import { Clock } from '@svc/domain';

/** A cached token is handed out again only while it has at least this much life left (CONTRACT 6). */
export const INSTALLER_TOKEN_REUSE_MARGIN_MS = 10 * 60 * 1000;
/** Bound on one call to GitHub, connection and body included. */
export const GITHUB_REQUEST_TIMEOUT_MS = 10_000;

/**
 * Mints GitHub App installation tokens restricted to the one installer
 * repository with `contents: read` (CONTRACT 6).
 *
 * Why not @octokit/auth-app (v6, installed): its token cache is an LRU with a
 * fixed 59-minute TTL measured by `Date.now()`, not by our injected Clock, so the
 * "at least 10 minutes left" rule cannot be enforced with it (only bypassed with
 * `refresh: true`); it serialises cached tokens by joining fields with `|`,
 * which assumes a token format; it has no single-flight; and its RequestError
 * messages carry GitHub's answer. The protocol itself is small: an RS256 JWT
 * signed with node:crypto, and one POST, bounded by a timeout. So it is done here.
 *
 * Cache rule: one cached token; reused while `expires_at - clock.now() >= 10 min`.
 * Concurrent callers share one in-flight mint. A failed mint is not cached, so
 * the next call tries again. The token is never logged.
 */
export class GithubAppRepoTokenIssuer extends RepoTokenIssuer {
  private readonly logger = new Logger(GithubAppRepoTokenIssuer.name);
  private cached: RepoToken | null = null;
  private inFlight: Promise<RepoToken> | null = null;

  constructor(
    private readonly app: GithubAppConfig,
    private readonly signingKey: KeyObject,
    private readonly clock: Clock,
    private readonly timeoutMs: number = GITHUB_REQUEST_TIMEOUT_MS,
  ) {
    super();
  }

  /**
   * Parses the App's PEM private key once, at start-up. Accepts PKCS#1 (GitHub's
   * download) and PKCS#8, and a PEM whose newlines arrived as literal `\n`.
   */
  static signingKeyOf(pem: string): KeyObject {
    const text = !pem.includes('\n') && pem.includes('\\n') ? pem.replace(/\\n/g, '\n') : pem;
    let key: KeyObject;
    try {
      key = createPrivateKey({ key: text, format: 'pem' });
    } catch {
      throw new ConfigError(['GITHUB_APP_PRIVATE_KEY is not a readable PEM private key']);
    }
    if (key.asymmetricKeyType !== 'rsa') {
      throw new ConfigError(['GITHUB_APP_PRIVATE_KEY must be an RSA private key']);
    }
    return key;
  }

  issue(): Promise<RepoToken> {
    const cached = this.cached;
    if (cached?.expiresAt && cached.expiresAt.getTime() - this.clock.now().getTime() >= INSTALLER_TOKEN_REUSE_MARGIN_MS) {
      return Promise.resolve(cached);
    }
    if (!this.inFlight) {
      this.inFlight = this.mint()
        .then((minted) => {
          this.cached = minted;
          return minted;
        })
        .finally(() => {
          this.inFlight = null;
        });
    }
    return this.inFlight;
  }

  private async mint(): Promise<RepoToken> {
    const url = `${this.app.apiUrl}/app/installations/${encodeURIComponent(this.app.installationId)}/access_tokens`;
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: {
          accept: 'application/vnd.github+json',
          authorization: `Bearer ${this.appJwt()}`,
          'content-type': 'application/json',
          'user-agent': 'svc-licensing',
          'x-github-api-version': '2022-11-28',
        },
        body: JSON.stringify({ repositories: [this.app.repository.name], permissions: { contents: 'read' } }),
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      const what = (error as Error)?.name === 'TimeoutError' ? `timed out after ${this.timeoutMs} ms` : 'could not be reached';
      throw this.failure(`GitHub ${what}`);
    }
    if (response.status < 200 || response.status > 299) {
      await response.body?.cancel().catch(() => undefined);
      throw this.failure(`GitHub answered HTTP ${response.status}`);
    }
    let payload: unknown;
    try {
      payload = await response.json();
    } catch (error) {
      const timedOut = (error as Error)?.name === 'TimeoutError';
      throw this.failure(timedOut ? `GitHub timed out after ${this.timeoutMs} ms` : 'GitHub answered a body that is not JSON');
    }
    const { token, expires_at: expiresAtText } = (payload ?? {}) as { token?: unknown; expires_at?: unknown };
    const expiresAt = typeof expiresAtText === 'string' ? new Date(expiresAtText) : null;
    if (typeof token !== 'string' || token === '' || !expiresAt || Number.isNaN(expiresAt.getTime())) {
      throw this.failure('GitHub answered without a token and its expiry');
    }
    return { token, expiresAt, provider: 'github_app' };
  }

  /** The App's RS256 JWT: backdated 60 s for clock drift, valid 9 minutes (GitHub allows at most 10). */
  private appJwt(): string {
    const seconds = Math.floor(this.clock.now().getTime() / 1000);
    const header = base64url({ alg: 'RS256', typ: 'JWT' });
    const claims = base64url({ iat: seconds - 60, exp: seconds + 9 * 60, iss: this.app.appId });
    const signature = sign('sha256', Buffer.from(`${header}.${claims}`), this.signingKey).toString('base64url');
    return `${header}.${claims}.${signature}`;
  }

  /** Logs what went wrong (status or transport, never GitHub's body) and builds the public error. */
  private failure(reason: string): UpstreamError {
    this.logger.warn(`Installer token mint failed: ${reason}`);
    return new UpstreamError(new Error(reason));
  }
}

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}
