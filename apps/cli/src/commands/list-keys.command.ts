import { ListKeys } from '@svc/application';
import { InvalidRequestError } from '@svc/domain';
import { decodeCursor, keyListViewOf } from '@svc/presentation';
import { Option, SubCommand } from 'nest-commander';
import { CliCommand, CommonOptions } from '../shared/cli-command';
import { keyStatusOption, pageLimitOption, tierOption } from '../shared/option-values';
import { keyListSummary } from '../shared/summaries';

interface ListKeysOptions extends CommonOptions {
  readonly email?: string;
  readonly tier?: string;
  readonly status?: string;
  readonly limit?: string;
  readonly cursor?: string;
}

/**
 * `keys list`: GET /admin/v1/keys, through the same use case (ListKeys): newest first, every filter
 * given must hold, a page at a time. `--json` prints the admin API's body, `{ keys, next_cursor }`;
 * the table ends with the `--cursor` of the next page, if there is one. Never a key or its digest.
 */
@SubCommand({
  name: 'list',
  description: 'list keys, newest first, a page at a time (filters: --email in any case, --tier, --status)',
})
export class ListKeysCommand extends CliCommand<ListKeysOptions> {
  constructor(private readonly listKeys: ListKeys) {
    super();
  }

  async run(_params: string[], options: ListKeysOptions = {}): Promise<void> {
    const after = options.cursor === undefined ? undefined : decodeCursor('keys', options.cursor);
    if (after === null) throw new InvalidRequestError('--cursor must be the cursor an earlier page printed (its next_cursor)');
    const page = await this.listKeys.execute({
      email: options.email,
      licenseType: options.tier === undefined ? undefined : tierOption(options.tier),
      status: options.status === undefined ? undefined : keyStatusOption(options.status),
      limit: options.limit === undefined ? undefined : pageLimitOption(options.limit, ListKeys.MAX_LIMIT),
      after: after && { createdAt: after.at, id: after.id },
    });
    const view = keyListViewOf(page);
    this.print(options, view, () => keyListSummary(view));
  }

  @Option({ flags: '--email <address>', description: "the holder's whole e-mail address, in any case" })
  parseEmail(value: string): string {
    return value;
  }

  @Option({ flags: '--tier <type>', description: 'the license type: free, research, commercial or enterprise' })
  parseTier(value: string): string {
    return value;
  }

  @Option({ flags: '--status <status>', description: 'the status now: active, expired or revoked' })
  parseStatus(value: string): string {
    return value;
  }

  @Option({ flags: '--limit <n>', description: `keys per page, 1 to ${ListKeys.MAX_LIMIT} (default ${ListKeys.DEFAULT_LIMIT})` })
  parseLimit(value: string): string {
    return value;
  }

  @Option({ flags: '--cursor <cursor>', description: 'the next page: the cursor printed after the page before (next_cursor)' })
  parseCursor(value: string): string {
    return value;
  }
}
