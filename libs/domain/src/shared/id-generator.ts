/** Identifiers for stored things: `key_…`, `usr_…`, `evt_…`, `aud_…`, `opr_…`, and webhooks' `whe_…` (endpoint), `wev_…` (event), `msg_…` (delivery), and devices' `dev_…`. */
export abstract class IdGenerator {
  abstract newId(kind: IdKind): string;
}

export type IdKind = 'key' | 'usr' | 'evt' | 'aud' | 'opr' | 'whe' | 'wev' | 'msg' | 'dev';

/** A cryptographic source of random bytes, rendered as lowercase hex. */
export abstract class RandomSource {
  abstract hex(bytes: number): string;
}
