import { CheckedBySchema } from '../../../http/body-schema';
import { GraceSecondsProperty, RevocationReasonProperty } from '../../../shared/dto/key.request';

@CheckedBySchema()
export class AdminRevokeKeyRequest {
  @RevocationReasonProperty('Kept in the audit log')
  reason?: string | null;
}

/** POST /admin/v1/keys/{key_id}/rotate (CONTRACT 16): the holder's body without the key. */
@CheckedBySchema()
export class AdminRotateKeyRequest {
  @GraceSecondsProperty()
  readonly grace_seconds?: number | null;
}
