/**
 * Text that shows itself as it is: names, organizations,
 * descriptions and reasons are shown to operators in the console, the audit
 * log and the CLI, so they may not carry characters that hide or rearrange
 * what is shown around them.
 *
 * Refused in one-line text:
 * - every control character (Unicode category Cc): U+0000-U+001F (NUL, tab,
 *   line feed, carriage return, escape ...), U+007F and U+0080-U+009F. NUL
 *   also because PostgreSQL stores no NUL in text;
 * - the line and paragraph separators U+2028 and U+2029;
 * - bidirectional formatting: the marks U+200E (LRM), U+200F (RLM) and
 *   U+061C (ALM), which are invisible and so make two names that look alike
 *   differ; the embeddings and overrides U+202A-U+202E (U+202E, RLO, shows
 *   "txt.exe" as "exe.txt"); the isolates U+2066-U+2069.
 * Multi-line text (an SDK's error message) may also hold tab, line feed and
 * carriage return. Other invisible characters (zero-width joiners, which
 * scripts and emoji need) are accepted.
 */
const REFUSED_IN_ANY_TEXT =
  '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';
const LINE_CONTROLS = '\\u0009\\u000a\\u000d';
const REFUSED_IN_ONE_LINE = LINE_CONTROLS + REFUSED_IN_ANY_TEXT;

/** The rule as a JSON schema's `pattern` (unicode mode), for one-line and multi-line text. */
export const PLAIN_TEXT_PATTERNS = {
  oneLine: `^[^${REFUSED_IN_ONE_LINE}]*$`,
  multiLine: `^[^${REFUSED_IN_ANY_TEXT}]*$`,
} as const;

const ONE_LINE_REFUSED = new RegExp(`[${REFUSED_IN_ONE_LINE}]`, 'u');
const MULTI_LINE_REFUSED = new RegExp(`[${REFUSED_IN_ANY_TEXT}]`, 'u');

/** Whether `text` holds none of the refused characters (tab, line feed and carriage return allowed when `multiLine`). */
export function isPlainText(text: string, multiLine = false): boolean {
  return !(multiLine ? MULTI_LINE_REFUSED : ONE_LINE_REFUSED).test(text);
}

/** The message of a field that is not plain text. */
export function plainTextRule(field: string, multiLine = false): string {
  return multiLine
    ? `${field} must not contain control characters other than tab and line breaks, nor bidirectional formatting characters (such as U+202E)`
    : `${field} must not contain control characters (such as NUL, tab or a line break) nor bidirectional formatting characters (such as U+202E)`;
}
