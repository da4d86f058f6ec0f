import { InvalidRequestError, type Operator, isPlainText, isPlausibleEmail, isRole, plainTextRule } from '@svc/domain';

/** An operator with its token: the plaintext is returned here once and never stored or shown again. */
export interface OperatorWithToken {
  readonly operator: Operator;
  readonly token: string;
}

const MAX_NAME = 200;

/** The fields an operator is created or changed with, as given: a name, an e-mail, a role (CONTRACT 21). */
export function checkOperatorFields(fields: { name?: string; email?: string | null; role?: unknown }): void {
  if (fields.name !== undefined && (typeof fields.name !== 'string' || fields.name.trim() === '' || fields.name.length > MAX_NAME)) {
    throw new InvalidRequestError(`name must be a non-empty string of at most ${MAX_NAME} characters`);
  }
  if (fields.name !== undefined && !isPlainText(fields.name)) throw new InvalidRequestError(plainTextRule('name'));
  if (fields.email !== undefined && fields.email !== null && !isPlausibleEmail(fields.email)) {
    throw new InvalidRequestError('email must be an e-mail address');
  }
  if (fields.role !== undefined && !isRole(fields.role)) throw new InvalidRequestError('role must be one of viewer, support, admin, owner');
}
