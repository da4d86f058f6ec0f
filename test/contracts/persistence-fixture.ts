import { type KeyDirectory, type UnitOfWork } from '@svc/application';
import {
  type AnalyticsEventRepository,
  type ApiKeyRepository,
  type AuditLog,
  type DeviceRepository,
  type GeneratedSecretRepository,
  type KeyContextRepository,
  type LicenseSigningKeyRepository,
  type ModelRepository,
  type OperatorRepository,
  type StoredLicenseRepository,
  type UsageRepository,
  type UserRepository,
  type WebhookDeliveryQueue,
  type WebhookEndpointRepository,
  type WebhookOutbox,
} from '@svc/domain';
import { makeApiKey, makeUser } from '../factories/domain.factory';

/** The webhook ports, over one store. */
export interface WebhookPorts {
  readonly endpoints: WebhookEndpointRepository;
  readonly outbox: WebhookOutbox;
  readonly deliveries: WebhookDeliveryQueue;
  /**
   * Test setup only: writes `stored` as an endpoint's secret column, as it would be in the database (e.g.
   * sealed under a SECRETS_KEY this store lacks); answers the value it replaced.
   */
  storeSecret(endpointId: string, stored: string): Promise<string>;
}

/**
 * What a contract suite needs from an adapter family: the ports, over a store
 * that starts empty, and a way to let go of it. The suites know nothing of
 * the database behind them, so in-memory, SQLite and PostgreSQL specs all
 * pass the same kind of factory.
 */
export interface PersistenceFixture {
  readonly keys: ApiKeyRepository;
  readonly users: UserRepository;
  readonly usage: UsageRepository;
  readonly audit: AuditLog;
  /** Validate's one read, over the same store as the ports above. */
  readonly contexts: KeyContextRepository;
  /** Events consume from the same counters as `usage`. */
  readonly events: AnalyticsEventRepository;
  readonly models: ModelRepository;
  /** The operators' reads across keys, over the same store. */
  readonly directory: KeyDirectory;
  readonly operators: OperatorRepository;
  readonly secrets: GeneratedSecretRepository;
  readonly signingKeys: LicenseSigningKeyRepository;
  /** The licenses' devices; a device names its license by the id of the license's first key. */
  readonly devices: DeviceRepository;
  /** The keys' signed licenses; the refresh job's reads join the keys of `keys`. */
  readonly storedLicenses: StoredLicenseRepository;
  /** A change and its notices in one transaction, over the same store (`events`, and the outbox of `webhooks`). */
  readonly unitOfWork: UnitOfWork;
  /** The endpoints, the outbox and the deliveries: SQL databases only (null on the in-memory adapters, which have none). */
  readonly webhooks: WebhookPorts | null;
  /**
   * Test setup only: stores a period's counter as already `used`, beside the
   * ports (no port consumes without an event).
   */
  seedUsage(keyId: string, period: string, used: number): Promise<void>;
  /** Closes connections and removes files; called after each test. */
  dispose(): Promise<void>;
}

/** Called before each test; must give an empty store. */
export type MakePersistence = () => Promise<PersistenceFixture>;

/**
 * Wires the contract's `beforeEach`/`afterEach` and gives each test its fixture.
 * Use inside a `describe`.
 */
export function useFixture(make: MakePersistence): () => PersistenceFixture {
  let current: PersistenceFixture | undefined;
  beforeEach(async () => {
    current = await make();
  });
  afterEach(async () => {
    await current?.dispose();
    current = undefined;
  });
  return () => {
    if (!current) throw new Error('the fixture is only available inside a test');
    return current;
  };
}

/** Stores a user and a key of theirs through the ports (SQL stores enforce the references). */
export async function seedKey(
  f: Pick<PersistenceFixture, 'keys' | 'users'>,
  overrides: Parameters<typeof makeApiKey>[0] = {},
): Promise<ReturnType<typeof makeApiKey>> {
  const user = makeUser();
  await f.users.insert(user);
  const key = makeApiKey({ userId: user.id, ...overrides });
  await f.keys.insert(key);
  return key;
}
