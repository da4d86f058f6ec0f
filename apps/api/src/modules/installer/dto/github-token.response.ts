import { ApiProperty } from '@nestjs/swagger';
import { IssueRepoTokenOutput } from '@svc/application';
import { toSecondTimestamp } from '@svc/domain';

/** SPEC 4.4 with CONTRACT 6's message. `expires_at` is null for a token that does not expire. */
export class GithubTokenResponse {
  @ApiProperty({ type: Boolean, enum: [true] })
  readonly success!: true;

  @ApiProperty({
    type: String,
    description: 'A read-only token for the core package repository; opaque, never assume its format',
    example: '<ACCESS_TOKEN>',
  })
  readonly github_token!: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'null: the token does not expire',
    example: '2026-11-21T18:33:54Z',
  })
  readonly expires_at!: string | null;

  @ApiProperty({ type: String, example: 'GitHub token retrieved successfully' })
  readonly message!: string;
}

export function githubTokenResponseOf(output: IssueRepoTokenOutput): GithubTokenResponse {
  return {
    success: true,
    github_token: output.token,
    expires_at: output.expiresAt ? toSecondTimestamp(output.expiresAt) : null,
    message: 'GitHub token retrieved successfully',
  };
}
