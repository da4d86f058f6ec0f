import { RotateLicenseSigningKey } from '@svc/application';
import { AppConfig } from '@svc/config';
import { kidOf } from '@svc/infrastructure';
import { SubCommand } from 'nest-commander';
import { CliCommand, CommonOptions } from '../shared/cli-command';
import { CliUsageError } from '../shared/cli-usage-error';

/**
 * `license rotate-signing-key` (CONTRACT 19): a new generated signing key in
 * the database, published in the JWKS at once and signing only after
 * LICENSE_KEY_PUBLISH_SECONDS (default 3600, the JWKS cache time), so an SDK
 * holding a cached JWKS has fetched the new key before it meets a token of it.
 * The key it replaces stays published until the last token it signed expired.
 * Every running instance reads the new key within a minute, without a restart.
 * The private key is never printed.
 */
@SubCommand({
  name: 'rotate-signing-key',
  description:
    'make a new generated license signing key: published in the JWKS at once, signing after LICENSE_KEY_PUBLISH_SECONDS (default 3600); ' +
    'the old key stays published until its last token expired; running instances follow within a minute',
})
export class LicenseRotateSigningKeyCommand extends CliCommand {
  constructor(
    private readonly rotate: RotateLicenseSigningKey,
    private readonly config: AppConfig,
  ) {
    super();
  }

  async run(_params: string[], options: CommonOptions = {}): Promise<void> {
    if (this.config.license.signingKey !== null) {
      throw new CliUsageError(
        'LICENSE_SIGNING_KEY (or _FILE) is configured, and a configured key always signs: rotate it by configuration ' +
          '(license keygen, the old public key in LICENSE_VERIFY_KEYS_FILE), or unset it to use generated keys',
      );
    }
    const { added, replaced, removed } = await this.rotate.execute();
    const view = {
      kid: await kidOf(added.privateKey),
      generation: added.generation,
      published_at: added.createdAt.toISOString(),
      signs_from: added.signsFrom.toISOString(),
      replaces: replaced && {
        kid: await kidOf(replaced.key.privateKey),
        generation: replaced.key.generation,
        signs_until: added.signsFrom.toISOString(),
        published_until: replaced.unpublishedAt.toISOString(),
      },
      removed_generations: removed,
    };
    this.print(options, view, () =>
      [
        `New license signing key ${view.kid} (generation ${view.generation}): published now, signs from ${view.signs_from}.`,
        ...(view.replaces
          ? [
              `It replaces ${view.replaces.kid}, which signs until then and stays published until ${view.replaces.published_until} ` +
                '(its last token has expired by then).',
            ]
          : []),
        'Running instances read the new key within a minute; no restart is needed.',
      ].join('\n'),
    );
  }
}
