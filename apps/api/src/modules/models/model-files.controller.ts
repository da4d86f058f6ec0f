import { Controller, Get, Header, Param, StreamableFile } from '@nestjs/common';
import { SkipThrottle } from '@nestjs/throttler';
import { ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import { ModelStore } from '@svc/domain';
import { MODEL_FILES_PATH } from '@svc/presentation';
import { HttpEdgeError } from '../../http/http-error';
import { ALWAYS, ApiErrors } from '../../openapi/api-errors.decorator';

/**
 * The service as its own model host (CONTRACT 7), mounted only when
 * MODEL_HOST is unset: `download_url`s of stored files point here. Like a
 * CDN, it takes no key; stored names carry 96 random bits and are only
 * shown to keys entitled to the model. A stored name never changes content
 * (a new upload gets a new name), so answers may be cached for good.
 */
@ApiTags('operations')
@SkipThrottle()
@Controller(MODEL_FILES_PATH.slice(1))
export class ModelFilesController {
  constructor(private readonly store: ModelStore) {}

  @Get(':file')
  @Header('Content-Type', 'application/octet-stream')
  @Header('Cache-Control', 'public, max-age=31536000, immutable')
  @ApiOperation({
    summary: 'A stored model file (the built-in model host)',
    description: 'Served only when MODEL_HOST is unset; download_url of stored files points here. No key: names are unguessable.',
  })
  @ApiParam({ name: 'file', type: String, description: 'The stored file name from a download_url' })
  @ApiProduces('application/octet-stream')
  @ApiOkResponse({ description: "The file's bytes", content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } })
  @ApiErrors('NOT_FOUND', ...ALWAYS)
  async file(@Param('file') file: string): Promise<StreamableFile> {
    const opened = await this.store.open(file);
    if (!opened) throw new HttpEdgeError('NOT_FOUND', 'Not found', 'No such model file');
    return new StreamableFile(opened.stream, { type: 'application/octet-stream', length: opened.sizeBytes });
  }
}
