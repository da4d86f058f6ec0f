import { Command, CommandRunner } from 'nest-commander';
import { CliUsageError } from '../shared/cli-usage-error';
import { LicenseKeygenCommand } from './license-keygen.command';
import { LicenseRotateSecretsKeyCommand } from './license-rotate-secrets-key.command';
import { LicenseRotateSigningKeyCommand } from './license-rotate-signing-key.command';
import { LicenseVerifyCommand } from './license-verify.command';

/** `license`: the signing keys and tokens of the offline licenses (CONTRACT 15, 19), and the key of the secrets at rest. */
@Command({
  name: 'license',
  description:
    'make a license signing key pair, rotate the generated signing key, move the secrets kept in the database to a new ' +
    'SECRETS_KEY, or check a license token as an SDK would',
  subCommands: [LicenseKeygenCommand, LicenseRotateSigningKeyCommand, LicenseRotateSecretsKeyCommand, LicenseVerifyCommand],
})
export class LicenseCommand extends CommandRunner {
  async run(params: string[]): Promise<void> {
    this.command.outputHelp({ error: true });
    throw new CliUsageError(
      params.length > 0
        ? `unknown command 'license ${params[0]}'`
        : 'license needs a command: keygen, rotate-signing-key, rotate-secrets-key or verify',
    );
  }
}
