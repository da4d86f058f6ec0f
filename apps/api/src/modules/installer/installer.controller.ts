import { Controller, Get, Head, Header, HttpCode, Post, UseGuards } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiBody, ApiExcludeController, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IssueRepoToken, IssueRepoTokenOutput } from '@svc/application';
import { ApiKey } from '@svc/domain';
import { ApiKeyGuard, CurrentKey } from '../../http/api-key.guard';
import { HttpEdgeError } from '../../http/http-error';
import { RateLimited } from '../../http/rate-limit.guard';
import { ServiceMetrics } from '../../observability/service-metrics';
import { AcceptsKeyFrom } from '../../openapi/accepts-key.decorator';
import { ALWAYS, ApiErrors, BODY, KEY_CHECKS } from '../../openapi/api-errors.decorator';
import { RATE_LIMIT_HEADERS } from '../../openapi/rate-limit-headers';
import { KeyRequest } from '../auth/dto/key.request';
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
const ERRORS = [...KEY_CHECKS, 'RATE_LIMIT_EXCEEDED', 'UPSTREAM_ERROR', 'NOT_CONFIGURED', ...ALWAYS] as const;

/**
 * SPEC 4.4: a read-only token for the core package's repository. Any active,
 * unexpired key may have one, whatever its quota; key errors win over
 * NOT_CONFIGURED because the guard runs first (CONTRACT 2 and 6).
 */
@ApiTags('installer')
@Controller('v1/installer')
@RateLimited('installer')
@UseGuards(ApiKeyGuard)
export class InstallerController {
  constructor(
    private readonly issueToken: IssueRepoToken,
    private readonly metrics: ServiceMetrics,
  ) {}

  @Get('github-token')
  @AcceptsKeyFrom('header', 'query')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'Get the installer token (key in X-API-Key or ?api_key=)', description: DESCRIPTION })
  @ApiOkResponse({ type: GithubTokenResponse, headers: RATE_LIMIT_HEADERS, description: 'A token (Cache-Control: no-store)' })
  @ApiErrors(...ERRORS)
  async viaGet(@CurrentKey() key: ApiKey): Promise<GithubTokenResponse> {
    return githubTokenResponseOf(this.counted(await this.issueToken.execute({ keyId: key.id })));
  }

  @Post('github-token')
  @HttpCode(200)
  @AcceptsKeyFrom('header', 'body')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'Get the installer token (key in X-API-Key or the body)',
    description: `${DESCRIPTION} With the key in X-API-Key the body may be empty and needs no Content-Type.`,
  })
  @ApiBody({ type: KeyRequest, required: false })
  @ApiOkResponse({ type: GithubTokenResponse, headers: RATE_LIMIT_HEADERS, description: 'A token (Cache-Control: no-store)' })
  @ApiErrors(...BODY, ...ERRORS)
  async viaPost(@CurrentKey() key: ApiKey): Promise<GithubTokenResponse> {
    return githubTokenResponseOf(this.counted(await this.issueToken.execute({ keyId: key.id })));
  }

  private counted(issued: IssueRepoTokenOutput): IssueRepoTokenOutput {
    this.metrics.installerTokenIssued(issued.provider);
    return issued;
  }
}
