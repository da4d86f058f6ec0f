import { Injectable } from '@nestjs/common';
import {
  AdminUnauthorizedError,
  Clock,
  type Operator,
  OperatorRepository,
  SecretHasher,
  isLastUseStale,
  isOperatorTokenShaped,
} from '@svc/domain';

/**
 * An operator's bearer token (CONTRACT 21): its form checked first, then one
 * indexed read by digest on every request, so a disabled operator or a
 * replaced token is refused on its next request on every instance (no cache).
 * `last_used_at` is written at most once a minute per operator.
 */
@Injectable()
export class AuthenticateOperator {
  constructor(
    private readonly operators: OperatorRepository,
    private readonly hasher: SecretHasher,
    private readonly clock: Clock,
  ) {}

  async execute(token: string): Promise<Operator> {
    if (!isOperatorTokenShaped(token)) throw new AdminUnauthorizedError();
    const operator = await this.operators.findByTokenDigest(this.hasher.digest(token));
    if (!operator || operator.disabledAt !== null) throw new AdminUnauthorizedError();
    const now = this.clock.now();
    if (isLastUseStale(operator, now)) await this.operators.touch(operator.id, now);
    return operator;
  }

  /** Whether any operator is enabled: without ADMIN_TOKEN, the admin API exists only then. */
  anyEnabled(): Promise<boolean> {
    return this.operators.anyEnabled();
  }
}
