import {
  type DomainError,
  type FileClaim,
  LinkExpiredError,
  LinkInvalidError,
  ModelRecordError,
  type ModelRecordViolation,
} from '@svc/domain';

/** The record's file claims as the API's bodies and the CLI's JSON records name them. */
const CLAIM_FIELDS: Readonly<Record<FileClaim, string>> = { checksum: 'checksum', sizeBytes: 'size_bytes', sizeMb: 'size_mb' };

/** Where a fresh link to a model file comes from (the download endpoint). */
const DOWNLOAD_ROUTE = 'GET /v1/models/{name}/download';

/** How a request that broke a model record's rule is fixed, in the request's own field names. */
function modelRecordHint(violation: ModelRecordViolation): string {
  switch (violation.rule) {
    case 'renamed':
      return 'name must match the model in the path (a model cannot be renamed)';
    case 'custom-model-below-tier':
      return 'requires_license must be commercial or enterprise for a custom model (one with owner_user_id)';
    case 'external-file-needs':
      return violation.claim === 'checksum'
        ? 'checksum is required with an external download_url: sha256:<64 hex> of the file (models publish FILE --download-url URL computes it)'
        : "size_bytes is required with an external download_url: the file's exact size in bytes";
    case 'size-mb-not-derived':
      return 'size_mb must equal size_bytes / 1000000 (it is derived from size_bytes)';
    case 'differs-from-stored-file':
      return `${CLAIM_FIELDS[violation.claim]} must be the stored file's (${violation.stored ?? 'none'}): it is computed from the uploaded file`;
    case 'computed-from-stored-file':
      return `${CLAIM_FIELDS[violation.claim]} can be set only with an external download_url; otherwise it is computed from the uploaded model file`;
  }
}

/**
 * The `message` a domain error answers with at the edge (the API's envelope,
 * the CLI's failure line): the domain states the rule; where fixing the
 * request takes a field's wire name, a route or a command, it is said here.
 * Every other error's own hint is kept.
 */
export function publicHintOf(error: DomainError): string | undefined {
  if (error instanceof ModelRecordError) return modelRecordHint(error.violation);
  if (error instanceof LinkExpiredError) return `Ask ${DOWNLOAD_ROUTE} for a fresh link`;
  if (error instanceof LinkInvalidError) return `Model file links are signed; ask ${DOWNLOAD_ROUTE} for one`;
  return error.hint;
}
