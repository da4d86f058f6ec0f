import { Injectable } from '@nestjs/common';
import { ApiKeyRepository, AuditEntry, AuditLog, KeyNotFoundError } from '@svc/domain';

/** The audit trail, newest first, for one key or all. */
@Injectable()
export class ListAudit {
  static readonly MAX_ENTRIES = 1000;

  constructor(
    private readonly audit: AuditLog,
    private readonly keys: ApiKeyRepository,
  ) {}

  async execute(input: { keyId?: string }): Promise<AuditEntry[]> {
    if (input.keyId !== undefined && !(await this.keys.findById(input.keyId))) {
      throw new KeyNotFoundError('API key not found');
    }
    return this.audit.list({ keyId: input.keyId, limit: ListAudit.MAX_ENTRIES });
  }
}
