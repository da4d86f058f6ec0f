import { Controller, Get, Head, Header, HttpCode, Post } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiBody, ApiExcludeController, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IssueRepoToken, IssueRepoTokenOutput } from '@svc/application';
import { ApiKey } from '@svc/domain';
import { ApiKeyAuth } from '../../api-key-auth/api-key-auth.decorator';
import { CurrentKey } from '../../api-key-auth/authenticated-key';
import { HttpEdgeError } from '../../http/http-error';
import { ServiceMetrics } from '../../observability/service-metrics';
import { RATE_LIMIT_HEADERS } from '../../openapi/rate-limit-headers';
import { KeyRequest } from '../../shared/dto/key.request';
import { GithubTokenResponse, githubTokenResponseOf } from './dto/github-token.response';

/**
 * Refuses HEAD on the token path. Registered before InstallerController so
 * Fastify does not derive a HEAD route from its GET: a HEAD would otherwise
 * run the GET handler and mint a token for nothing. No guard: 405 is decided
 * before any key check (CONTRACT 2, step 1).
 */
@ApiExcludeController()
@Controller('v1/installer')
export class InstallerHeadController {
  @Head('github-token')
  @RouteConfig({ methodNotAllowed: true })
  head(): never {
    throw new HttpEdgeError('METHOD_NOT_ALLOWED', 'Method not allowed', 'Allowed methods: GET, POST', { allow: 'GET, POST' });
  }
}

const DESCRIPTION =
  'A short-lived read-only token for the repository of the proprietary core package (GitHub App installation token, ' +
  'or a static token). Any active, unexpired key may have one, whatever its quota. 20 per minute.';
const ERRORS = ['UPSTREAM_ERROR', 'NOT_CONFIGURED'] as const;

/**
 * SPEC 4.4: a read-only token for the core package's repository. Any active,
 * unexpired key may have one, whatever its quota; key errors win over
 * NOT_CONFIGURED because the guard runs first (CONTRACT 2 and 6).
 */
@ApiTags('installer')
@Controller('v1/installer')
export class InstallerController {
  constructor(
    private readonly issueToken: IssueRepoToken,
    private readonly metrics: ServiceMetrics,
  ) {}

  @Get('github-token')
  @ApiKeyAuth({ from: ['header', 'query'], limit: 'installer', errors: ERRORS })
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'Get the installer token (key in X-API-Key or ?api_key=)', description: DESCRIPTION })
  @ApiOkResponse({ type: GithubTokenResponse, headers: RATE_LIMIT_HEADERS, description: 'A token (Cache-Control: no-store)' })
  async viaGet(@CurrentKey() key: ApiKey): Promise<GithubTokenResponse> {
    return githubTokenResponseOf(this.counted(await this.issueToken.execute({ keyId: key.id })));
  }

  @Post('github-token')
  @HttpCode(200)
  @ApiKeyAuth({ from: ['header', 'body'], limit: 'installer', errors: ERRORS })
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'Get the installer token (key in X-API-Key or the body)',
    description: `${DESCRIPTION} With the key in X-API-Key the body may be empty and needs no Content-Type.`,
  })
  @ApiBody({ type: KeyRequest, required: false })
  @ApiOkResponse({ type: GithubTokenResponse, headers: RATE_LIMIT_HEADERS, description: 'A token (Cache-Control: no-store)' })
  async viaPost(@CurrentKey() key: ApiKey): Promise<GithubTokenResponse> {
    return githubTokenResponseOf(this.counted(await this.issueToken.execute({ keyId: key.id })));
  }

  private counted(issued: IssueRepoTokenOutput): IssueRepoTokenOutput {
    this.metrics.installerTokenIssued(issued.provider);
    return issued;
  }
}
