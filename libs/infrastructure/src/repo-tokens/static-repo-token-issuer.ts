import { Logger } from '@nestjs/common';
import { InstallerNotConfiguredError, type RepoToken, RepoTokenIssuer } from '@svc/application';
import { type Clock } from '@svc/domain';

/**
 * The operator's static token (`INSTALLER_GITHUB_TOKEN`). It does not expire
 * unless `INSTALLER_GITHUB_TOKEN_EXPIRES_AT` is set; once that has passed the
 * provider answers as not configured (CONTRACT 6), and says so once in the log.
 */
export class StaticRepoTokenIssuer extends RepoTokenIssuer {
  private readonly logger = new Logger(StaticRepoTokenIssuer.name);
  private warnedExpired = false;

  constructor(
    private readonly token: string,
    private readonly expiresAt: Date | null,
    private readonly clock: Clock,
  ) {
    super();
  }

  async issue(): Promise<RepoToken> {
    if (this.expiresAt && this.clock.now().getTime() >= this.expiresAt.getTime()) {
      if (!this.warnedExpired) {
        this.warnedExpired = true;
        this.logger.warn('INSTALLER_GITHUB_TOKEN_EXPIRES_AT has passed: the installer answers NOT_CONFIGURED');
      }
      throw new InstallerNotConfiguredError();
    }
    return { token: this.token, expiresAt: this.expiresAt, provider: 'static' };
  }
}
