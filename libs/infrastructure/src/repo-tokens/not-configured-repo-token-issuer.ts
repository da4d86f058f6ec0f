import { InstallerNotConfiguredError, type RepoToken, RepoTokenIssuer } from '@svc/application';

/** Neither a GitHub App nor a static token is configured: every request answers NOT_CONFIGURED. */
export class NotConfiguredRepoTokenIssuer extends RepoTokenIssuer {
  async issue(): Promise<RepoToken> {
    throw new InstallerNotConfiguredError();
  }
}
