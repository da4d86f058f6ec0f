import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** A secret the service generates once and keeps in a file (mode 0600). */
export interface KeptSecret {
  readonly file: string;
  /** A new secret, as the file keeps it. */
  generate(): string;
  /** Whether the file's (trimmed) text is a secret of this kind. */
  accepts(text: string): boolean;
  /** The one line a start-up fails with when the file holds something else (never its content). */
  readonly refusal: string;
}

/**
 * The secret kept in `secret.file`, generated at the first start. Instances
 * that start together agree: the file appears whole, by a hard link that fails
 * if it exists, and the loser reads the winner's. Never logged.
 */
export async function keptSecretOf(secret: KeptSecret): Promise<string> {
  const existing = await readKept(secret);
  if (existing !== null) return existing;
  await mkdir(dirname(secret.file), { recursive: true });
  const temporary = `${secret.file}.${randomBytes(8).toString('hex')}.tmp`;
  await writeFile(temporary, `${secret.generate()}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(temporary, secret.file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
  const kept = await readKept(secret);
  if (kept === null) throw new Error(secret.refusal);
  return kept;
}

async function readKept(secret: KeptSecret): Promise<string | null> {
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
