/** The three classifier kinds the registry carries (SPEC 2.4); nothing else is listed. */
export const MODEL_TYPES = ['SvcLDA', 'SvcQDA', 'SvcProbit'] as const;
export type ModelType = (typeof MODEL_TYPES)[number];

export function isModelType(value: unknown): value is ModelType {
  return typeof value === 'string' && (MODEL_TYPES as readonly string[]).includes(value);
}

/** Bounds on what an operator may describe (CONTRACT 7 and 12). */
export const MODEL_LIMITS = Object.freeze({
  nameLength: 100,
  versionLength: 40,
  paradigmLength: 64,
  maxCount: 1_000_000,
  downloadUrlLength: 2048,
  descriptionLength: 2000,
  shortTextLength: 200,
  metadataBytes: 16 * 1024,
  ownerUserIdLength: 40,
});

/** Lowercase letters, digits, `_`, `.`, `-`; at most 100 characters; and not a reserved word. */
const NAME_FORM = /^[a-z0-9][a-z0-9_.-]{0,99}$/;
/** Words a model may not be called (`list` names the registry itself). */
const RESERVED_NAMES: readonly string[] = ['list'];
/** Dotted digits: `1`, `1.0`, `2.10.3` (at most `MODEL_LIMITS.versionLength` characters). */
export const MODEL_VERSION_FORM = /^\d+(\.\d+)*$/;
/** An open list (`motor_imagery`, `p300`, `ssvep`, ...), but identifier-shaped: at most 64 characters. */
export const MODEL_PARADIGM_FORM = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const CHECKSUM_FORM = /^sha256:[0-9a-f]{64}$/;

/** The rule a model's name follows: it is the model's identity. */
export const MODEL_NAME_RULE =
  'name must be 1-100 lowercase letters, digits, "_", "." or "-", starting with a letter or digit (and not "list")';

export function isModelName(value: unknown): value is string {
  return typeof value === 'string' && NAME_FORM.test(value) && !RESERVED_NAMES.includes(value);
}

/** An explicit download address: an http(s) URL with a host, at most `MODEL_LIMITS.downloadUrlLength` characters. */
export function isDownloadUrl(value: string): boolean {
  if (value.length > MODEL_LIMITS.downloadUrlLength || !/^https?:\/\/\S+$/i.test(value)) return false;
  try {
    return new URL(value).hostname !== '';
  } catch {
    return false;
  }
}

/** A record's `checksum` (CONTRACT 7) from the lowercase hex SHA-256 of the file's bytes. */
export function checksumOf(sha256Hex: string): string {
  return `sha256:${sha256Hex}`;
}

export function isChecksum(value: unknown): value is string {
  return typeof value === 'string' && CHECKSUM_FORM.test(value);
}
