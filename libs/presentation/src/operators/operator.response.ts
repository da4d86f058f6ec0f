import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PERMISSION_NAMES, ROLES } from '@svc/domain';

/** An audit entry's actor: `type` says which of the other fields are present. */
export class ActorResponse {
  @ApiProperty({ type: String, enum: ['operator', 'bootstrap', 'key', 'cli', 'system'] })
  readonly type!: string;

  @ApiPropertyOptional({ type: String, description: 'type operator' })
  readonly operator_id?: string;

  @ApiPropertyOptional({ type: String, description: "type operator: the operator's name" })
  readonly name?: string;

  @ApiPropertyOptional({ type: String, description: "type key: the key's own call (the SDK's revoke or rotate, an installer token)" })
  readonly key_id?: string;

  @ApiPropertyOptional({ type: String, description: 'type cli: the OS user who ran the CLI' })
  readonly user?: string;
}

const TOKEN_EXAMPLE = 'svc_admin_0123456789abcdef0123456789abcdef0123456789abcdef';

/** An operator: never a token or its digest. */
export class OperatorResponse {
  @ApiProperty({ type: String, example: 'opr_5f2c0e1d9a7b3c4d5e6f7a8b' })
  readonly operator_id!: string;

  @ApiProperty({ type: String })
  readonly name!: string;

  @ApiProperty({ type: String, nullable: true })
  readonly email!: string | null;

  @ApiProperty({ type: String, enum: [...ROLES] })
  readonly role!: (typeof ROLES)[number];

  @ApiProperty({ type: String, format: 'date-time' })
  readonly created_at!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Kept to the minute (written at most once a minute)' })
  readonly last_used_at!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  readonly disabled_at!: string | null;
}

export class OperatorWithTokenResponse extends OperatorResponse {
  @ApiProperty({ type: String, example: TOKEN_EXAMPLE, description: 'The admin token, shown this once: svc_admin_ and 48 hex digits' })
  readonly token!: string;
}

export class OperatorListResponse {
  @ApiProperty({ type: () => OperatorResponse, isArray: true, description: 'Oldest first' })
  readonly operators!: OperatorResponse[];
}

export class SessionResponse {
  @ApiProperty({ type: String, nullable: true, description: 'null for ADMIN_TOKEN (the bootstrap owner)' })
  readonly operator_id!: string | null;

  @ApiProperty({ type: String, description: '"bootstrap" for ADMIN_TOKEN' })
  readonly name!: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  readonly email?: string | null;

  @ApiProperty({ type: String, enum: [...ROLES] })
  readonly role!: (typeof ROLES)[number];

  @ApiProperty({ type: String, isArray: true, enum: [...PERMISSION_NAMES], description: 'What the role may do' })
  readonly permissions!: readonly (typeof PERMISSION_NAMES)[number][];

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string', enum: [...ROLES] },
    example: { 'keys.issue': 'admin', 'operators.manage': 'owner' },
    description:
      'Each permission the role lacks (a name of `permissions`), with the lowest role that holds it: the reason an action is refused; empty for an owner',
  })
  readonly denied!: Partial<Record<(typeof PERMISSION_NAMES)[number], (typeof ROLES)[number]>>;
}
