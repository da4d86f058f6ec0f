import { Body, Controller, Get, Header, HttpCode, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import {
  IssueApiKey,
  IssueApiKeyInput,
  ListAudit,
  RevokeKeyById,
  RotateKeyById,
  ShowApiKey,
  UpdateApiKey,
  UpdateApiKeyInput,
} from '@svc/application';
import { InvalidRequestError } from '@svc/domain';
import {
  AuditEntryView,
  IssuedKeyView,
  KeyView,
  RotatedKeyView,
  auditEntryViewOf,
  issuedKeyViewOf,
  keyViewOf,
  rotatedKeyViewOf,
} from '@svc/presentation';
import { AdminTokenGuard } from '../../http/admin-token.guard';
import { ADMIN_BEARER } from '../../openapi/openapi';
import { ALWAYS, ApiErrors, BODY } from '../../openapi/api-errors.decorator';
import { CreateKeyRequest } from './dto/create-key.request';
import { AuditListResponse, IssuedKeyResponse, KeyResponse, RotatedKeyResponse } from './dto/key.response';
import { AdminRevokeKeyRequest, AdminRotateKeyRequest } from './dto/revoke-key.request';
import { UpdateKeyRequest } from './dto/update-key.request';
import { SkipThrottle } from '@nestjs/throttler';

/** The operators' key calls of CONTRACT 12, behind the admin bearer token. */
@ApiTags('admin')
@ApiBearerAuth(ADMIN_BEARER)
@SkipThrottle()
@Controller('admin/v1')
@UseGuards(AdminTokenGuard)
export class AdminKeysController {
  constructor(
    private readonly issueKey: IssueApiKey,
    private readonly showKey: ShowApiKey,
    private readonly updateKey: UpdateApiKey,
    private readonly revokeKey: RevokeKeyById,
    private readonly rotateKey: RotateKeyById,
    private readonly listAudit: ListAudit,
  ) {}

  @Post('keys')
  @HttpCode(201)
  @ApiOperation({ summary: 'Issue a key', description: 'The plaintext key is in this answer only. Creates the user unless user_id names one.' })
  @ApiBody({ type: CreateKeyRequest })
  @ApiCreatedResponse({ type: IssuedKeyResponse, description: 'The key, its plaintext shown this once' })
  @ApiErrors(...BODY, 'UNAUTHORIZED', 'USER_NOT_FOUND', ...ALWAYS)
  async create(@Body() body: CreateKeyRequest = new CreateKeyRequest()): Promise<IssuedKeyView> {
    const input: IssueApiKeyInput = {
      email: body.email,
      name: body.name,
      organization: body.organization,
      userId: body.user_id,
      licenseType: body.license_type,
      environment: body.environment ?? undefined,
      expiresAt: body.expires_at === undefined ? undefined : new Date(body.expires_at),
      monthlyLimit: body.monthly_limit,
    };
    return issuedKeyViewOf(await this.issueKey.execute(input));
  }

  @Get('keys/:key_id')
  @ApiOperation({ summary: 'Show a key', description: 'Its state, terms and current quota; never the whole key.' })
  @ApiOkResponse({ type: KeyResponse, description: 'The key as operators see it' })
  @ApiErrors('UNAUTHORIZED', 'KEY_NOT_FOUND', ...ALWAYS)
  async show(@Param('key_id') keyId: string): Promise<KeyView> {
    return keyViewOf(await this.showKey.execute(keyId));
  }

  @Patch('keys/:key_id')
  @ApiOperation({
    summary: 'Change a key\'s tier, expiry or monthly limit',
    description:
      'An audit event (key.updated) records the change. A key already rotated answers 409 KEY_ROTATED; a tier or limit ' +
      'change of the current key reaches its predecessors still in their grace (CONTRACT 16).',
  })
  @ApiBody({ type: UpdateKeyRequest })
  @ApiOkResponse({ type: KeyResponse, description: 'The key as operators see it' })
  @ApiErrors(...BODY, 'UNAUTHORIZED', 'KEY_NOT_FOUND', 'KEY_REVOKED', 'KEY_ROTATED', ...ALWAYS)
  async update(@Param('key_id') keyId: string, @Body() body: UpdateKeyRequest = new UpdateKeyRequest()): Promise<KeyView> {
    const input: UpdateApiKeyInput = {
      keyId,
      licenseType: body.license_type,
      expiresAt: body.expires_at === undefined ? undefined : new Date(body.expires_at),
      monthlyLimit: body.monthly_limit,
    };
    return keyViewOf(await this.updateKey.execute(input));
  }

  @Post('keys/:key_id/revoke')
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke a key by id', description: 'Permanent; an audit event (key.revoked) records the reason.' })
  @ApiBody({ type: AdminRevokeKeyRequest, required: false })
  @ApiOkResponse({ type: KeyResponse, description: 'The key as operators see it' })
  @ApiErrors(...BODY, 'UNAUTHORIZED', 'KEY_NOT_FOUND', 'KEY_REVOKED', ...ALWAYS)
  async revoke(@Param('key_id') keyId: string, @Body() body: AdminRevokeKeyRequest = new AdminRevokeKeyRequest()): Promise<KeyView> {
    return keyViewOf(await this.revokeKey.execute({ keyId, reason: body.reason ?? null }));
  }

  @Post('keys/:key_id/rotate')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'Rotate a key by id',
    description:
      'A new key for the same license (CONTRACT 16), shown in this answer only; the old key works until grace_seconds ' +
      'have passed (0: revoked at once). An audit event (key.rotated) on both keys. Already rotated: 409 KEY_ROTATED.',
  })
  @ApiBody({ type: AdminRotateKeyRequest, required: false })
  @ApiOkResponse({ type: RotatedKeyResponse, description: 'The new key, shown this once, and when the old one stops working' })
  @ApiErrors(...BODY, 'UNAUTHORIZED', 'KEY_NOT_FOUND', 'KEY_REVOKED', 'KEY_ROTATED', ...ALWAYS)
  async rotate(@Param('key_id') keyId: string, @Body() body: AdminRotateKeyRequest = new AdminRotateKeyRequest()): Promise<RotatedKeyView> {
    return rotatedKeyViewOf(await this.rotateKey.execute({ keyId, graceSeconds: body.grace_seconds ?? undefined }));
  }

  @Get('audit')
  @ApiOperation({ summary: 'The audit log', description: 'Issuance, changes, revocations and installer tokens, newest first.' })
  @ApiQuery({ name: 'key_id', required: false, type: String, description: "Only this key's entries" })
  @ApiOkResponse({ type: AuditListResponse, description: 'Audit entries, newest first' })
  @ApiErrors('INVALID_REQUEST', 'UNAUTHORIZED', 'KEY_NOT_FOUND', ...ALWAYS)
  async audit(@Query('key_id') keyId?: string | string[]): Promise<{ entries: AuditEntryView[] }> {
    if (Array.isArray(keyId)) throw new InvalidRequestError('key_id must be given once');
    const entries = await this.listAudit.execute({ keyId });
    return { entries: entries.map(auditEntryViewOf) };
  }
}
