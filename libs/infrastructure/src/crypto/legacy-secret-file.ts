import { readFile } from 'node:fs/promises';

/** A secret that versions before CONTRACT 19 generated and kept in a file under the data directory. */
export interface LegacySecretFile {
  readonly file: string;
  /** Whether the file's (trimmed) text is a secret of this kind. */
  accepts(text: string): boolean;
  /** The one line a start-up fails with when the file holds something else (never its content). */
  readonly refusal: string;
}

/**
 * The secret an earlier version kept in `secret.file`, or null when there is
 * no such file: taken over into the database on the first start, so tokens
 * and links handed out before the upgrade stay valid. Never logged.
 */
export async function legacySecretIn(secret: LegacySecretFile): Promise<string | null> {
  let text: string;
  try {
    text = await readFile(secret.file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const kept = text.trim();
  if (!secret.accepts(kept)) throw new Error(secret.refusal);
  return kept;
}
