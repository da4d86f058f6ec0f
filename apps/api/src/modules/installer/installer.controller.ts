import { Controller, Get, Head, Header, HttpCode, Post, UseGuards } from '@nestjs/common';
import { IssueRepoToken } from '@svc/application';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiKey } from '@svc/domain';
import { ApiKeyGuard, CurrentKey, KeySources } from '../../http/api-key.guard';
import { HttpEdgeError } from '../../http/http-error';
import { RateLimited } from '../../http/rate-limit.guard';
import { GithubTokenResponse, githubTokenResponseOf } from './dto/github-token.response';

/**
 * Refuses HEAD on the token path. Registered before InstallerController so
 * Fastify does not derive a HEAD route from its GET: a HEAD would otherwise
 * run the GET handler and mint a token for nothing. No guard: 405 is decided
 * before any key check (CONTRACT 2, step 1).
 */
@Controller('v1/installer')
export class InstallerHeadController {
  @Head('github-token')
  @RouteConfig({ methodNotAllowed: true })
  head(): never {
    throw new HttpEdgeError('METHOD_NOT_ALLOWED', 'Method not allowed', 'Allowed methods: GET, POST', { allow: 'GET, POST' });
  }
}

/**
 * SPEC 4.4: a read-only token for the core package's repository. Any active,
 * unexpired key may have one, whatever its quota; key errors win over
 * NOT_CONFIGURED because the guard runs first (CONTRACT 2 and 6).
 */
@Controller('v1/installer')
@RateLimited('installer')
@UseGuards(ApiKeyGuard)
export class InstallerController {
  constructor(private readonly issueToken: IssueRepoToken) {}

  @Get('github-token')
  @KeySources('header', 'query')
  @Header('Cache-Control', 'no-store')
  async viaGet(@CurrentKey() key: ApiKey): Promise<GithubTokenResponse> {
    return githubTokenResponseOf(await this.issueToken.execute({ keyId: key.id }));
  }

  @Post('github-token')
  @HttpCode(200)
  @KeySources('header', 'body')
  @Header('Cache-Control', 'no-store')
  async viaPost(@CurrentKey() key: ApiKey): Promise<GithubTokenResponse> {
    return githubTokenResponseOf(await this.issueToken.execute({ keyId: key.id }));
  }
}
