import { Logger } from '@nestjs/common';
import { createAppAuth, type StrategyOptions } from '@octokit/auth-app';
import { type KeyObject } from 'node:crypto';
import { type RepoToken, RepoTokenIssuer, UpstreamError } from '@svc/application';
import { type GithubAppConfig } from '@svc/config';
import { type Clock } from '@svc/domain';
import { InstallationTokenCache } from './installation-token-cache';

/** A cached token is handed out again only while it has at least this much life left (CONTRACT 6). */
export const INSTALLER_TOKEN_REUSE_MARGIN_MS = 10 * 60 * 1000;
/** The one route @octokit/auth-app asks its `request` for when minting an installation token. */
const MINT_ROUTE = 'POST /app/installations/{installation_id}/access_tokens';

/** What auth-app passes with MINT_ROUTE (dist-src/get-installation-authentication.js). */
interface MintParameters {
  readonly installation_id: number;
  readonly headers?: { readonly authorization?: string };
  readonly [parameter: string]: unknown;
}

/**
 * Mints GitHub App installation tokens restricted to the one installer
 * repository with `contents: read` (CONTRACT 6), with @octokit/auth-app
 * (`createAppAuth`, installation authentication):
 *
 * - The library signs the App's RS256 JWT (with the key parsed and checked at
 *   start-up), builds the mint request (`repositories: [name]` without the
 *   owner, `permissions: { contents: 'read' }`, both always passed) and keeps
 *   the token in its `cache`.
 * - `cache` is an InstallationTokenCache: it answers a stored token only while
 *   GitHub's `expires_at` is at least 10 minutes ahead of the injected Clock, so
 *   the library mints anew below that. The library only stores after a
 *   successful mint, so a failure is not cached and the next call tries again.
 * - `request` is our transport for that one route: a `fetch` to
 *   `GITHUB_API_URL` bounded by `GITHUB_REQUEST_TIMEOUT_MS`, no redirects, and failures turned
 *   into UpstreamError with a reason for the log (status or transport, never
 *   GitHub's body; the library's own RequestError would carry that body). It is
 *   hand-written because auth-app exposes no request instance to set a base
 *   URL on, and @octokit/request is not a declared dependency.
 * - The library caches a token as `|`-joined fields and splits them back, which
 *   would cut a token holding `|` (never assume a token's format): the transport
 *   hands it the token base64url-encoded and `issue()` decodes it.
 * - The JWT's clock is the library's `Date.now()` plus `timeDifference`, set from
 *   the injected Clock on each call, so a test clock moves the JWT too.
 *
 * Concurrent callers share one in-flight authentication (cache hit or mint).
 * The token is never logged.
 */
export class GithubAppRepoTokenIssuer extends RepoTokenIssuer {
  private readonly logger = new Logger(GithubAppRepoTokenIssuer.name);
  private readonly privateKeyPem: string;
  private readonly cache: InstallationTokenCache;
  private inFlight: Promise<RepoToken> | null = null;

  constructor(
    private readonly app: GithubAppConfig,
    signingKey: KeyObject,
    private readonly clock: Clock,
  ) {
    super();
    this.privateKeyPem = signingKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    this.cache = new InstallationTokenCache(clock, INSTALLER_TOKEN_REUSE_MARGIN_MS);
  }

  issue(): Promise<RepoToken> {
    if (!this.inFlight) {
      this.inFlight = this.authenticate().finally(() => {
        this.inFlight = null;
      });
    }
    return this.inFlight;
  }

  private async authenticate(): Promise<RepoToken> {
    let authentication: { token: string; expiresAt: string };
    try {
      // A new auth per call only binds options (cheap); it is how timeDifference follows the Clock.
      const auth = createAppAuth({
        appId: this.app.appId,
        privateKey: this.privateKeyPem,
        installationId: this.app.installationId,
        cache: this.cache as unknown as NonNullable<StrategyOptions['cache']>, // `get` may answer undefined: the library checks `if (!result)`
        request: this.transport as unknown as NonNullable<StrategyOptions['request']>, // called only as request(MINT_ROUTE, parameters)
        timeDifference: timeDifferenceOf(this.clock),
        log: { warn: (message: unknown) => this.logger.warn(`GitHub App auth: ${String(message)}`) },
      });
      authentication = await auth({
        type: 'installation',
        repositoryNames: [this.app.repository.name],
        permissions: { contents: 'read' },
      });
    } catch (error) {
      if (error instanceof UpstreamError) throw error;
      throw this.failure(`GitHub App authentication failed (${(error as Error)?.name ?? 'unknown error'})`);
    }
    return { token: decodeToken(authentication.token), expiresAt: new Date(authentication.expiresAt), provider: 'github_app' };
  }

  /** auth-app's `request`: sends the mint and answers `{ data: { token (encoded), expires_at } }`. */
  private readonly transport = async (
    route: string,
    parameters: MintParameters,
  ): Promise<{ data: { token: string; expires_at: string } }> => {
    if (route !== MINT_ROUTE) throw this.failure(`unexpected GitHub route ${route}`);
    // The body is what is left without the URL variable, headers and media type (as @octokit/endpoint
    // builds it): `repositories` and `permissions`; fields left undefined drop out of the JSON.
    const { installation_id: installationId, headers, mediaType: _mediaType, ...body } = parameters;
    const url = `${this.app.apiUrl}/app/installations/${encodeURIComponent(String(installationId))}/access_tokens`;
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: {
          accept: 'application/vnd.github+json',
          authorization: headers?.authorization ?? '',
          'content-type': 'application/json',
          'user-agent': 'svc-licensing',
          'x-github-api-version': '2022-11-28',
        },
        body: JSON.stringify(body),
        redirect: 'manual',
        signal: AbortSignal.timeout(this.app.requestTimeoutMs),
      });
    } catch (error) {
      const what = (error as Error)?.name === 'TimeoutError' ? `timed out after ${this.app.requestTimeoutMs} ms` : 'could not be reached';
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
      throw this.failure(timedOut ? `GitHub timed out after ${this.app.requestTimeoutMs} ms` : 'GitHub answered a body that is not JSON');
    }
    const { token, expires_at: expiresAtText } = (payload ?? {}) as { token?: unknown; expires_at?: unknown };
    const expiresAt = typeof expiresAtText === 'string' ? new Date(expiresAtText) : null;
    if (typeof token !== 'string' || token === '' || !expiresAt || Number.isNaN(expiresAt.getTime())) {
      throw this.failure('GitHub answered without a token and its expiry');
    }
    return { data: { token: encodeToken(token), expires_at: expiresAt.toISOString() } };
  };

  /** Logs what went wrong (status or transport, never GitHub's body) and builds the public error. */
  private failure(reason: string): UpstreamError {
    this.logger.warn(`Installer token mint failed: ${reason}`);
    return new UpstreamError(new Error(reason));
  }
}

/** base64url holds no `|`, so the library's `|`-joined cache entry splits back intact. */
function encodeToken(token: string): string {
  return Buffer.from(token, 'utf8').toString('base64url');
}

function decodeToken(encoded: string): string {
  return Buffer.from(encoded, 'base64url').toString('utf8');
}

/**
 * The Clock's offset from the system time, in whole seconds, for auth-app's
 * `timeDifference`; none (undefined) when they agree. auth-app computes the
 * JWT's time as `timeDifference && now + timeDifference`, so an offset of 0
 * would date the JWT at 1970 (`now: 0`) and GitHub would refuse every mint:
 * with the system clock, 0 is the usual case.
 */
export function timeDifferenceOf(clock: Clock): number | undefined {
  const seconds = Math.floor(clock.now().getTime() / 1000) - Math.floor(Date.now() / 1000);
  return seconds === 0 ? undefined : seconds;
}
