import { Injectable } from '@nestjs/common';
import { AuthenticateOperator } from '@svc/application';
import { AppConfig } from '@svc/config';
import { Clock } from '@svc/domain';
import type { FastifyInstance } from 'fastify';
import { NO_SUCH_ENDPOINT, REASON_PHRASE } from '../http/error-envelope';
import { HttpEdgeError } from '../http/http-error';

/** How long an answer of "is any operator enabled?" is kept: a CLI-made operator brings the API up within it. */
export const PRESENCE_TTL_MS = 60_000;

/**
 * Whether the admin API exists (CONTRACT 21): always with ADMIN_TOKEN;
 * otherwise while at least one operator is enabled, read from the database
 * at most once a minute (every instance follows a CLI-made operator within
 * that), before any credential is looked at, so an absent API answers 404
 * whatever is sent.
 */
@Injectable()
export class AdminApiPresence {
  private readonly always: boolean;
  private known: { readonly enabled: boolean; readonly at: number } | null = null;

  constructor(
    config: AppConfig,
    private readonly operators: AuthenticateOperator,
    private readonly clock: Clock,
  ) {
    this.always = config.adminToken !== null;
  }

  async exists(): Promise<boolean> {
    if (this.always) return true;
    const now = this.clock.now().getTime();
    if (this.known === null || now - this.known.at >= PRESENCE_TTL_MS) {
      this.known = { enabled: await this.operators.anyEnabled(), at: now };
    }
    return this.known.enabled;
  }
}

/**
 * The admin API's routes (under `prefix`) answer 404 NOT_FOUND, as an unknown
 * path does, while the admin API does not exist: checked on the request,
 * before its body is read, so a malformed, oversized or non-JSON body gets the
 * same 404 as every other call in that state (AdminGuard checks presence too,
 * for an `@AdminAuth` route mounted elsewhere). Call after the Nest
 * application is created and before its routes are registered (`app.init()`).
 */
export function hideAbsentAdminApi(instance: FastifyInstance, prefix: string, presence: AdminApiPresence): void {
  const hide = async (): Promise<void> => {
    if (!(await presence.exists())) throw new HttpEdgeError('NOT_FOUND', REASON_PHRASE[404], NO_SUCH_ENDPOINT);
  };
  instance.addHook('onRoute', (route) => {
    if (!route.url.startsWith(prefix)) return;
    const existing = route.onRequest;
    route.onRequest = existing === undefined ? [hide] : ([...([] as unknown[]).concat(existing), hide] as never);
  });
}
