import { isPlainText } from '../shared/plain-text';
import { DomainError } from '../shared/domain-error';

/** The person or organisation a key was issued to. */
export interface User {
  readonly id: string;
  readonly email: string;
  readonly name: string | null;
  readonly organization: string | null;
  readonly createdAt: Date;
}

export class UserNotFoundError extends DomainError {
  readonly code = 'USER_NOT_FOUND' as const;
  constructor() {
    super('User not found');
  }
}

/** A plausible e-mail address: one `@`, no spaces, a dot in the domain, at most 254 characters. */
export function isPlausibleEmail(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) && isPlainText(value);
}

/**
 * The form an e-mail address is searched by (CONTRACT 17): lower case, so `Ada@Example.org` finds
 * `ada@example.org`. Stored next to the address (users.email_lower) and applied to what is searched for.
 */
export function emailSearchForm(email: string): string {
  return email.toLowerCase();
}
