import { type ApiKey, type ApiKeyRepository, InvalidRequestError, KeyNotFoundError } from '@svc/domain';

/** Which license an operator asks about: by one of its keys, or by its id (CONTRACT 16); exactly one of the two. */
export interface LicenseTarget {
  readonly keyId?: string;
  readonly licenseId?: string;
}

/** A license's keys (the chain of rotations), first to last; the key asked by, if any; the key in force (the last). */
export interface LicenseKeys {
  readonly licenseId: string;
  readonly keys: readonly ApiKey[];
  readonly asked: ApiKey | null;
  readonly current: ApiKey;
}

/** The license a target names, with its keys; KEY_NOT_FOUND when no key is (or belongs to) it. */
export async function licenseKeysOf(repository: ApiKeyRepository, target: LicenseTarget): Promise<LicenseKeys> {
  if ((target.keyId === undefined) === (target.licenseId === undefined)) {
    throw new InvalidRequestError('give either key_id or license_id');
  }
  const asked = target.keyId === undefined ? null : await repository.findById(target.keyId);
  if (target.keyId !== undefined && !asked) throw new KeyNotFoundError('API key not found');
  const licenseId = asked ? asked.licenseId : (target.licenseId as string);
  const keys = inChainOrder(await repository.findByLicense(licenseId));
  const current = keys.find((k) => k.rotatedTo === null) ?? keys[keys.length - 1];
  if (!current) throw new KeyNotFoundError('No API key belongs to this license');
  return { licenseId, keys, asked, current };
}

/** A license's keys in the order of the chain (each followed by the key it was rotated to), whatever their clocks said. */
function inChainOrder(keys: readonly ApiKey[]): ApiKey[] {
  const byId = new Map(keys.map((k) => [k.id, k]));
  const ordered: ApiKey[] = [];
  for (let key = keys.find((k) => k.props.rotatedFrom === null || !byId.has(k.props.rotatedFrom)); key && !ordered.includes(key);) {
    ordered.push(key);
    key = key.rotatedTo === null ? undefined : byId.get(key.rotatedTo);
  }
  // anything the links do not reach (never, in a consistent store) keeps the store's order, after the chain
  return [...ordered, ...keys.filter((k) => !ordered.includes(k))];
}
