import { Body, Controller, Header, HttpCode, Ip, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RefreshApiKey, RevokeApiKey, ValidateApiKey } from '@svc/application';
import { AuthFailureLimiter } from '../../http/auth-failure-limiter';
import { RateLimited } from '../../http/rate-limit.guard';
import { AcceptsKeyFrom } from '../../openapi/accepts-key.decorator';
import { ALWAYS, ApiErrors, BODY, KEY_CHECKS } from '../../openapi/api-errors.decorator';
import { RATE_LIMIT_HEADERS } from '../../openapi/rate-limit-headers';
import { KeyBody } from './dto/key-body';
import { KeyRequest, RevokeKeyRequest } from './dto/key.request';
import { LicenseResponse, licenseResponseOf } from './dto/license.response';
import { KEY_REVOKED_RESPONSE, RevokeKeyResponse } from './dto/revoke-key.response';
import { ValidateKeyResponse, validateKeyResponseOf } from './dto/validate-key.response';

/** SPEC 4.1-4.3: the key is read from the body's `api_key`. */
@ApiTags('auth')
@Controller('v1/auth')
@AcceptsKeyFrom('body')
export class AuthController {
  constructor(
    private readonly validateKey: ValidateApiKey,
    private readonly refreshKey: RefreshApiKey,
    private readonly revokeKey: RevokeApiKey,
    private readonly failures: AuthFailureLimiter,
  ) {}

  @Post('validate')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @RateLimited('validate')
  @ApiOperation({ summary: 'Validate a key', description: 'Permissions, quota and license data of the key in the body. 100 per minute.' })
  @ApiBody({ type: KeyRequest })
  @ApiOkResponse({ type: ValidateKeyResponse, headers: RATE_LIMIT_HEADERS, description: 'The key is active: its user, license and quota' })
  @ApiErrors(...BODY, ...KEY_CHECKS, 'RATE_LIMIT_EXCEEDED', 'QUOTA_EXCEEDED', ...ALWAYS)
  async validate(@Body() body: KeyBody, @Ip() ip: string): Promise<ValidateKeyResponse> {
    return validateKeyResponseOf(await this.failures.watch(ip, () => this.validateKey.execute(body?.api_key)));
  }

  @Post('refresh')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @RateLimited('refresh')
  @ApiOperation({
    summary: 'Refresh a key',
    description: 'Re-reads the key and answers its current license and quota (200 even with the quota used up). 10 per minute.',
  })
  @ApiBody({ type: KeyRequest })
  @ApiOkResponse({ type: LicenseResponse, headers: RATE_LIMIT_HEADERS, description: 'The key is active: its current license and quota' })
  @ApiErrors(...BODY, ...KEY_CHECKS, 'RATE_LIMIT_EXCEEDED', ...ALWAYS)
  async refresh(@Body() body: KeyBody, @Ip() ip: string): Promise<LicenseResponse> {
    return licenseResponseOf(await this.failures.watch(ip, () => this.refreshKey.execute(body?.api_key)));
  }

  @Post('revoke')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @RateLimited('revoke')
  @ApiOperation({
    summary: 'Revoke a key',
    description: 'Makes the key in the body permanently inactive (an expired key too); the reason goes to the audit log. 10 per minute.',
  })
  @ApiBody({ type: RevokeKeyRequest })
  @ApiOkResponse({ type: RevokeKeyResponse, headers: RATE_LIMIT_HEADERS, description: 'The key is revoked, for good' })
  @ApiErrors(...BODY, 'MISSING_KEY', 'INVALID_FORMAT', 'KEY_NOT_FOUND', 'RATE_LIMIT_EXCEEDED', ...ALWAYS)
  async revoke(@Body() body: KeyBody, @Ip() ip: string): Promise<RevokeKeyResponse> {
    await this.failures.watch(ip, () => this.revokeKey.execute({ presentedKey: body?.api_key, reason: body?.reason }));
    return KEY_REVOKED_RESPONSE;
  }
}
