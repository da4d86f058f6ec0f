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

/**
 * An actor as the audit trail names it to the outside, in `GET /admin/v1/audit`
 * and in the audit log lines alike (CONTRACT 21): `type` and that type's fields,
 * in snake_case; never a token or a digest.
 */
export type ActorFields =
  | { readonly type: 'operator'; readonly operator_id: string; readonly name: string }
  | { readonly type: 'key'; readonly key_id: string }
  | { readonly type: 'cli'; readonly user: string }
  | { readonly type: 'bootstrap' | 'system' };

export function actorFieldsOf(actor: Actor): ActorFields {
  switch (actor.type) {
    case 'operator':
      return { type: 'operator', operator_id: actor.operatorId, name: actor.name };
    case 'key':
      return { type: 'key', key_id: actor.keyId };
    case 'cli':
      return { type: 'cli', user: actor.user };
    default:
      return { type: actor.type };
  }
}

export const SYSTEM_ACTOR: Actor = { type: 'system' };
export const BOOTSTRAP_ACTOR: Actor = { type: 'bootstrap' };

/** The actor of a key's own calls. */
export function keyActor(keyId: string): Actor {
  return { type: 'key', keyId };
}
