import { Injectable } from '@nestjs/common';
import { AuthenticateOperator } from '@svc/application';
import { AppConfig } from '@svc/config';
import { Clock } from '@svc/domain';

/** How long an answer of "is any operator enabled?" is kept: a CLI-made operator brings the API up within it. */
export const PRESENCE_TTL_MS = 60_000;

/**
 * Whether the admin API exists (CONTRACT 21): always with ADMIN_TOKEN;
 * otherwise while at least one operator is enabled, read from the database
 * at most once a minute (every instance follows a CLI-made operator within
 * that), before any credential is looked at, so an absent API answers 404
 * whatever is sent (fastify-hooks.ts asks it before the body is read; AdminGuard
 * asks too, for an `@AdminAuth` route mounted elsewhere).
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
