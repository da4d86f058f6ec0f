import { type RandomSource } from '../shared/id-generator';

export const KEY_ENVIRONMENTS = ['live', 'test'] as const;
export type KeyEnvironment = (typeof KEY_ENVIRONMENTS)[number];

/** What a request presented as its key, judged by form alone (no storage). */
export type PresentedKey =
  | { readonly kind: 'missing' }
  | { readonly kind: 'malformed' }
  | { readonly kind: 'well-formed'; readonly secret: string; readonly environment: KeyEnvironment };

const HEX_CHARS = 48;
/** The first characters of a key kept for operators to recognise it (CONTRACT 1). */
export const DISPLAY_PREFIX_LENGTH = 12;

/**
 * The key format `<prefix>_(live|test)_<48 hex>` with the configured prefix
 * word. The check is exact: nothing is trimmed, case of the hex is free.
 */
export class ApiKeyFormat {
  private readonly pattern: RegExp;

  constructor(readonly prefix: string) {
    if (!/^[A-Za-z0-9]+$/.test(prefix)) throw new Error('key prefix must be letters and digits');
    this.pattern = new RegExp(`^${prefix}_(live|test)_[0-9a-fA-F]{${HEX_CHARS}}$`);
  }

  /**
   * MISSING_KEY before INVALID_FORMAT (CONTRACT 2, steps 4-5): absent, null or
   * blank is missing; any other non-string or mismatch is malformed.
   */
  judge(raw: unknown): PresentedKey {
    if (raw === undefined || raw === null) return { kind: 'missing' };
    if (typeof raw === 'string' && raw.trim() === '') return { kind: 'missing' };
    if (typeof raw !== 'string') return { kind: 'malformed' };
    const m = this.pattern.exec(raw);
    if (!m) return { kind: 'malformed' };
    return { kind: 'well-formed', secret: raw, environment: m[1] as KeyEnvironment };
  }

  /** A new key: 192 random bits as 48 lowercase hex characters. */
  generate(environment: KeyEnvironment, random: RandomSource): string {
    const hex = random.hex(HEX_CHARS / 2).toLowerCase();
    if (!/^[0-9a-f]{48}$/.test(hex)) throw new Error('random source must give 24 bytes of hex');
    return `${this.prefix}_${environment}_${hex}`;
  }

  static displayPrefixOf(secret: string): string {
    return secret.slice(0, DISPLAY_PREFIX_LENGTH);
  }
}
