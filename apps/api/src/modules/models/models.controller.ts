import { Controller, Get, Header, Param, Query, Redirect, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { DownloadModel, GetModel, ListModels } from '@svc/application';
import { ApiKey, MODEL_TYPES, ModelNotFoundError } from '@svc/domain';
import { ModelRecordResponse, downloadUrlOf, modelRecordViewOf, ModelListResponse } from '@svc/presentation';
import type { FastifyRequest } from 'fastify';
import { ApiKeyAuth } from '../../api-key-auth/api-key-auth.decorator';
import { CurrentKey } from '../../api-key-auth/authenticated-key';
import { RATE_LIMIT_HEADERS } from '../../openapi/rate-limit-headers';
import { ModelFileLinks } from './model-file-links';

/**
 * SPEC 4.6 and CONTRACT 7: the registry as a key sees it. The key is read
 * from X-API-Key, then the `api_key` query parameter; key errors win over
 * every other answer because the guard runs first.
 */
@ApiTags('models')
@Controller('v1/models')
export class ModelsController {
  constructor(
    private readonly listModels: ListModels,
    private readonly getModel: GetModel,
    private readonly downloadModel: DownloadModel,
    private readonly links: ModelFileLinks,
  ) {}

  @Get('list')
  @ApiKeyAuth({ from: ['header', 'query'], limit: 'models', errors: ['INVALID_PARAMETER', 'INVALID_REQUEST'] })
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: "List the models the key's tier may load",
    description: 'Sorted by paradigm, then name. The three model calls share 60 requests per minute.',
  })
  @ApiQuery({ name: 'paradigm', required: false, type: String, description: 'Exact match; an open list (motor_imagery, p300, ssvep, ...)' })
  @ApiQuery({ name: 'type', required: false, enum: [...MODEL_TYPES], description: 'Any other value: 400 INVALID_PARAMETER' })
  @ApiOkResponse({ type: ModelListResponse, headers: RATE_LIMIT_HEADERS, description: 'The models the key may load' })
  async list(
    @CurrentKey() key: ApiKey,
    @Query('paradigm') paradigm: unknown,
    @Query('type') type: unknown,
    @Req() request: FastifyRequest,
  ): Promise<ModelListResponse> {
    const models = await this.listModels.execute({ key, paradigm, type });
    const files = await this.links.addressingFor(request, models);
    return { models: models.map((model) => modelRecordViewOf(model, files)), total: models.length };
  }

  @Get(':name')
  @ApiKeyAuth({ from: ['header', 'query'], limit: 'models', errors: ['INVALID_REQUEST', 'INSUFFICIENT_LICENSE', 'MODEL_NOT_FOUND'] })
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'One model record', description: "403 when the model needs a higher tier than the key's." })
  @ApiParam({ name: 'name', type: String, example: 'motor_imagery_4class_v1' })
  @ApiOkResponse({ type: ModelRecordResponse, headers: RATE_LIMIT_HEADERS, description: 'The model record' })
  async show(@CurrentKey() key: ApiKey, @Param('name') name: string, @Req() request: FastifyRequest): Promise<ModelRecordResponse> {
    const model = await this.getModel.execute({ key, name });
    return modelRecordViewOf(model, await this.links.addressingFor(request, [model]));
  }

  @Get(':name/download')
  @ApiKeyAuth({ from: ['header', 'query'], limit: 'models', errors: ['INVALID_REQUEST', 'INSUFFICIENT_LICENSE', 'MODEL_NOT_FOUND'] })
  @Header('Cache-Control', 'no-store')
  @Redirect(undefined, 302)
  @ApiOperation({
    summary: "Download a model's file",
    description:
      'The same rules as the record, then a redirect to its download_url (a fresh link of the model store); 503 with Retry-After while the model store does not answer.',
  })
  @ApiParam({ name: 'name', type: String, example: 'motor_imagery_4class_v1' })
  @ApiResponse({
    status: 302,
    description: "Redirect to the record's download_url; verify the file's SHA-256 against checksum",
    headers: { Location: { description: 'The download_url', schema: { type: 'string', format: 'uri' } }, ...RATE_LIMIT_HEADERS },
  })
  async download(@CurrentKey() key: ApiKey, @Param('name') name: string, @Req() request: FastifyRequest): Promise<{ url: string }> {
    const model = await this.downloadModel.execute({ key, name });
    const url = downloadUrlOf(model, await this.links.addressingFor(request, [model]));
    if (url === null) throw new ModelNotFoundError();
    return { url };
  }
}
