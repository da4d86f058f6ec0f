import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { SkipThrottle } from '@nestjs/throttler';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { LINK_EXPIRES_PARAM, LINK_SIGNATURE_PARAM, MODEL_FILES_PATH, ModelStore, RangeNotSatisfiableError } from '@svc/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpEdgeError } from '../../http/http-error';
import { byteRangeRequestOf } from '../../http/range-header';
import { UncheckedParam } from '../../http/unchecked-param.decorator';
import { ALWAYS, ApiErrors } from '../../openapi/api-errors.decorator';
import { ModelFileLinks } from './model-file-links';

const BINARY = { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } as const;

/**
 * The service as its own model host (CONTRACT 7), mounted only when
 * MODEL_HOST is unset: `download_url`s of stored files point here, signed and
 * expiring like an object store's presigned URLs. It takes no key: the link's
 * signature is the permission (checked before the store is asked, so an
 * unsigned request learns nothing of which files exist). Files stream from
 * the disk, whole or one `Range`, never held in memory.
 */
@ApiTags('operations')
@SkipThrottle()
@Controller(MODEL_FILES_PATH.slice(1))
export class ModelFilesController {
  constructor(
    private readonly store: ModelStore,
    private readonly links: ModelFileLinks,
  ) {}

  @Get(':file')
  @ApiOperation({
    summary: 'A stored model file (the built-in model host)',
    description:
      'Served only when MODEL_HOST is unset; download_url of stored files points here, signed and valid MODEL_URL_TTL_SECONDS (default 3600). ' +
      'No key: the signature is the permission. One byte range (`Range: bytes=a-b`, `a-`, `-n`) answers 206; several ranges answer the whole file.',
  })
  @ApiParam({ name: 'file', type: String, description: 'The stored file name from a download_url' })
  @ApiQuery({
    name: LINK_EXPIRES_PARAM,
    required: true,
    type: String,
    description: 'Unix seconds after which the link answers LINK_EXPIRED',
  })
  @ApiQuery({ name: LINK_SIGNATURE_PARAM, required: true, type: String, description: 'HMAC-SHA256 of the path and expiry, base64url' })
  @ApiHeader({ name: 'Range', required: false, description: 'One byte range, e.g. bytes=0-1048575 (resuming a download)' })
  @ApiProduces('application/octet-stream')
  @ApiOkResponse({ description: "The file's bytes (`Accept-Ranges: bytes`)", content: BINARY })
  @ApiResponse({ status: 206, description: 'The requested range, with `Content-Range: bytes a-b/size`', content: BINARY })
  @ApiErrors('LINK_EXPIRED', 'LINK_INVALID', 'NOT_FOUND', 'RANGE_NOT_SATISFIABLE', ...ALWAYS)
  async file(
    @UncheckedParam('file') file: string,
    @Query() query: Record<string, unknown>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    this.links.check(file, query);
    let opened;
    try {
      opened = await this.store.open(file, byteRangeRequestOf(request.headers.range));
    } catch (error) {
      if (!(error instanceof RangeNotSatisfiableError)) throw error;
      throw new HttpEdgeError('RANGE_NOT_SATISFIABLE', error.description, error.hint, { 'content-range': `bytes */${error.sizeBytes}` });
    }
    if (!opened) throw new HttpEdgeError('NOT_FOUND', 'Not found', 'No such model file');
    const { range, sizeBytes, stream } = opened;
    void reply
      .status(range === null ? 200 : 206)
      .headers({
        'content-type': 'application/octet-stream',
        'accept-ranges': 'bytes',
        // a link is a permission for a while, not a public name: kept by the client, never by a shared cache
        'cache-control': 'private, no-transform',
        'content-length': String(range === null ? sizeBytes : range.end - range.start + 1),
        ...(range === null ? {} : { 'content-range': `bytes ${range.start}-${range.end}/${sizeBytes}` }),
      })
      .send(stream);
  }
}
