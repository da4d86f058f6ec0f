/** What stands in for a secret wherever text is kept or shown. */
export const REDACTED = '[REDACTED]';

/**
 * Key-shaped text anywhere in free text: `<word>_live_…` / `<word>_test_…`
 * with a hex tail (any key prefix, any case), and any run of 32 or more hex
 * digits (a key's secret part alone, an upper-cased copy, a digest). Ids
 * (`key_` + 24 hex) and model names stay readable.
 */
const KEY_SHAPED = /[A-Za-z0-9]+_(?:live|test)_[0-9A-Fa-f]{8,}|[0-9A-Fa-f]{32,}/gi;

/**
 * Free text with key-shaped parts replaced. Keys are secrets: text a caller
 * writes (a revocation reason) is kept and shown only through this, so a key
 * pasted into it is never stored, logged or echoed back.
 */
export function redactKeyShapedText(text: string): string {
  return text.replace(KEY_SHAPED, REDACTED);
}
