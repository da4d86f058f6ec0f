/** SPEC 4.3 with CONTRACT 5's message. */
export interface RevokeKeyResponse {
  readonly revoked: true;
  readonly message: string;
}

export const KEY_REVOKED_RESPONSE: RevokeKeyResponse = Object.freeze({
  revoked: true,
  message: 'API key successfully revoked',
});
