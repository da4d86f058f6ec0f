import { Body, Controller, Header, HttpCode, Ip, Post } from '@nestjs/common';
import { RefreshApiKey, RevokeApiKey, ValidateApiKey } from '@svc/application';
import { AuthFailureLimiter } from '../../http/auth-failure-limiter';
import { KeySources } from '../../http/key-sources';
import { RateLimited } from '../../http/rate-limit.guard';
import { KeyBody } from './dto/key-body';
import { LicenseResponse, licenseResponseOf } from './dto/license.response';
import { KEY_REVOKED_RESPONSE, RevokeKeyResponse } from './dto/revoke-key.response';
import { ValidateKeyResponse, validateKeyResponseOf } from './dto/validate-key.response';

/** SPEC 4.1-4.3: the key is read from the body's `api_key`. */
@Controller('v1/auth')
@KeySources('body')
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
  async validate(@Body() body: KeyBody, @Ip() ip: string): Promise<ValidateKeyResponse> {
    return validateKeyResponseOf(await this.failures.watch(ip, () => this.validateKey.execute(body?.api_key)));
  }

  @Post('refresh')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @RateLimited('refresh')
  async refresh(@Body() body: KeyBody, @Ip() ip: string): Promise<LicenseResponse> {
    return licenseResponseOf(await this.failures.watch(ip, () => this.refreshKey.execute(body?.api_key)));
  }

  @Post('revoke')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @RateLimited('revoke')
  async revoke(@Body() body: KeyBody, @Ip() ip: string): Promise<RevokeKeyResponse> {
    await this.failures.watch(ip, () => this.revokeKey.execute({ presentedKey: body?.api_key, reason: body?.reason }));
    return KEY_REVOKED_RESPONSE;
  }
}
