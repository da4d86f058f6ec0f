import { Controller, Get, Header, Param, Query, Redirect, Req, UseGuards } from '@nestjs/common';
import { GetModel, ListModels, ModelRecordView, modelRecordViewOf } from '@svc/application';
import { AppConfig } from '@svc/config';
import { ApiKey, ModelNotFoundError, downloadUrlOf } from '@svc/domain';
import type { FastifyRequest } from 'fastify';
import { ApiKeyGuard, CurrentKey, KeySources } from '../../http/api-key.guard';
import { RateLimited } from '../../http/rate-limit.guard';
import { ModelListResponse } from './dto/model-list.response';
import { modelFileBaseFor } from './model-file-base';

/**
 * SPEC 4.6 and CONTRACT 7: the registry as a key sees it. The key is read
 * from X-API-Key, then the `api_key` query parameter; key errors win over
 * every other answer because the guard runs first.
 */
@Controller('v1/models')
@UseGuards(ApiKeyGuard)
@KeySources('header', 'query')
@RateLimited('models')
export class ModelsController {
  constructor(
    private readonly listModels: ListModels,
    private readonly getModel: GetModel,
    private readonly config: AppConfig,
  ) {}

  @Get('list')
  @Header('Cache-Control', 'no-store')
  async list(
    @CurrentKey() key: ApiKey,
    @Query('paradigm') paradigm: unknown,
    @Query('type') type: unknown,
    @Req() request: FastifyRequest,
  ): Promise<ModelListResponse> {
    const models = await this.listModels.execute({ key, paradigm, type });
    const fileBase = modelFileBaseFor(this.config, request);
    return { models: models.map((model) => modelRecordViewOf(model, fileBase)), total: models.length };
  }

  @Get(':name')
  @Header('Cache-Control', 'no-store')
  async show(@CurrentKey() key: ApiKey, @Param('name') name: string, @Req() request: FastifyRequest): Promise<ModelRecordView> {
    return modelRecordViewOf(await this.getModel.execute({ key, name }), modelFileBaseFor(this.config, request));
  }

  @Get(':name/download')
  @Header('Cache-Control', 'no-store')
  @Redirect(undefined, 302)
  async download(@CurrentKey() key: ApiKey, @Param('name') name: string, @Req() request: FastifyRequest): Promise<{ url: string }> {
    const url = downloadUrlOf(await this.getModel.execute({ key, name }), modelFileBaseFor(this.config, request));
    if (url === null) throw new ModelNotFoundError();
    return { url };
  }
}
