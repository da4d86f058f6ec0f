import { SecretsAtRest } from '@svc/application';
import { AppConfig } from '@svc/config';
import { SubCommand } from 'nest-commander';
import { CliCommand, CommonOptions } from '../shared/cli-command';
import { CliUsageError } from '../shared/cli-usage-error';

/**
 * `license rotate-secrets-key`: rewrites every secret the service
 * keeps in the database (generated license signing keys, the generated link
 * secret, webhook signing secrets) under NEW_SECRETS_KEY, reading each under
 * SECRETS_KEY, NEW_SECRETS_KEY or in plain text; without NEW_SECRETS_KEY,
 * under SECRETS_KEY (encrypting the values still in plain text). The keys
 * come from the environment, never from the command line (which `ps` and
 * shell histories show), and are never printed. Each value is rewritten only
 * if it did not change meanwhile, so the command may run beside the service;
 * run again, it rewrites nothing. The procedure: docs/OPERATIONS.md.
 */
@SubCommand({
  name: 'rotate-secrets-key',
  description:
    'encrypt the secrets kept in the database under NEW_SECRETS_KEY (read under SECRETS_KEY or in plain text), ' +
    'or under SECRETS_KEY when NEW_SECRETS_KEY is unset; then set SECRETS_KEY to the new key on every instance and restart them',
})
export class LicenseRotateSecretsKeyCommand extends CliCommand {
  constructor(
    private readonly secrets: SecretsAtRest,
    private readonly config: AppConfig,
  ) {
    super();
  }

  async run(_params: string[], options: CommonOptions = {}): Promise<void> {
    const { key, newKey } = this.config.secrets;
    if (key === null && newKey === null) {
      throw new CliUsageError(
        'set NEW_SECRETS_KEY to the key to encrypt under (32 random bytes, base64: openssl rand -base64 32), ' +
          'and SECRETS_KEY to the current one if there is one',
      );
    }
    const under = newKey !== null ? 'NEW_SECRETS_KEY' : 'SECRETS_KEY';
    const report = await this.secrets.reseal();
    const view = { encrypted_under: under, resealed: report.resealed, unchanged: report.unchanged };
    this.print(options, view, () =>
      [
        `Encrypted ${report.resealed} secret(s) kept in the database under ${under}; ${report.unchanged} already were.`,
        ...(newKey !== null && newKey !== key
          ? [
              'Now set SECRETS_KEY to the new key (and unset NEW_SECRETS_KEY) on every instance and restart them; ' +
                'until then an instance with only the old key cannot read them.',
            ]
          : []),
        'Backups taken before this need the key they were taken under.',
      ].join('\n'),
    );
  }
}
