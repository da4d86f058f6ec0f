import { Injectable } from '@nestjs/common';
import { ApiKeyRepository, AuditAction, AuditEntry, AuditLog, AuditPosition, KeyNotFoundError } from '@svc/domain';

export interface AuditPageInput {
  readonly keyId?: string;
  readonly action?: AuditAction;
  /** Only entries of this actor: an operator's id. */
  readonly actorId?: string;
  /** Continue after this entry (the last one of the page before). */
  readonly after?: AuditPosition;
  readonly limit?: number;
}

export interface AuditPage {
  readonly entries: readonly AuditEntry[];
  /** Where the next page starts; null on the last page. */
  readonly next: AuditPosition | null;
}

/** The audit trail, newest first, for one key or all. */
@Injectable()
export class ListAudit {
  static readonly MAX_ENTRIES = 1000;
  static readonly DEFAULT_PAGE = 50;
  static readonly MAX_PAGE = 200;

  constructor(
    private readonly audit: AuditLog,
    private readonly keys: ApiKeyRepository,
  ) {}

  /** Up to MAX_ENTRIES entries at once (the CLI). */
  async execute(input: { keyId?: string }): Promise<AuditEntry[]> {
    await this.checkKey(input.keyId);
    return this.audit.list({ keyId: input.keyId, limit: ListAudit.MAX_ENTRIES });
  }

  /** A page of entries, filtered by key and action; pages continue after a position, so inserts never shift them. */
  async page(input: AuditPageInput): Promise<AuditPage> {
    await this.checkKey(input.keyId);
    const limit = input.limit ?? ListAudit.DEFAULT_PAGE;
    const found = await this.audit.list({
      keyId: input.keyId,
      action: input.action,
      actorId: input.actorId,
      after: input.after,
      limit: limit + 1,
    });
    const entries = found.slice(0, limit);
    const last = entries[entries.length - 1];
    return { entries, next: found.length > limit && last ? { at: last.at, id: last.id } : null };
  }

  private async checkKey(keyId: string | undefined): Promise<void> {
    if (keyId !== undefined && !(await this.keys.findById(keyId))) throw new KeyNotFoundError('API key not found');
  }
}
