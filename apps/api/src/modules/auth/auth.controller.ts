import { Body, Controller, Header, HttpCode, Post } from '@nestjs/common';
import { RefreshApiKey, RevokeApiKey, ValidateApiKey } from '@svc/application';
import { KeyBody } from './dto/key-body';
import { LicenseResponse, licenseResponseOf } from './dto/license.response';
import { KEY_REVOKED_RESPONSE, RevokeKeyResponse } from './dto/revoke-key.response';
import { ValidateKeyResponse, validateKeyResponseOf } from './dto/validate-key.response';

/** SPEC 4.1-4.3: the key is read from the body's `api_key`. */
@Controller('v1/auth')
export class AuthController {
  constructor(
    private readonly validateKey: ValidateApiKey,
    private readonly refreshKey: RefreshApiKey,
    private readonly revokeKey: RevokeApiKey,
  ) {}

  @Post('validate')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  async validate(@Body() body: KeyBody): Promise<ValidateKeyResponse> {
    return validateKeyResponseOf(await this.validateKey.execute(body?.api_key));
  }

  @Post('refresh')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  async refresh(@Body() body: KeyBody): Promise<LicenseResponse> {
    return licenseResponseOf(await this.refreshKey.execute(body?.api_key));
  }

  @Post('revoke')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  async revoke(@Body() body: KeyBody): Promise<RevokeKeyResponse> {
    await this.revokeKey.execute({ presentedKey: body?.api_key, reason: body?.reason });
    return KEY_REVOKED_RESPONSE;
  }
}
