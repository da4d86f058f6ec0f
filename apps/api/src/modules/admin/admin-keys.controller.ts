import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import {
  AuditEntryView,
  IssueApiKey,
  IssueApiKeyInput,
  IssuedKeyView,
  KeyView,
  ListAudit,
  RevokeKeyById,
  ShowApiKey,
  UpdateApiKey,
  UpdateApiKeyInput,
  auditEntryViewOf,
  issuedKeyViewOf,
  keyViewOf,
} from '@svc/application';
import { InvalidRequestError } from '@svc/domain';
import { AdminTokenGuard } from '../../http/admin-token.guard';
import { CreateKeyRequest } from './dto/create-key.request';
import { AdminRevokeKeyRequest } from './dto/revoke-key.request';
import { UpdateKeyRequest } from './dto/update-key.request';

/** The operators' key calls of CONTRACT 12, behind the admin bearer token. */
@Controller('admin/v1')
@UseGuards(AdminTokenGuard)
export class AdminKeysController {
  constructor(
    private readonly issueKey: IssueApiKey,
    private readonly showKey: ShowApiKey,
    private readonly updateKey: UpdateApiKey,
    private readonly revokeKey: RevokeKeyById,
    private readonly listAudit: ListAudit,
  ) {}

  @Post('keys')
  @HttpCode(201)
  async create(@Body() body: CreateKeyRequest = new CreateKeyRequest()): Promise<IssuedKeyView> {
    const input: IssueApiKeyInput = {
      email: body.email,
      name: body.name,
      organization: body.organization,
      userId: body.user_id,
      licenseType: body.license_type as string,
      environment: body.environment as string | undefined,
      expiresAt: body.expires_at === undefined ? undefined : new Date(body.expires_at),
      monthlyLimit: body.monthly_limit as IssueApiKeyInput['monthlyLimit'],
    };
    return issuedKeyViewOf(await this.issueKey.execute(input));
  }

  @Get('keys/:key_id')
  async show(@Param('key_id') keyId: string): Promise<KeyView> {
    return keyViewOf(await this.showKey.execute(keyId));
  }

  @Patch('keys/:key_id')
  async update(@Param('key_id') keyId: string, @Body() body: UpdateKeyRequest = new UpdateKeyRequest()): Promise<KeyView> {
    const input: { -readonly [K in keyof UpdateApiKeyInput]: UpdateApiKeyInput[K] } = { keyId };
    if (body.license_type !== undefined) input.licenseType = body.license_type as string;
    if (body.expires_at !== undefined) input.expiresAt = new Date(body.expires_at);
    if (body.monthly_limit !== undefined) input.monthlyLimit = body.monthly_limit as UpdateApiKeyInput['monthlyLimit'];
    return keyViewOf(await this.updateKey.execute(input));
  }

  @Post('keys/:key_id/revoke')
  @HttpCode(200)
  async revoke(@Param('key_id') keyId: string, @Body() body: AdminRevokeKeyRequest = new AdminRevokeKeyRequest()): Promise<KeyView> {
    return keyViewOf(await this.revokeKey.execute({ keyId, reason: body.reason ?? null }));
  }

  @Get('audit')
  async audit(@Query('key_id') keyId?: unknown): Promise<{ entries: AuditEntryView[] }> {
    if (keyId !== undefined && typeof keyId !== 'string') throw new InvalidRequestError('key_id must be given once');
    const entries = await this.listAudit.execute({ keyId: keyId as string | undefined });
    return { entries: entries.map(auditEntryViewOf) };
  }
}
