import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import { Clock, LicenseSigner } from '@svc/domain';
import { ApiErrors } from '../../openapi/api-errors.decorator';
import { JwksResponse } from './dto/jwks.response';

/**
 * CONTRACT 15: the public keys that verify the signed offline licenses of
 * validate and refresh. No key (an SDK fetches them before it holds a
 * verified license); like health, never rate-limited. With generated keys
 * the set follows rotations (CONTRACT 19): each instance reads the keys again
 * at most once a minute.
 */
@ApiTags('license')
@SkipThrottle()
@Controller('v1/license')
export class LicenseController {
  constructor(
    private readonly signer: LicenseSigner,
    private readonly clock: Clock,
  ) {}

  @Get('jwks')
  @Header('Cache-Control', 'public, max-age=3600')
  @ApiOperation({
    summary: 'License verification keys',
    description:
      'The Ed25519 public keys (a JWKS) that verify `license_token`: the current signing key first, then a rotated key about to sign, then older keys still published (until their last token expired, and LICENSE_VERIFY_KEYS_FILE). No key, not rate-limited.',
  })
  @ApiOkResponse({ type: JwksResponse, description: 'The JWKS' })
  @ApiErrors('METHOD_NOT_ALLOWED', 'SERVER_ERROR')
  async keys(): Promise<JwksResponse> {
    return { keys: [...(await this.signer.publicKeys(this.clock.now()))] };
  }
}
