import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  IssueApiKey,
  IssueApiKeyInput,
  ListAudit,
  ListKeys,
  RevokeKeyById,
  RotateKeyById,
  ShowApiKey,
  UpdateApiKey,
  UpdateApiKeyInput,
} from '@svc/application';
import { InvalidRequestError } from '@svc/domain';
import {
  AuditPageResponse,
  IssuedKeyResponse,
  KeyListResponse,
  KeyResponse,
  RotatedKeyResponse,
  auditPageViewOf,
  decodeCursor,
  issuedKeyViewOf,
  keyListViewOf,
  keyViewOf,
  rotatedKeyViewOf,
} from '@svc/presentation';
import { AdminAuth } from '../../../admin-auth/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin } from '../../../admin-auth/admin-principal';
import { ALWAYS, ApiErrors, BODY, PATH } from '../../../openapi/api-errors.decorator';
import { ListAuditQuery, ListKeysQuery, pageLimitOf } from '../dto/console.query';
import { CreateKeyRequest } from '../dto/create-key.request';
import { AdminRevokeKeyRequest, AdminRotateKeyRequest } from '../dto/revoke-key.request';
import { UpdateKeyRequest } from '../dto/update-key.request';
import { SkipThrottle } from '@nestjs/throttler';

/** The operators' key calls of CONTRACT 12, each behind the permission it declares (CONTRACT 21). */
@ApiTags('admin')
@SkipThrottle()
@Controller()
export class AdminKeysController {
  constructor(
    private readonly issueKey: IssueApiKey,
    private readonly showKey: ShowApiKey,
    private readonly updateKey: UpdateApiKey,
    private readonly revokeKey: RevokeKeyById,
    private readonly rotateKey: RotateKeyById,
    private readonly listAudit: ListAudit,
    private readonly listKeys: ListKeys,
  ) {}

  @Get('keys')
  @AdminAuth('keys.read')
  @ApiOperation({
    summary: 'Search keys',
    description:
      'Newest first (created_at, then key_id), filtered by every parameter given, a page at a time: pass next_cursor as cursor ' +
      'for the next page (keys issued meanwhile never shift or repeat later pages). email matches the whole address in any case, email_prefix its start in any case (both on an index); ' +
      "prefix matches the start of the key's first 12 characters. Never the key nor its digest.",
  })
  @ApiOkResponse({ type: KeyListResponse, description: 'A page of keys (Cache-Control: no-store)' })
  @ApiErrors('INVALID_REQUEST', ...ALWAYS)
  async list(@Query() query: ListKeysQuery): Promise<KeyListResponse> {
    const after = query.cursor === undefined ? undefined : decodeCursor('keys', query.cursor);
    if (after === null) throw new InvalidRequestError('cursor must be the next_cursor of an earlier page');
    const page = await this.listKeys.execute({
      email: query.email,
      emailPrefix: query.email_prefix,
      prefix: query.prefix,
      userId: query.user_id,
      licenseType: query.license_type,
      status: query.status,
      after: after && { createdAt: after.at, id: after.id },
      limit: pageLimitOf(query.limit),
    });
    return keyListViewOf(page);
  }

  @Post('keys')
  @AdminAuth('keys.issue')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Issue a key',
    description: 'The plaintext key is in this answer only. Creates the user unless user_id names one.',
  })
  @ApiBody({ type: CreateKeyRequest })
  @ApiCreatedResponse({ type: IssuedKeyResponse, description: 'The key, its plaintext shown this once' })
  @ApiErrors(...BODY, 'USER_NOT_FOUND', ...ALWAYS)
  async create(@CurrentAdmin() admin: AdminPrincipal, @Body() body: CreateKeyRequest = new CreateKeyRequest()): Promise<IssuedKeyResponse> {
    const input: IssueApiKeyInput = {
      email: body.email,
      name: body.name,
      organization: body.organization,
      userId: body.user_id,
      licenseType: body.license_type,
      environment: body.environment ?? undefined,
      expiresAt: body.expires_at === undefined ? undefined : new Date(body.expires_at),
      monthlyLimit: body.monthly_limit,
      actor: admin.actor,
    };
    return issuedKeyViewOf(await this.issueKey.execute(input));
  }

  @Get('keys/:key_id')
  @AdminAuth('keys.read')
  @ApiOperation({ summary: 'Show a key', description: 'Its state, terms and current quota; never the whole key.' })
  @ApiOkResponse({ type: KeyResponse, description: 'The key as operators see it' })
  @ApiErrors(...PATH, 'KEY_NOT_FOUND', ...ALWAYS)
  async show(@Param('key_id') keyId: string): Promise<KeyResponse> {
    return keyViewOf(await this.showKey.execute(keyId));
  }

  @Patch('keys/:key_id')
  @AdminAuth('keys.update')
  @ApiOperation({
    summary: "Change a key's tier, expiry, monthly limit or its license's max_devices",
    description:
      'Expiry and monthly limit need keys.update (support) within the bounds the key shows (update_bounds): lowering a limit, ' +
      "raising it up to the tier's, going back to the tier's, or an expiry at most the default lifetime (365 days) past the current one. " +
      'Beyond them: a limit above the bounds or unlimited needs keys.raise_limit, a later expiry keys.extend_expiry, and a tier ' +
      'change keys.change_tier (all admin); refused with 403 FORBIDDEN saying why. An audit event (key.updated) records the change. ' +
      'A key already rotated answers 409 KEY_ROTATED; a tier or limit change of the current key reaches its predecessors still in ' +
      "their grace (CONTRACT 16). max_devices is the license's (CONTRACT 23), seen by all its keys: keys.update within " +
      "update_bounds.max_devices_max (the higher of the tier's and the current), above it keys.raise_limit; null goes back to the tier's. " +
      'Lowering it below the active count is allowed: no device is activated until fewer are active.',
  })
  @ApiBody({ type: UpdateKeyRequest })
  @ApiOkResponse({ type: KeyResponse, description: 'The key as operators see it' })
  @ApiErrors(...BODY, 'KEY_NOT_FOUND', 'KEY_REVOKED', 'KEY_ROTATED', ...ALWAYS)
  async update(
    @CurrentAdmin() admin: AdminPrincipal,
    @Param('key_id') keyId: string,
    @Body() body: UpdateKeyRequest = new UpdateKeyRequest(),
  ): Promise<KeyResponse> {
    const input: UpdateApiKeyInput = {
      keyId,
      licenseType: body.license_type,
      expiresAt: body.expires_at === undefined ? undefined : new Date(body.expires_at),
      monthlyLimit: body.monthly_limit,
      maxDevices: body.max_devices,
      actor: admin.actor,
      role: admin.role,
    };
    return keyViewOf(await this.updateKey.execute(input));
  }

  @Post('keys/:key_id/revoke')
  @AdminAuth('keys.revoke')
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke a key by id', description: 'Permanent; an audit event (key.revoked) records the reason.' })
  @ApiBody({ type: AdminRevokeKeyRequest, required: false })
  @ApiOkResponse({ type: KeyResponse, description: 'The key as operators see it' })
  @ApiErrors(...BODY, 'KEY_NOT_FOUND', 'KEY_REVOKED', ...ALWAYS)
  async revoke(
    @CurrentAdmin() admin: AdminPrincipal,
    @Param('key_id') keyId: string,
    @Body() body: AdminRevokeKeyRequest = new AdminRevokeKeyRequest(),
  ): Promise<KeyResponse> {
    return keyViewOf(await this.revokeKey.execute({ keyId, reason: body.reason ?? null, actor: admin.actor }));
  }

  @Post('keys/:key_id/rotate')
  @AdminAuth('keys.rotate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Rotate a key by id',
    description:
      'A new key for the same license (CONTRACT 16), shown in this answer only; the old key works until grace_seconds ' +
      'have passed (0: revoked at once). An audit event (key.rotated) on both keys. Already rotated: 409 KEY_ROTATED.',
  })
  @ApiBody({ type: AdminRotateKeyRequest, required: false })
  @ApiOkResponse({ type: RotatedKeyResponse, description: 'The new key, shown this once, and when the old one stops working' })
  @ApiErrors(...BODY, 'KEY_NOT_FOUND', 'KEY_REVOKED', 'KEY_ROTATED', ...ALWAYS)
  async rotate(
    @CurrentAdmin() admin: AdminPrincipal,
    @Param('key_id') keyId: string,
    @Body() body: AdminRotateKeyRequest = new AdminRotateKeyRequest(),
  ): Promise<RotatedKeyResponse> {
    return rotatedKeyViewOf(await this.rotateKey.execute({ keyId, graceSeconds: body.grace_seconds ?? undefined, actor: admin.actor }));
  }

  @Get('audit')
  @AdminAuth('audit.read')
  @ApiOperation({
    summary: 'The audit log',
    description:
      'Issuance, changes, revocations, installer tokens, model and operator changes, each with its actor, newest first, ' +
      'filtered by key, action and actor (an operator id, or a key id for its own calls), ' +
      'a page at a time: pass next_cursor as cursor for the next page.',
  })
  @ApiOkResponse({ type: AuditPageResponse, description: 'Audit entries, newest first (Cache-Control: no-store)' })
  @ApiErrors('INVALID_REQUEST', 'KEY_NOT_FOUND', ...ALWAYS)
  async audit(@Query() query: ListAuditQuery): Promise<AuditPageResponse> {
    const after = query.cursor === undefined ? undefined : decodeCursor('audit', query.cursor);
    if (after === null) throw new InvalidRequestError('cursor must be the next_cursor of an earlier page');
    const page = await this.listAudit.page({
      keyId: query.key_id,
      action: query.action,
      actorId: query.actor,
      after,
      limit: pageLimitOf(query.limit),
    });
    return auditPageViewOf(page);
  }
}
