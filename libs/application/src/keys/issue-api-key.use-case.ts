import { Injectable } from '@nestjs/common';
import { OfflineLicenses } from '../shared/license-snapshot';
import {
  type Actor,
  ApiKey,
  ApiKeyFormat,
  ApiKeyRepository,
  Clock,
  IdGenerator,
  InvalidRequestError,
  isPlainText,
  plainTextRule,
  KeyEnvironment,
  LicenseType,
  MonthlyLimitChoice,
  RandomSource,
  SecretHasher,
  TierCatalog,
  User,
  UserNotFoundError,
  UserRepository,
  defaultExpiryFrom,
  isPlausibleEmail,
  keyIssuedEvent,
  monthlyLimitSettingOf,
} from '@svc/domain';

export interface IssueApiKeyInput {
  readonly userId?: string;
  readonly email?: string;
  readonly name?: string | null;
  readonly organization?: string | null;
  readonly licenseType: LicenseType;
  /** Omitted: `live`. */
  readonly environment?: KeyEnvironment;
  readonly expiresAt?: Date;
  /** Omitted (or `"tier"`): the tier's limit; `null`: unlimited; an integer >= 0: an override. */
  readonly monthlyLimit?: MonthlyLimitChoice;
  /** Who issues it (the audit entry's actor). */
  readonly actor: Actor;
}

export interface IssueApiKeyOutput {
  readonly key: ApiKey;
  /** The plaintext key: returned here once and never stored or shown again. */
  readonly secret: string;
  readonly user: User;
  /** The limit in force: the override, else the tier's; null is unlimited. */
  readonly monthlyLimit: number | null;
}

/** Operators issue keys out of band (CONTRACT 12); a new user is created unless `userId` names one. */
@Injectable()
export class IssueApiKey {
  constructor(
    private readonly format: ApiKeyFormat,
    private readonly hasher: SecretHasher,
    private readonly random: RandomSource,
    private readonly ids: IdGenerator,
    private readonly keys: ApiKeyRepository,
    private readonly users: UserRepository,
    private readonly clock: Clock,
    private readonly catalog: TierCatalog,
    private readonly licenses: OfflineLicenses,
  ) {}

  async execute(input: IssueApiKeyInput): Promise<IssueApiKeyOutput> {
    const environment = input.environment ?? 'live';
    const monthlyLimit = monthlyLimitSettingOf(input.monthlyLimit);
    if (!monthlyLimit) throw new InvalidRequestError('monthly_limit must be an integer >= 0, or null for unlimited');
    if (input.email !== undefined && !isPlausibleEmail(input.email)) {
      throw new InvalidRequestError('email must be an e-mail address');
    }
    // the CLI's too: its options reach here unchecked by the API's DTO
    for (const [field, value] of [
      ['name', input.name],
      ['organization', input.organization],
    ] as const) {
      if (typeof value === 'string' && !isPlainText(value)) throw new InvalidRequestError(plainTextRule(field));
    }
    const now = this.clock.now();
    const user = await this.userFor(input, now);
    const secret = this.format.generate(environment, this.random);
    const id = this.ids.newId('key');
    const key = new ApiKey({
      id,
      userId: user.id,
      digest: this.hasher.digest(secret),
      displayPrefix: ApiKeyFormat.displayPrefixOf(secret),
      environment,
      licenseType: input.licenseType,
      expiresAt: input.expiresAt ?? defaultExpiryFrom(now),
      revokedAt: null,
      monthlyLimit,
      createdAt: now,
      // a new license, whose first key this is (CONTRACT 16)
      licenseId: id,
      rotatedFrom: null,
      rotatedTo: null,
    });
    // the key, its audit entry and its `key.issued` webhook event in one transaction
    await this.keys.insert(key, {
      audit: [
        {
          id: this.ids.newId('aud'),
          at: now,
          action: 'key.issued',
          keyId: key.id,
          reason: null,
          details: { user_id: user.id, license_type: key.licenseType, environment, prefix: key.props.displayPrefix },
          actor: input.actor,
        },
      ],
      events: [keyIssuedEvent(this.ids.newId('wev'), key, now)],
    });
    await this.licenses.signAhead(key, now);
    return { key, secret, user, monthlyLimit: key.monthlyLimitUnder(this.catalog) };
  }

  private async userFor(input: IssueApiKeyInput, now: Date): Promise<User> {
    if (input.userId !== undefined) {
      const existing = await this.users.findById(input.userId);
      if (!existing) throw new UserNotFoundError();
      return existing;
    }
    if (input.email === undefined) throw new InvalidRequestError('email is required unless user_id names an existing user');
    const user: User = {
      id: this.ids.newId('usr'),
      email: input.email,
      name: input.name ?? null,
      organization: input.organization ?? null,
      createdAt: now,
    };
    await this.users.insert(user);
    return user;
  }
}
