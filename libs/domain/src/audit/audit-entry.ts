/** What the audit log records. Never a key's plaintext nor an installer token. */
export type AuditAction = 'key.issued' | 'key.updated' | 'key.revoked' | 'installer.token_issued';

export interface AuditEntry {
  readonly id: string;
  readonly at: Date;
  readonly action: AuditAction;
  readonly keyId: string | null;
  readonly reason: string | null;
  readonly details: Readonly<Record<string, unknown>> | null;
}
