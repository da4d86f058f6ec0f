import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Req } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CreateModel, DeleteModel, ListAllModels, ReplaceModel, ShowModel, UploadModelFile } from '@svc/application';
import { AppConfig } from '@svc/config';
import { Model } from '@svc/domain';
import {
  AdminModelResponse,
  ModelRecordRequest,
  adminModelViewOf,
  modelDescriptionInputOf,
  modelFileClaimsOf,
  AdminModelListResponse,
} from '@svc/presentation';
import type { FastifyRequest } from 'fastify';
import { AdminAuth } from '../../../admin-auth/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin } from '../../../admin-auth/admin-principal';
import { HttpEdgeError } from '../../../http/http-error';
import { StreamedUpload, isUploadStream } from '../../../http/streamed-upload';
import { ALWAYS, ApiErrors, BODY, PATH } from '../../../openapi/api-errors.decorator';
import { modelFileBaseFor } from '../../../http/model-file-base';
import { SkipThrottle } from '@nestjs/throttler';

/**
 * The operators' model calls of CONTRACT 12, behind the admin bearer token.
 * Records are ModelRecordRequest bodies, the CLI's rules (CONTRACT 7): an
 * external `download_url` needs the file's `checksum` and `size_bytes`; for a
 * file the service holds they are computed from its bytes, and a body's
 * values must equal them (so GET, edit, PUT round-trips). Every change is
 * audited with its actor (and the channel `api`).
 */
@ApiTags('admin')
@SkipThrottle()
@Controller('models')
export class AdminModelsController {
  constructor(
    private readonly createModel: CreateModel,
    private readonly uploadFile: UploadModelFile,
    private readonly replaceModel: ReplaceModel,
    private readonly deleteModel: DeleteModel,
    private readonly listAll: ListAllModels,
    private readonly showModel: ShowModel,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @AdminAuth('models.read')
  @ApiOperation({ summary: 'Every model record', description: 'Published or not, custom models included.' })
  @ApiOkResponse({ type: AdminModelListResponse, description: 'Every record' })
  @ApiErrors(...ALWAYS)
  async list(@Req() request: FastifyRequest): Promise<{ models: AdminModelResponse[]; total: number }> {
    const models = await this.listAll.execute();
    return { models: models.map((model) => this.view(model, request)), total: models.length };
  }

  @Post()
  @AdminAuth('models.write')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Register a model',
    description:
      'With an external download_url, checksum (sha256:<64 hex>) and size_bytes are required (400 naming the field). Otherwise they are computed from the uploaded file.',
  })
  @ApiBody({ type: ModelRecordRequest })
  @ApiCreatedResponse({ type: AdminModelResponse, description: 'The new record' })
  @ApiErrors(...BODY, 'USER_NOT_FOUND', 'MODEL_EXISTS', ...ALWAYS)
  async create(
    @CurrentAdmin() admin: AdminPrincipal,
    @Body() body: ModelRecordRequest,
    @Req() request: FastifyRequest,
  ): Promise<AdminModelResponse> {
    return this.view(
      await this.createModel.execute({ description: modelDescriptionInputOf(body), claims: modelFileClaimsOf(body), actor: admin.actor }),
      request,
    );
  }

  @Get(':name')
  @AdminAuth('models.read')
  @ApiOperation({ summary: 'One model record' })
  @ApiOkResponse({ type: AdminModelResponse, description: 'The record' })
  @ApiErrors(...PATH, 'MODEL_NOT_FOUND', ...ALWAYS)
  async show(@Param('name') name: string, @Req() request: FastifyRequest): Promise<AdminModelResponse> {
    return this.view(await this.showModel.execute({ name }), request);
  }

  @Put(':name')
  @AdminAuth('models.write')
  @ApiOperation({
    summary: 'Replace a model record',
    description:
      "An uploaded file stays unless replaced; checksum, size_bytes and size_mb, if given, must equal the stored file's, and a download_url naming the stored file keeps it (GET, edit, PUT round-trips). An external download_url needs checksum and size_bytes.",
  })
  @ApiBody({ type: ModelRecordRequest })
  @ApiOkResponse({ type: AdminModelResponse, description: 'The record' })
  @ApiErrors(...BODY, 'USER_NOT_FOUND', 'MODEL_NOT_FOUND', ...ALWAYS)
  async replace(
    @CurrentAdmin() admin: AdminPrincipal,
    @Param('name') name: string,
    @Body() body: ModelRecordRequest,
    @Req() request: FastifyRequest,
  ): Promise<AdminModelResponse> {
    return this.view(
      await this.replaceModel.execute({
        name,
        description: modelDescriptionInputOf(body),
        claims: modelFileClaimsOf(body),
        actor: admin.actor,
      }),
      request,
    );
  }

  /** The file's bytes as `application/octet-stream`, streamed to the model store (up to 1 GiB). */
  @Put(':name/file')
  @AdminAuth('models.write')
  @StreamedUpload()
  @ApiOperation({
    summary: "Upload a model's file",
    description: 'Streamed into the model store (up to 1 GiB); checksum and size are computed from the bytes, download_url is set.',
  })
  @ApiConsumes('application/octet-stream')
  @ApiBody({ schema: { type: 'string', format: 'binary' } })
  @ApiOkResponse({ type: AdminModelResponse, description: 'The record' })
  @ApiErrors('INVALID_REQUEST', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'MODEL_NOT_FOUND', ...ALWAYS)
  async upload(
    @CurrentAdmin() admin: AdminPrincipal,
    @Param('name') name: string,
    @Body() body: unknown,
    @Req() request: FastifyRequest,
  ): Promise<AdminModelResponse> {
    if (!isUploadStream(body)) {
      throw new HttpEdgeError(
        'UNSUPPORTED_MEDIA_TYPE',
        'Unsupported media type',
        "Send the model file's bytes as application/octet-stream",
      );
    }
    return this.view(await this.uploadFile.execute({ name, file: body, actor: admin.actor }), request);
  }

  @Delete(':name')
  @AdminAuth('models.write')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a model record' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(...PATH, 'MODEL_NOT_FOUND', ...ALWAYS)
  async remove(@CurrentAdmin() admin: AdminPrincipal, @Param('name') name: string): Promise<void> {
    await this.deleteModel.execute({ name, actor: admin.actor });
  }

  private view(model: Model, request: FastifyRequest): AdminModelResponse {
    return adminModelViewOf(model, modelFileBaseFor(this.config, request));
  }
}
