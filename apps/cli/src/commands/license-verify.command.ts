import { readFile } from 'node:fs/promises';
import { ed25519PublicKeysIn } from '@svc/config';
import { Clock, LicenseSigner } from '@svc/domain';
import { licensePublicKeysOf } from '@svc/infrastructure';
import { JWTVerifyGetKey, createLocalJWKSet, createRemoteJWKSet, decodeProtectedHeader, errors, jwtVerify } from 'jose';
import { Option, SubCommand } from 'nest-commander';
import { CliCommand, CommonOptions } from '../shared/cli-command';
import { CliUsageError } from '../shared/cli-usage-error';

interface LicenseVerifyOptions extends CommonOptions {
  readonly jwks?: string;
}

/**
 * `license verify TOKEN`: checks a license token as an SDK does (signature,
 * algorithm, expiry) against the service's JWKS (`--jwks URL`), a file
 * (`--jwks FILE`: a JWKS or PEM public keys) or, by default, the keys this
 * configuration publishes; prints its header's kid and its claims.
 */
@SubCommand({
  name: 'verify',
  arguments: '<token>',
  argsDescription: { token: 'the license_token an SDK holds' },
  description: 'check a license token against the JWKS (URL or file; default: the configured keys) and print its claims',
})
export class LicenseVerifyCommand extends CliCommand<LicenseVerifyOptions> {
  constructor(
    private readonly signer: LicenseSigner,
    private readonly clock: Clock,
  ) {
    super();
  }

  async run([token]: string[], options: LicenseVerifyOptions = {}): Promise<void> {
    const keys = await this.keySetOf(options.jwks);
    let verified: Awaited<ReturnType<typeof jwtVerify>>;
    try {
      verified = await jwtVerify(token, keys, { algorithms: ['EdDSA'] });
    } catch (error) {
      throw new CliUsageError(`the token does not verify: ${reasonOf(error, token)}`);
    }
    const { payload, protectedHeader } = verified;
    const expiresAt = new Date((payload.exp ?? 0) * 1000).toISOString();
    this.print(options, { valid: true, kid: protectedHeader.kid, claims: payload }, () =>
      [
        `The token verifies (kid ${protectedHeader.kid}); it may be trusted offline until ${expiresAt}.`,
        JSON.stringify(payload, null, 2),
      ].join('\n'),
    );
  }

  @Option({
    flags: '--jwks <url-or-file>',
    description: "the service's JWKS URL (…/v1/license/jwks) or a file (a JWKS or PEM public keys)",
  })
  parseJwks(value: string): string {
    return value;
  }

  private async keySetOf(source: string | undefined): Promise<JWTVerifyGetKey> {
    if (source === undefined) return createLocalJWKSet({ keys: [...(await this.signer.publicKeys(this.clock.now()))] });
    if (/^https?:\/\//.test(source)) return createRemoteJWKSet(new URL(source));
    let text: string;
    try {
      text = await readFile(source, 'utf8');
    } catch {
      throw new CliUsageError(`--jwks ${source} cannot be read`);
    }
    const pems = ed25519PublicKeysIn(text);
    if (pems === null) throw new CliUsageError(`--jwks ${source} holds no Ed25519 public keys (a JWKS or PEM public keys)`);
    return createLocalJWKSet({ keys: await licensePublicKeysOf(pems) });
  }
}

/** Why jose refused the token, in an operator's words. */
function reasonOf(error: unknown, token: string): string {
  if (error instanceof errors.JWTExpired) return `it expired at ${new Date(Number(error.payload.exp) * 1000).toISOString()}`;
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return 'the signature is not one of the published keys (tampered, or signed with another key)';
  if (error instanceof errors.JWKSNoMatchingKey) return `no published key has its kid (${kidOf(token)})`;
  if (error instanceof errors.JOSEAlgNotAllowed) return 'it is not signed with EdDSA';
  if (error instanceof errors.JWKSTimeout || !(error instanceof errors.JOSEError)) return (error as Error).message; // the JWKS URL did not answer
  return `not a valid license token (${(error as Error).message})`;
}

function kidOf(token: string): string {
  try {
    return String(decodeProtectedHeader(token).kid);
  } catch {
    return 'none';
  }
}
