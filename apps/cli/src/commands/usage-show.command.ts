import { ReportUsage } from '@svc/application';
import { usageReportViewOf } from '@svc/presentation';
import { Option, SubCommand } from 'nest-commander';
import { CliCommand, CommonOptions } from '../shared/cli-command';
import { CliUsageError } from '../shared/cli-usage-error';
import { usageSummary } from '../shared/summaries';

interface UsageShowOptions extends CommonOptions {
  readonly license?: string;
  readonly period?: string;
}

/**
 * `usage show KEY_ID | --license LICENSE_ID [--period YYYY-MM]`: GET /admin/v1/usage. The license's
 * usage in the month (its counter, shared by the keys a rotation chains) and which key spent what.
 */
@SubCommand({
  name: 'show',
  arguments: '[key_id]',
  argsDescription: { key_id: "one of the license's keys (key_...); or --license" },
  description: "show a license's usage in a month, split by key",
})
export class UsageShowCommand extends CliCommand<UsageShowOptions> {
  constructor(private readonly reportUsage: ReportUsage) {
    super();
  }

  async run([keyId]: string[], options: UsageShowOptions = {}): Promise<void> {
    if ((keyId === undefined) === (options.license === undefined)) {
      throw new CliUsageError('usage show needs a key id or --license LICENSE_ID (one of the two)');
    }
    const view = usageReportViewOf(await this.reportUsage.execute({ keyId, licenseId: options.license, period: options.period }));
    this.print(options, view, () => usageSummary(view));
  }

  @Option({ flags: '--license <license_id>', description: 'the license (instead of one of its keys)' })
  parseLicense(value: string): string {
    return value;
  }

  @Option({ flags: '--period <YYYY-MM>', description: 'the month (UTC); default: the current one' })
  parsePeriod(value: string): string {
    return value;
  }
}
