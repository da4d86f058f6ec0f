import { OfflineLicenses } from '@svc/application';
import { type DeviceRepository, LicenseSigner, type LicensePublicKey, type OfflineLicense, OfflineLicensePolicy } from '@svc/domain';
import { type InMemoryApiKeyRepository } from '../in-memory/in-memory-api-key.repository';
import { InMemoryAuditLog } from '../in-memory/in-memory-audit-log';
import { InMemoryDeviceRepository } from '../in-memory/in-memory-device.repository';
import { InMemoryStoredLicenseRepository } from '../in-memory/in-memory-stored-license.repository';
import { shippedTierCatalog } from './domain.factory';

/**
 * Counts signatures; a token names its license's key, terms and issue time. The
 * signing key is `kid`; `published` the kids the JWKS lists (the signing one by default).
 */
export class CountingSigner extends LicenseSigner {
  signed = 0;
  kid = 'first';
  published: string[] | null = null;

  async sign(license: OfflineLicense): Promise<string> {
    this.signed += 1;
    return `${this.kid}.${license.keyId}.${license.licenseType}.${license.monthlyLimit}.${license.issuedAt.getTime()}`;
  }

  async signingKeyAt(): Promise<string> {
    return this.kid;
  }

  async publicKeys(): Promise<readonly LicensePublicKey[]> {
    return (this.published ?? [this.kid]).map((kid) => ({ kty: 'OKP', crv: 'Ed25519', x: '', kid, alg: 'EdDSA', use: 'sig' }));
  }
}

/** OfflineLicenses over in-memory stored licenses (whose keys `keys` holds), the shipped tiers, `signer` and `devices` (none active by default). */
export function offlineLicensesOver(
  keys: InMemoryApiKeyRepository,
  signer: LicenseSigner = new CountingSigner(),
  ttlSeconds = 3600,
  devices: DeviceRepository = new InMemoryDeviceRepository(keys, new InMemoryAuditLog()),
): { licenses: OfflineLicenses; stored: InMemoryStoredLicenseRepository } {
  const stored = new InMemoryStoredLicenseRepository(keys);
  return { licenses: new OfflineLicenses(new OfflineLicensePolicy(ttlSeconds), signer, stored, shippedTierCatalog(), devices), stored };
}
