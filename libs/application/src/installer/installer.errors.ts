import { DomainError } from '@svc/domain';

/** No installer token is set up on this server (or the static one has expired). */
export class InstallerNotConfiguredError extends DomainError {
  readonly code = 'NOT_CONFIGURED' as const;
  constructor() {
    super('Installer token is not configured on the server', 'The installer token is not available; please contact support');
  }
}

/**
 * The code host could not be reached, timed out or refused to mint a token.
 * The public text says nothing of the upstream answer; `cause` (logged, never
 * sent) may name the status, never the upstream body.
 */
export class UpstreamError extends DomainError {
  readonly code = 'UPSTREAM_ERROR' as const;
  constructor(cause?: unknown) {
    super('Upstream service unavailable', 'Could not obtain a token from the code host; try again later', { cause });
  }
}
