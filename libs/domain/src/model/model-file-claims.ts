import { type Model, type ModelDescription, sizeMbOf } from './model';
import { FILE_CLAIMS, type FileClaim, ModelRecordError } from './model.errors';

/**
 * What an operator says about a record's file: the values a record shows
 * (`checksum`, `sizeBytes`, `sizeMb`). Absent or null says nothing.
 */
export interface ModelFileClaims {
  readonly checksum?: string | null;
  readonly sizeBytes?: number | null;
  readonly sizeMb?: number | null;
}

/**
 * Where a record's file is once it is written: the file the service holds
 * (kept as it is), an external file (the claimed checksum and size), or none yet.
 */
export type RecordFile =
  | { readonly kind: 'stored' }
  | { readonly kind: 'external'; readonly checksum: string; readonly sizeBytes: number }
  | { readonly kind: 'none' };

/**
 * Whether `url` is an address of the service's own stored file `storedFile`
 * (signed or not, on the service or on MODEL_HOST): its last path segment is
 * the stored name, whatever the query. Stored names carry 96 random bits, so
 * no other address ends with one.
 */
export function isStoredFileUrl(url: string, storedFile: string): boolean {
  let pathname: string;
  try {
    pathname = new URL(url, 'http://stored.invalid').pathname;
  } catch {
    return false;
  }
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last) === storedFile;
  } catch {
    return false;
  }
}

/**
 * The file rules of a record (CONTRACT 7), the same for every edge. An
 * explicit external download address (a file the service does not hold)
 * requires the checksum and the size in bytes, which become the record's;
 * the size in megabytes, if given, must be the size in bytes / 1,000,000. An
 * address naming the record's own stored file keeps that file (the address
 * is not stored). For a record whose file the service holds, the claims must
 * equal the stored file's; without any file they cannot be set. `existing`:
 * the record replaced (null for a new record). Throws ModelRecordError
 * (INVALID_REQUEST) naming the rule and the claim.
 */
export function recordFileOf(
  description: ModelDescription,
  claims: ModelFileClaims,
  existing: Model | null,
): { readonly description: ModelDescription; readonly file: RecordFile } {
  const storedFile = existing?.storedFile ?? null;
  let downloadUrl = description.downloadUrl;
  if (downloadUrl !== null && storedFile !== null && isStoredFileUrl(downloadUrl, storedFile)) downloadUrl = null;
  const checksum = claims.checksum ?? null;
  const sizeBytes = claims.sizeBytes ?? null;
  const sizeMb = claims.sizeMb ?? null;
  if (downloadUrl !== null) {
    if (checksum === null) throw new ModelRecordError({ rule: 'external-file-needs', claim: 'checksum' });
    if (sizeBytes === null) throw new ModelRecordError({ rule: 'external-file-needs', claim: 'sizeBytes' });
    if (sizeMb !== null && sizeMb !== sizeBytes / 1_000_000) throw new ModelRecordError({ rule: 'size-mb-not-derived' });
    return { description: { ...description, downloadUrl }, file: { kind: 'external', checksum, sizeBytes } };
  }
  const kept = { ...description, downloadUrl: null };
  const claimed: Record<FileClaim, string | number | null> = { checksum, sizeBytes, sizeMb };
  if (existing !== null && storedFile !== null) {
    const stored: Record<FileClaim, string | number | null> = {
      checksum: existing.checksum,
      sizeBytes: existing.sizeBytes,
      sizeMb: sizeMbOf(existing),
    };
    for (const claim of FILE_CLAIMS) {
      if (claimed[claim] !== null && claimed[claim] !== stored[claim]) {
        throw new ModelRecordError({ rule: 'differs-from-stored-file', claim, stored: stored[claim] });
      }
    }
    return { description: kept, file: { kind: 'stored' } };
  }
  for (const claim of FILE_CLAIMS) {
    if (claimed[claim] !== null) throw new ModelRecordError({ rule: 'computed-from-stored-file', claim });
  }
  return { description: kept, file: { kind: 'none' } };
}
