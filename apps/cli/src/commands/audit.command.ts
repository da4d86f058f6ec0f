import { ListAudit } from '@svc/application';
import { auditEntryViewOf } from '@svc/presentation';
import { Command, Option } from 'nest-commander';
import { CliCommand, CommonOptions } from '../shared/cli-command';
import { auditSummary } from '../shared/summaries';

interface AuditOptions extends CommonOptions {
  readonly key?: string;
}

/** `audit [--key KEY_ID]`: GET /admin/v1/audit, newest first, as `{ entries: [...] }`. */
@Command({ name: 'audit', description: 'list the audit log, newest first' })
export class AuditCommand extends CliCommand<AuditOptions> {
  constructor(private readonly listAudit: ListAudit) {
    super();
  }

  async run(_params: string[], options: AuditOptions = {}): Promise<void> {
    const entries = (await this.listAudit.execute({ keyId: options.key })).map(auditEntryViewOf);
    this.print(options, { entries }, () => auditSummary(entries));
  }

  @Option({ flags: '--key <key_id>', description: 'only the entries of this key' })
  parseKey(value: string): string {
    return value;
  }
}
