import { Injectable } from '@nestjs/common';
import { AuditLog, Clock, IdGenerator, keyActor } from '@svc/domain';
import { RepoToken, RepoTokenIssuer } from './repo-token-issuer';

export interface IssueRepoTokenInput {
  /** The id of the already authenticated key (any active, unexpired key; quota is not consulted). */
  readonly keyId: string;
}

export type IssueRepoTokenOutput = RepoToken;

/**
 * GET or POST /v1/installer/github-token: a token from the configured issuer,
 * and an audit entry naming the key, the provider and the expiry, never the token.
 */
@Injectable()
export class IssueRepoToken {
  constructor(
    private readonly issuer: RepoTokenIssuer,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async execute(input: IssueRepoTokenInput): Promise<IssueRepoTokenOutput> {
    const issued = await this.issuer.issue();
    await this.audit.append({
      id: this.ids.newId('aud'),
      at: this.clock.now(),
      action: 'installer.token_issued',
      keyId: input.keyId,
      reason: null,
      details: {
        provider: issued.provider,
        expires_at: issued.expiresAt ? issued.expiresAt.toISOString() : null,
      },
      actor: keyActor(input.keyId),
    });
    return issued;
  }
}
