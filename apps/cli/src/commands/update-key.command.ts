import { UpdateApiKey, UpdateApiKeyInput } from '@svc/application';
import { keyViewOf } from '@svc/presentation';
import { Option, SubCommand } from 'nest-commander';
import { CliCommand, CommonOptions } from '../shared/cli-command';
import { expiresAtOption, licenseTypeOption, maxDevicesOption, monthlyLimitOption } from '../shared/option-values';
import { keySummary } from '../shared/summaries';
import { cliActor } from '../shared/cli-actor';

interface UpdateKeyOptions extends CommonOptions {
  readonly licenseType?: string;
  readonly expiresAt?: string;
  readonly monthlyLimit?: string;
  readonly maxDevices?: string;
}

/** `keys update KEY_ID`: PATCH /admin/v1/keys/{key_id}. A revoked key is refused (KEY_REVOKED). */
@SubCommand({
  name: 'update',
  arguments: '<key_id>',
  argsDescription: { key_id: 'the key id (key_...)' },
  description: "change a key's tier, expiry, monthly limit or its license's max_devices",
})
export class UpdateKeyCommand extends CliCommand<UpdateKeyOptions> {
  constructor(private readonly updateKey: UpdateApiKey) {
    super();
  }

  async run([keyId]: string[], options: UpdateKeyOptions = {}): Promise<void> {
    const input: UpdateApiKeyInput = {
      keyId,
      expiresAt: options.expiresAt === undefined ? undefined : expiresAtOption(options.expiresAt),
      monthlyLimit: options.monthlyLimit === undefined ? undefined : monthlyLimitOption(options.monthlyLimit),
      licenseType: options.licenseType === undefined ? undefined : licenseTypeOption(options.licenseType),
      maxDevices: options.maxDevices === undefined ? undefined : maxDevicesOption(options.maxDevices),
      actor: cliActor(),
      // the CLI runs on the database directly, as whoever may read its configuration: every permission, as ADMIN_TOKEN has
      role: 'owner',
    };
    const view = keyViewOf(await this.updateKey.execute(input));
    this.print(options, view, () => keySummary(view));
  }

  @Option({ flags: '--license-type <type>', description: 'free, research, commercial or enterprise' })
  parseLicenseType(value: string): string {
    return value;
  }

  @Option({ flags: '--expires-at <time>', description: 'RFC 3339 time, e.g. 2027-01-01T00:00:00Z' })
  parseExpiresAt(value: string): string {
    return value;
  }

  @Option({ flags: '--monthly-limit <limit>', description: 'an integer, "unlimited", or "tier" to go back to the tier\'s limit' })
  parseMonthlyLimit(value: string): string {
    return value;
  }

  @Option({
    flags: '--max-devices <count>',
    description: 'the license\'s seats (all its keys): an integer, or "tier" to go back to the tier\'s',
  })
  parseMaxDevices(value: string): string {
    return value;
  }
}
