import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** One sample model: its record (SPEC 2.4 fields, judged as a ModelRecordRequest when published) and its file. */
export interface SampleModel {
  readonly record: Readonly<Record<string, unknown>>;
  /** Absolute path of the sample file. */
  readonly file: string;
}

/**
 * Reads the sample catalogue (`config/models.json`): `{ models: [{ file, record }] }`,
 * each `file` relative to the catalogue's folder. Throws with a plain sentence
 * naming the catalogue when it is unreadable or malformed.
 */
export function readSampleCatalog(catalogFile: string): SampleModel[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(catalogFile, 'utf8'));
  } catch {
    throw new Error(`sample model catalogue ${catalogFile} cannot be read as JSON`);
  }
  const models = (parsed as { models?: unknown } | null)?.models;
  if (!Array.isArray(models)) throw new Error(`sample model catalogue ${catalogFile} must hold { "models": [...] }`);
  return models.map((entry: unknown, index) => {
    const { file, record } = (entry ?? {}) as { file?: unknown; record?: unknown };
    if (typeof file !== 'string' || typeof record !== 'object' || record === null || Array.isArray(record)) {
      throw new Error(`sample model catalogue ${catalogFile}: entry ${index} needs "file" and "record"`);
    }
    return { record: record as Record<string, unknown>, file: resolve(dirname(catalogFile), file) };
  });
}
