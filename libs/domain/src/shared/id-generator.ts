/** Identifiers for stored things: `key_…`, `usr_…`, `evt_…`, `aud_…`, `opr_…`. */
export abstract class IdGenerator {
  abstract newId(kind: IdKind): string;
}

export type IdKind = 'key' | 'usr' | 'evt' | 'aud' | 'opr';

/** A cryptographic source of random bytes, rendered as lowercase hex. */
export abstract class RandomSource {
  abstract hex(bytes: number): string;
}
