import { type RandomSource } from '../shared/id-generator';

/** An operator's admin token: `svc_admin_` and 48 lowercase hex characters (192 random bits), shown once. */
export const OPERATOR_TOKEN_PREFIX = 'svc_admin_';
const OPERATOR_TOKEN = /^svc_admin_[0-9a-fA-F]{48}$/;

export function generateOperatorToken(random: RandomSource): string {
  const hex = random.hex(24).toLowerCase();
  if (!/^[0-9a-f]{48}$/.test(hex)) throw new Error('random source must give 24 bytes of hex');
  return `${OPERATOR_TOKEN_PREFIX}${hex}`;
}

/** Whether a presented bearer token has an operator token's form (checked before any lookup). */
export function isOperatorTokenShaped(token: string): boolean {
  return OPERATOR_TOKEN.test(token);
}
