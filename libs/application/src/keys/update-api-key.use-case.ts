import { Injectable } from '@nestjs/common';
import {
  type Actor,
  ApiKey,
  ApiKeyProps,
  ApiKeyRepository,
  AuditLog,
  Clock,
  DeviceRepository,
  IdGenerator,
  InvalidRequestError,
  KeyNotFoundError,
  KeyRevokedError,
  KeyRotatedError,
  LicenseType,
  MAX_DEVICES_RULE,
  type MaxDevicesOverride,
  MonthlyLimitChoice,
  Role,
  TierCatalog,
  assertTermChangeAllowed,
  isMaxDevices,
  monthlyLimitSettingOf,
  toSecondTimestamp,
} from '@svc/domain';
import { OfflineLicenses } from '../shared/license-snapshot';
import { KeyDetails, ShowApiKey } from './show-api-key.use-case';

export interface UpdateApiKeyInput {
  readonly keyId: string;
  /** Each of the three is changed when given (not `undefined`) and left alone otherwise. */
  readonly licenseType?: LicenseType;
  readonly expiresAt?: Date;
  /** An integer >= 0, `null` (unlimited) or `"tier"` (back to the tier's). */
  readonly monthlyLimit?: MonthlyLimitChoice;
  /**
   * The license's `max_devices` override (CONTRACT 23): an integer >= 0, or `null` (back to the tier's).
   * The license's, so every key of it sees it; lowering it below the active count is allowed (no new
   * activation until fewer are active).
   */
  readonly maxDevices?: MaxDevicesOverride;
  /** Who changes it (the audit entry's actor). */
  readonly actor: Actor;
  /**
   * The caller's role, which decides how far the terms may move (the domain's
   * assertTermChangeAllowed): the operator's; `owner` for ADMIN_TOKEN and the CLI.
   */
  readonly role: Role;
}

/** A `max_devices` override as the audit entry records it, as the monthly limit's setting is: its source and number. */
function maxDevicesSettingOf(override: MaxDevicesOverride): { source: 'tier' } | { source: 'override'; max_devices: number } {
  return override === null ? { source: 'tier' } : { source: 'override', max_devices: override };
}

/**
 * Tier changes, expiry and limit overrides, requested out of band. A revoked
 * key is frozen; so is a key already rotated (its successor holds the
 * license, CONTRACT 16): a change of tier or limit made to the license's
 * current key reaches its predecessors still in their grace, so the keys of
 * one license never answer different terms. A tier change, a limit above the
 * tier's and an expiry far past the current one need more than keys.update
 * (assertTermChangeAllowed, judged on the key as stored).
 */
@Injectable()
export class UpdateApiKey {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly show: ShowApiKey,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly catalog: TierCatalog,
    private readonly licenses: OfflineLicenses,
    private readonly devices: DeviceRepository,
  ) {}

  async execute(input: UpdateApiKeyInput): Promise<KeyDetails> {
    const changes: { -readonly [K in 'licenseType' | 'expiresAt' | 'monthlyLimit']?: ApiKeyProps[K] } = {};
    if (input.licenseType !== undefined) changes.licenseType = input.licenseType;
    if (input.expiresAt !== undefined) changes.expiresAt = input.expiresAt;
    if (input.monthlyLimit !== undefined) {
      const setting = monthlyLimitSettingOf(input.monthlyLimit);
      if (!setting) throw new InvalidRequestError('monthly_limit must be an integer >= 0, null for unlimited, or "tier"');
      changes.monthlyLimit = setting;
    }
    if (input.maxDevices !== undefined && input.maxDevices !== null && !isMaxDevices(input.maxDevices)) {
      throw new InvalidRequestError(MAX_DEVICES_RULE);
    }
    const key = await this.keys.findById(input.keyId);
    if (!key) throw new KeyNotFoundError('API key not found');
    if (key.revokedAt) throw new KeyRevokedError();
    if (key.rotatedTo !== null) throw new KeyRotatedError();
    const devicesBefore = input.maxDevices === undefined ? null : await this.devices.maxDevicesOverrideOf(key.licenseId);
    const maxDevices = input.maxDevices === undefined ? undefined : { to: input.maxDevices, current: devicesBefore };
    assertTermChangeAllowed(input.role, key, { ...changes, maxDevices }, this.catalog);
    const updated = key.with(changes);
    let graceKeys: string[] = [];
    if (Object.keys(changes).length > 0 || maxDevices === undefined) {
      if (!(await this.keys.updateTerms(updated))) throw new KeyRevokedError();
      graceKeys = await this.followedByGraceKeys(updated, changes);
      // the licenses that now say something else, signed at once (a grace key's too); max_devices alone changes
      // no license's claims (the offline license names the device, not the seats), so it signs nothing
      const signedAt = this.clock.now();
      await this.licenses.signAhead(updated, signedAt);
      for (const id of graceKeys) {
        const followed = await this.keys.findById(id);
        if (followed) await this.licenses.signAhead(followed, signedAt);
      }
    }
    if (maxDevices !== undefined) await this.devices.setMaxDevicesOverride(key.licenseId, maxDevices.to);
    await this.audit.append({
      id: this.ids.newId('aud'),
      at: this.clock.now(),
      action: 'key.updated',
      keyId: key.id,
      reason: null,
      details: {
        ...(changes.licenseType ? { license_type: { from: key.licenseType, to: changes.licenseType } } : {}),
        ...(changes.expiresAt ? { expires_at: { from: toSecondTimestamp(key.expiresAt), to: toSecondTimestamp(changes.expiresAt) } } : {}),
        ...(changes.monthlyLimit ? { monthly_limit: { from: key.props.monthlyLimit, to: changes.monthlyLimit } } : {}),
        ...(maxDevices ? { max_devices: { from: maxDevicesSettingOf(maxDevices.current), to: maxDevicesSettingOf(maxDevices.to) } } : {}),
        ...(graceKeys.length > 0 ? { grace_keys: graceKeys } : {}),
      },
      actor: input.actor,
    });
    return this.show.detailsOf(updated);
  }

  /** The predecessors in their grace that took the new tier or limit too (never the expiry: theirs is the grace). */
  private async followedByGraceKeys(
    current: ApiKey,
    changes: Partial<Pick<ApiKeyProps, 'licenseType' | 'monthlyLimit'>>,
  ): Promise<string[]> {
    if (current.props.rotatedFrom === null || (changes.licenseType === undefined && changes.monthlyLimit === undefined)) return [];
    const followed: string[] = [];
    for (const predecessor of await this.keys.findByLicense(current.licenseId)) {
      if (predecessor.rotatedTo === null || predecessor.revokedAt) continue;
      const terms = { licenseType: current.licenseType, monthlyLimit: current.props.monthlyLimit };
      if (await this.keys.updateTerms(predecessor.with(terms))) followed.push(predecessor.id);
    }
    return followed;
  }
}
