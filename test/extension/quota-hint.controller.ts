import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { KeyContext } from '@svc/domain';
import { ApiKeyAuth } from '../../apps/api/src/api-key-auth/api-key-auth.decorator';
import { CurrentKeyContext } from '../../apps/api/src/api-key-auth/authenticated-key';
import { RATE_LIMIT_HEADERS } from '../../apps/api/src/openapi/rate-limit-headers';
import { ReadQuotaHint } from './quota-hint.use-case';

export class QuotaHintResponse {
  @ApiProperty({ type: 'integer', example: 12 })
  readonly used!: number;

  @ApiProperty({ type: 'integer', nullable: true, example: 49988 })
  readonly remaining!: number | null;
}

/** The example endpoint of docs/EXTENDING.md, step 3: a key, a limit of its own, its errors, its OpenAPI entry. */
@ApiTags('example')
@Controller('v1/quota-hint')
export class QuotaHintController {
  constructor(private readonly readHint: ReadQuotaHint) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  @ApiKeyAuth({ from: ['header', 'query'], limit: { name: 'quota-hint', limit: 3 }, withContext: true })
  @ApiOperation({ summary: "The key's quota this period (an example of docs/EXTENDING.md)" })
  @ApiOkResponse({ type: QuotaHintResponse, headers: RATE_LIMIT_HEADERS, description: 'Used and remaining this period' })
  show(@CurrentKeyContext() caller: KeyContext): QuotaHintResponse {
    return this.readHint.execute(caller);
  }
}
