import { Body, Controller, Header, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RefreshApiKey, RevokeApiKey, RotateApiKey, ValidateApiKey } from '@svc/application';
import { ApiKey, KeyContext } from '@svc/domain';
import { ApiKeyAuth } from '../../api-key-auth/api-key-auth.decorator';
import { CurrentDevice, CurrentKey, CurrentKeyContext } from '../../api-key-auth/authenticated-key';
import { RATE_LIMIT_HEADERS } from '../../openapi/rate-limit-headers';
import { RotatedKeyResponse, rotatedKeyViewOf } from '@svc/presentation';
import { KeyRequest, RevokeKeyRequest, RotateKeyRequest } from '../../shared/dto/key.request';
import { LicenseResponse, licenseResponseOf } from '../../shared/dto/license.response';
import { KEY_REVOKED_RESPONSE, RevokeKeyResponse } from './dto/revoke-key.response';
import { ValidateKeyResponse, validateKeyResponseOf } from './dto/validate-key.response';

/** SPEC 4.1-4.3: the key is read from the body's `api_key`; the guard has checked it before any handler runs. */
@ApiTags('auth')
@Controller('v1/auth')
export class AuthController {
  constructor(
    private readonly validateKey: ValidateApiKey,
    private readonly refreshKey: RefreshApiKey,
    private readonly revokeKey: RevokeApiKey,
    private readonly rotateKey: RotateApiKey,
  ) {}

  @Post('validate')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @ApiKeyAuth({ from: ['body'], limit: 'validate', withContext: true, errors: ['QUOTA_EXCEEDED'] })
  @ApiOperation({
    summary: 'Validate a key',
    description: 'Permissions, quota and license data of the key in the body, with the signed offline license. 100 per minute.',
  })
  @ApiBody({ type: KeyRequest })
  @ApiOkResponse({ type: ValidateKeyResponse, headers: RATE_LIMIT_HEADERS, description: 'The key is active: its user, license and quota' })
  async validate(@CurrentKeyContext() caller: KeyContext, @CurrentDevice() device: string | null): Promise<ValidateKeyResponse> {
    return validateKeyResponseOf(await this.validateKey.execute(caller, device));
  }

  @Post('refresh')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @ApiKeyAuth({ from: ['body'], limit: 'refresh', withContext: true })
  @ApiOperation({
    summary: 'Refresh a key',
    description:
      'Re-reads the key and answers its current license and quota (200 even with the quota used up), with a new signed offline license. 10 per minute.',
  })
  @ApiBody({ type: KeyRequest })
  @ApiOkResponse({ type: LicenseResponse, headers: RATE_LIMIT_HEADERS, description: 'The key is active: its current license and quota' })
  async refresh(@CurrentKeyContext() caller: KeyContext, @CurrentDevice() device: string | null): Promise<LicenseResponse> {
    return licenseResponseOf(await this.refreshKey.execute(caller, device));
  }

  @Post('revoke')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @ApiKeyAuth({ from: ['body'], limit: 'revoke', purpose: 'revoke' })
  @ApiOperation({
    summary: 'Revoke a key',
    description: 'Makes the key in the body permanently inactive (an expired key too); the reason goes to the audit log. 10 per minute.',
  })
  @ApiOkResponse({ type: RevokeKeyResponse, headers: RATE_LIMIT_HEADERS, description: 'The key is revoked, for good' })
  async revoke(@CurrentKey() key: ApiKey, @Body() body: RevokeKeyRequest): Promise<RevokeKeyResponse> {
    await this.revokeKey.execute({ key, reason: body.reason ?? null });
    return KEY_REVOKED_RESPONSE;
  }

  @Post('rotate')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @ApiKeyAuth({ from: ['body'], limit: 'rotate', errors: ['KEY_ROTATED'] })
  @ApiOperation({
    summary: 'Rotate a key',
    description:
      'Replaces the key in the body with a new one of the same license (user, tier, environment, expiry, limit, and the one ' +
      'monthly counter). The new key is in this answer only. The old key keeps working for `grace_seconds`, then answers ' +
      'KEY_EXPIRED; 0 revokes it at once. A key already rotated answers 409 KEY_ROTATED: of concurrent rotations exactly one wins. 10 per minute.',
  })
  @ApiBody({ type: RotateKeyRequest })
  @ApiOkResponse({
    type: RotatedKeyResponse,
    headers: RATE_LIMIT_HEADERS,
    description: 'The new key, shown this once, and when the old one stops working',
  })
  async rotate(@CurrentKey() key: ApiKey, @Body() body: RotateKeyRequest): Promise<RotatedKeyResponse> {
    return rotatedKeyViewOf(await this.rotateKey.execute({ key, graceSeconds: body.grace_seconds ?? undefined }));
  }
}
