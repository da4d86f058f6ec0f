import { Injectable } from '@nestjs/common';
import {
  ApiKey,
  ApiKeyRepository,
  BillingPeriod,
  Clock,
  DeviceRepository,
  KeyNotFoundError,
  KeyStatus,
  KeyUpdateBounds,
  Quota,
  TierCatalog,
  UsageRepository,
  User,
  UserRepository,
  keyUpdateBoundsOf,
  maxDevicesOf,
} from '@svc/domain';

export interface KeyDetails {
  readonly key: ApiKey;
  readonly user: User;
  readonly status: KeyStatus;
  readonly quota: Quota;
  /** How far keys.update alone may move its terms (the rest needs admin: keys.raise_limit, keys.extend_expiry). */
  readonly bounds: KeyUpdateBounds;
  /** Its license's seats (CONTRACT 23), shared by its rotated keys: the override when an operator set one, else the tier's; null: unlimited. */
  readonly maxDevices: { readonly value: number | null; readonly source: 'tier' | 'override' };
}

/** An operator's view of one key: state, terms and this period's quota (its license's); never the key itself. */
@Injectable()
export class ShowApiKey {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly users: UserRepository,
    private readonly usage: UsageRepository,
    private readonly catalog: TierCatalog,
    private readonly clock: Clock,
    private readonly devices: DeviceRepository,
  ) {}

  async execute(keyId: string): Promise<KeyDetails> {
    const key = await this.keys.findById(keyId);
    if (!key) throw new KeyNotFoundError('API key not found');
    return this.detailsOf(key);
  }

  async detailsOf(key: ApiKey): Promise<KeyDetails> {
    const now = this.clock.now();
    const period = BillingPeriod.containing(now);
    const [user, used, devicesOverride] = await Promise.all([
      this.users.findById(key.userId),
      this.usage.usedIn(key.licenseId, period.key),
      this.devices.maxDevicesOverrideOf(key.licenseId),
    ]);
    if (!user) throw new Error(`key ${key.id} has no user ${key.userId}`);
    return {
      key,
      user,
      status: key.statusAt(now),
      quota: new Quota(key.monthlyLimitUnder(this.catalog), used, period),
      bounds: keyUpdateBoundsOf(key, this.catalog, devicesOverride),
      maxDevices: {
        value: maxDevicesOf(this.catalog.devicePolicyOf(key.licenseType), devicesOverride),
        source: devicesOverride === null ? 'tier' : 'override',
      },
    };
  }
}
