/**
 * Who made an audited change (CONTRACT 21): an operator, `ADMIN_TOKEN`
 * (bootstrap), the key itself (the SDK's own revoke and rotate, and its
 * installer tokens), the CLI with the OS user running it, or the service
 * itself (sweeps, expiry). Never a token or a digest.
 */
export type Actor =
  | { readonly type: 'operator'; readonly operatorId: string; readonly name: string }
  | { readonly type: 'bootstrap' }
  | { readonly type: 'key'; readonly keyId: string }
  | { readonly type: 'cli'; readonly user: string }
  | { readonly type: 'system' };

export type ActorType = Actor['type'];

export const SYSTEM_ACTOR: Actor = { type: 'system' };
export const BOOTSTRAP_ACTOR: Actor = { type: 'bootstrap' };

/** The actor of a key's own calls. */
export function keyActor(keyId: string): Actor {
  return { type: 'key', keyId };
}
