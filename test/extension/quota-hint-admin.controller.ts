import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ShowApiKey } from '@svc/application';
import { AdminAuth } from '../../apps/api/src/admin-auth/admin-auth.decorator';
import { ALWAYS, ApiErrors } from '../../apps/api/src/openapi/api-errors.decorator';
import { QuotaHintResponse } from './quota-hint.controller';

/**
 * The operators' side of the example (docs/EXTENDING.md, "Adding a permission"): an admin route
 * declares the permission it needs with `@AdminAuth`, here an existing one (`usage.read`, viewer),
 * and is mounted under the admin path by QuotaHintModule.
 */
@ApiTags('example')
@Controller('quota-hint')
export class QuotaHintAdminController {
  constructor(private readonly showKey: ShowApiKey) {}

  @Get(':key_id')
  @AdminAuth('usage.read')
  @ApiOperation({ summary: "A key's quota this period, for operators (an example of docs/EXTENDING.md)" })
  @ApiOkResponse({ type: QuotaHintResponse, description: 'Used and remaining this period' })
  @ApiErrors('KEY_NOT_FOUND', ...ALWAYS)
  async show(@Param('key_id') keyId: string): Promise<QuotaHintResponse> {
    const { quota } = await this.showKey.execute(keyId);
    return { used: quota.used, remaining: quota.remaining };
  }
}
