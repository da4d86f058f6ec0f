import { randomBytes } from 'node:crypto';
import {
  type AnalyticsEvent,
  ApiKey,
  type ApiKeyRepository,
  type ApiKeyProps,
  type AuditEntry,
  type KeyChangeRecords,
  IdGenerator,
  type IdKind,
  type KeyEnvironment,
  type Model,
  RandomSource,
  type StoredLicense,
  TierCatalog,
  type User,
} from '@svc/domain';
import shippedTiers from '../../config/tiers.json';

/**
 * Pure builders with sensible defaults (STYLE 9): `makeApiKey({ revokedAt })`.
 * Ids and digests are unique across processes, so suites may share a database.
 */

/** A mid-month instant, far from any period boundary. */
export const T0 = new Date('2026-03-15T12:00:00.000Z');

export const DAY_MS = 86_400_000;

const RUN = randomBytes(4).toString('hex');
let counter = 0;

/** `<kind>_<run><counter>`: unique, at most 40 characters (the id columns). */
export function uniqueId(kind: string): string {
  counter += 1;
  return `${kind}_${RUN}${counter.toString(36).padStart(6, '0')}`;
}

/** 64 hex characters, as a SHA-256 digest would be. */
export function randomDigest(): string {
  return randomBytes(32).toString('hex');
}

/** A well-formed key plaintext: `<prefix>_<environment>_<48 lowercase hex>`. */
export function makeSecret(options: { prefix?: string; environment?: KeyEnvironment; hex?: string } = {}): string {
  const hex = options.hex ?? randomBytes(24).toString('hex');
  return `${options.prefix ?? 'svc'}_${options.environment ?? 'live'}_${hex}`;
}

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: uniqueId('usr'),
    email: 'ada@example.org',
    name: 'Ada Lovelace',
    organization: 'Analytical Engines Ltd',
    createdAt: T0,
    ...overrides,
  };
}

/** An active research key issued at T0 that expires a year later, following its tier's limit; its own license. */
export function makeApiKey(overrides: Partial<ApiKeyProps> = {}): ApiKey {
  const id = overrides.id ?? uniqueId('key');
  return new ApiKey({
    id,
    userId: uniqueId('usr'),
    digest: randomDigest(),
    displayPrefix: 'svc_live_0a1',
    environment: 'live',
    licenseType: 'research',
    expiresAt: new Date(T0.getTime() + 365 * DAY_MS),
    revokedAt: null,
    monthlyLimit: { source: 'tier' },
    createdAt: T0,
    licenseId: id,
    rotatedFrom: null,
    rotatedTo: null,
    ...overrides,
  });
}

export function makeAuditEntry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: uniqueId('aud'),
    at: T0,
    action: 'key.issued',
    keyId: uniqueId('key'),
    reason: null,
    actor: { type: 'system' },
    details: null,
    ...overrides,
  };
}

/** A key change's records when a test does not look at them. */
export const NO_RECORDS: KeyChangeRecords = Object.freeze({ audit: [] });

/** Test setup: revokes a key alone, with no records (what a revocation writes is KeyRevocation's, checked where it is tested). */
export function revokeAlone(keys: ApiKeyRepository, keyId: string, at: Date): Promise<boolean> {
  return keys.revoke({ keyId, at, predecessorsInGrace: [] }, () => NO_RECORDS);
}

/** The tier matrix the service ships with (`config/tiers.json`). */
export function shippedTierCatalog(): TierCatalog {
  return TierCatalog.fromSource(shippedTiers);
}

/** `key_000001`, `key_000002`, ...: predictable ids for use-case tests. */
export class SequentialIdGenerator extends IdGenerator {
  private next = 0;

  newId(kind: IdKind): string {
    this.next += 1;
    return `${kind}_${String(this.next).padStart(6, '0')}`;
  }
}

/**
 * A predictable stand-in for the cryptographic source: each call answers the
 * next queued hex string, or else a counter rendered as `bytes` of hex.
 */
export class ScriptedRandomSource extends RandomSource {
  readonly requests: number[] = [];
  private calls = 0;

  constructor(private readonly queued: string[] = []) {
    super();
  }

  hex(bytes: number): string {
    this.requests.push(bytes);
    this.calls += 1;
    return this.queued.shift() ?? this.calls.toString(16).padStart(bytes * 2, '0');
  }
}

/** A stored model record with a file, published to `free` keys; override what the test is about. */
export function makeModel(overrides: Partial<Model> = {}): Model {
  return {
    name: 'motor_imagery_4class_v1',
    version: '1.0.0',
    type: 'SvcLDA',
    paradigm: 'motor_imagery',
    nFeatures: 24,
    nClasses: 4,
    downloadUrl: null,
    requiresLicense: 'free',
    ownerUserId: null,
    metadata: { description: 'd', training_subjects: 9, accuracy: '0.70-0.80', feature_type: 'csp', recommended_use: 'r' },
    storedFile: 'motor_imagery_4class_v1-1.0.0-000000000000000000000000.bin',
    checksum: `sha256:${'a'.repeat(64)}`,
    sizeBytes: 1234567,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

/**
 * A successful batch inference of key `keyId` received at T0 (period 2026-03), counted on the key's
 * own license unless `licenseId` says otherwise; override what the test is about.
 */
export function makeAnalyticsEvent(overrides: Partial<AnalyticsEvent> & Pick<AnalyticsEvent, 'keyId'>): AnalyticsEvent {
  return {
    id: uniqueId('evt'),
    licenseId: overrides.keyId,
    keyPrefix: 'svc_live_abcd',
    environment: 'live',
    eventType: 'inference',
    modelName: 'motor_imagery_4class_v1',
    inferenceType: 'batch',
    durationMs: 12.5,
    success: true,
    errorMessage: null,
    metadata: null,
    period: '2026-03',
    receivedAt: T0,
    occurredAt: overrides.receivedAt ?? T0,
    batched: false,
    ...overrides,
  };
}

/**
 * A signed license as the store keeps it, signed at T0 by `kid-1` and due for re-signing half a day
 * later; its token and terms are unique, so a test tells stored licenses apart by them.
 */
export function makeStoredLicense(overrides: Partial<StoredLicense> = {}): StoredLicense {
  const id = uniqueId('tok');
  return {
    token: `eyJhbGciOiJFZERTQSJ9.${id}.c2ln`,
    kid: 'kid-1',
    terms: JSON.stringify([id, 'research', ['realtime'], 50000]),
    signedAt: T0,
    refreshAt: new Date(T0.getTime() + DAY_MS / 2),
    ...overrides,
  };
}
