import { randomBytes } from 'node:crypto';

/** Labels a model store accepts (a model's name and version): the same alphabet as model names. */
const LABEL_FORM = /^[a-z0-9][a-z0-9_.-]{0,150}$/;
/** Names a model store gives its files: `<label>-<24 random hex>.bin`. Nothing else is ever opened or removed. */
const STORED_FORM = /^[a-z0-9][a-z0-9_.-]{0,150}-[0-9a-f]{24}\.bin$/;

/** A new stored file's name for `label` (96 random bits: two uploads never collide); throws on a bad label. */
export function newStoredFileName(label: string): string {
  if (!LABEL_FORM.test(label)) throw new Error('model store: invalid file label');
  return `${label}-${randomBytes(12).toString('hex')}.bin`;
}

/** Whether `name` is one a store gave (so it cannot reach outside the store). */
export function isStoredFileName(name: string): boolean {
  return STORED_FORM.test(name);
}
