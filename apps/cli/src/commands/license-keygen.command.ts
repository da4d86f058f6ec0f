import { licensePublicKeysOf, newLicenseKeyPair } from '@svc/infrastructure';
import { SubCommand } from 'nest-commander';
import { CliCommand, CommonOptions } from '../shared/cli-command';

/**
 * `license keygen`: a new Ed25519 key pair for LICENSE_SIGNING_KEY (the
 * private half) and, after a later change, LICENSE_VERIFY_KEYS_FILE (the
 * public half). Printed, never stored: the operator puts it in the secret store.
 */
@SubCommand({
  name: 'keygen',
  description: 'print a new Ed25519 license signing key pair (PEM) and the kid its tokens will carry',
})
export class LicenseKeygenCommand extends CliCommand {
  async run(_params: string[], options: CommonOptions = {}): Promise<void> {
    const { privateKey, publicKey } = newLicenseKeyPair();
    const [{ kid }] = await licensePublicKeysOf([publicKey]);
    this.print(options, { kid, private_key: privateKey, public_key: publicKey }, () =>
      [
        `# kid ${kid}`,
        '# The private key: LICENSE_SIGNING_KEY (or a file named by LICENSE_SIGNING_KEY_FILE). Keep it secret.',
        privateKey.trim(),
        '# The public key: publish it (LICENSE_VERIFY_KEYS_FILE) before switching to this key, keep it after.',
        publicKey.trim(),
      ].join('\n'),
    );
  }
}
