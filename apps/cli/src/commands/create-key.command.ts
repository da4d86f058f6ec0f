import { IssueApiKey } from '@svc/application';
import { issuedKeyViewOf } from '@svc/presentation';
import { Option, SubCommand } from 'nest-commander';
import { CliCommand, CommonOptions } from '../shared/cli-command';
import { environmentOption, expiresAtOption, licenseTypeOption, monthlyLimitOption } from '../shared/option-values';
import { issuedKeySummary } from '../shared/summaries';
import { cliActor } from '../shared/cli-actor';

interface CreateKeyOptions extends CommonOptions {
  readonly email?: string;
  readonly name?: string;
  readonly organization?: string;
  readonly userId?: string;
  readonly licenseType?: string;
  readonly environment?: string;
  readonly expiresAt?: string;
  readonly monthlyLimit?: string;
}

/** `keys create`: POST /admin/v1/keys. The plaintext key is printed this once and never again. */
@SubCommand({
  name: 'create',
  description: 'issue an API key (a new user by --email, or an existing one by --user-id); the key is shown once',
})
export class CreateKeyCommand extends CliCommand<CreateKeyOptions> {
  constructor(private readonly issueKey: IssueApiKey) {
    super();
  }

  async run(_params: string[], options: CreateKeyOptions = {}): Promise<void> {
    // the first bad option is the one reported: the time and the limit are read first, as they always were
    const expiresAt = options.expiresAt === undefined ? undefined : expiresAtOption(options.expiresAt);
    const monthlyLimit = options.monthlyLimit === undefined ? undefined : monthlyLimitOption(options.monthlyLimit);
    const licenseType = licenseTypeOption(options.licenseType);
    const environment = options.environment === undefined ? undefined : environmentOption(options.environment);
    const issued = await this.issueKey.execute({
      email: options.email,
      name: options.name,
      organization: options.organization,
      userId: options.userId,
      licenseType,
      actor: cliActor(),
      environment,
      expiresAt,
      monthlyLimit,
    });
    const view = issuedKeyViewOf(issued);
    this.print(options, view, () => issuedKeySummary(view));
  }

  @Option({ flags: '--email <email>', description: "the user's e-mail (required unless --user-id)" })
  parseEmail(value: string): string {
    return value;
  }

  @Option({ flags: '--name <name>', description: "the new user's name" })
  parseName(value: string): string {
    return value;
  }

  @Option({ flags: '--organization <organization>', description: "the new user's organization" })
  parseOrganization(value: string): string {
    return value;
  }

  @Option({ flags: '--user-id <user_id>', description: 'give the key to this existing user' })
  parseUserId(value: string): string {
    return value;
  }

  @Option({ flags: '--license-type <type>', description: 'free, research, commercial or enterprise (required)' })
  parseLicenseType(value: string): string {
    return value;
  }

  @Option({ flags: '--environment <environment>', description: 'live (default) or test' })
  parseEnvironment(value: string): string {
    return value;
  }

  @Option({ flags: '--expires-at <time>', description: 'RFC 3339 time, e.g. 2027-01-01T00:00:00Z (default: one year)' })
  parseExpiresAt(value: string): string {
    return value;
  }

  @Option({ flags: '--monthly-limit <limit>', description: 'an integer, "unlimited" or "tier" (default: the tier\'s limit)' })
  parseMonthlyLimit(value: string): string {
    return value;
  }
}
