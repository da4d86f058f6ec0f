import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ROLES, Role } from '@svc/domain';
import { IsPlainText } from '@svc/presentation';
import { IsBoolean, IsEmail, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';

const ROLE_RULE = { message: `role must be one of ${ROLES.join(', ')}` };
const NAME_RULE = { message: 'name must be a non-empty string of at most 200 characters' };
const EMAIL_RULE = { message: 'email must be an e-mail address' };

/** POST /admin/v1/operators (CONTRACT 21). */
export class CreateOperatorRequest {
  @ApiProperty({ type: String, maxLength: 200, example: 'Grace Hopper' })
  @IsString(NAME_RULE)
  @IsNotEmpty(NAME_RULE)
  @MaxLength(200, NAME_RULE)
  @IsPlainText('name')
  readonly name!: string;

  @ApiPropertyOptional({ type: String, maxLength: 254, nullable: true, example: 'grace@example.org' })
  @IsOptional()
  @MaxLength(254, EMAIL_RULE)
  @IsEmail({}, EMAIL_RULE)
  readonly email?: string | null;

  @ApiProperty({ type: String, enum: [...ROLES] })
  @IsIn(ROLES, ROLE_RULE)
  readonly role!: Role;
}

/** PATCH /admin/v1/operators/{operator_id}: any of the four; a field left out is left alone. */
export class UpdateOperatorRequest {
  @ApiPropertyOptional({ type: String, maxLength: 200 })
  @ValidateIf((_, value) => value !== undefined)
  @IsString(NAME_RULE)
  @IsNotEmpty(NAME_RULE)
  @MaxLength(200, NAME_RULE)
  @IsPlainText('name')
  readonly name?: string;

  @ApiPropertyOptional({ type: String, maxLength: 254, nullable: true })
  @IsOptional()
  @MaxLength(254, EMAIL_RULE)
  @IsEmail({}, EMAIL_RULE)
  readonly email?: string | null;

  @ApiPropertyOptional({ type: String, enum: [...ROLES] })
  @ValidateIf((_, value) => value !== undefined)
  @IsIn(ROLES, ROLE_RULE)
  readonly role?: Role;

  @ApiPropertyOptional({ type: Boolean, description: 'true disables the operator (its token is refused at once); false enables it again' })
  @ValidateIf((_, value) => value !== undefined)
  @IsBoolean({ message: 'disabled must be true or false' })
  readonly disabled?: boolean;
}
