import { IssueRepoTokenOutput } from '@svc/application';
import { toSecondTimestamp } from '@svc/domain';

/** SPEC 4.4 with CONTRACT 6's message. `expires_at` is null for a token that does not expire. */
export interface GithubTokenResponse {
  readonly success: true;
  readonly github_token: string;
  readonly expires_at: string | null;
  readonly message: string;
}

export function githubTokenResponseOf(output: IssueRepoTokenOutput): GithubTokenResponse {
  return {
    success: true,
    github_token: output.token,
    expires_at: output.expiresAt ? toSecondTimestamp(output.expiresAt) : null,
    message: 'GitHub token retrieved successfully',
  };
}
