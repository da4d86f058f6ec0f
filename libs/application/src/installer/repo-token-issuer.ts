/** Which configured source handed out an installer token (recorded in the audit log). */
export type RepoTokenProvider = 'github_app' | 'static';

/** A read-only access token to the repository holding the proprietary core package. */
export interface RepoToken {
  /** Opaque: never assume its length or format, and never log it. */
  readonly token: string;
  /** When the code host stops accepting it; `null` for a token that does not expire. */
  readonly expiresAt: Date | null;
  readonly provider: RepoTokenProvider;
}

/**
 * Port: hands out installer tokens (CONTRACT 6). One adapter is bound at start-up
 * from configuration: the GitHub App, a static token, or "not configured".
 * Throws `InstallerNotConfiguredError` or `UpstreamError`, never anything HTTP.
 */
export abstract class RepoTokenIssuer {
  abstract issue(): Promise<RepoToken>;
}
