import { NO_DEVICE, type WebhookDelivery, type WebhookEndpoint, type WebhookEvent } from '@svc/domain';
import {
  DAY_MS,
  T0,
  makeAnalyticsEvent,
  makeAuditEntry,
  makeStoredLicense,
  randomDigest,
  revokeAlone,
  uniqueId,
  NO_RECORDS,
} from '../factories/domain.factory';
import { describeAnalyticsEventRepositoryContract } from './analytics-event-repository.contract';
import { describeApiKeyRepositoryContract } from './api-key-repository.contract';
import { describeAuditLogContract } from './audit-log.contract';
import { describeDeviceRepositoryContract } from './device-repository.contract';
import {
  describeGeneratedSecretRepositoryContract,
  describeLicenseSigningKeyRepositoryContract,
  makeSigningKey,
} from './generated-secrets.contract';
import { describeKeyChangeContract } from './key-change.contract';
import { describeKeyContextRepositoryContract } from './key-context-repository.contract';
import { describeKeyRotationContract, rotationOf } from './key-rotation.contract';
import { describeKeyDirectoryContract } from './key-directory.contract';
import { describeModelRepositoryContract } from './model-repository.contract';
import { describeOperatorRepositoryContract, seedOperator } from './operator-repository.contract';
import { describeStoredLicenseRepositoryContract } from './stored-license.contract';
import { type MakePersistence, type PersistenceFixture, seedKey } from './persistence-fixture';
import { describeUsageRepositoryContract } from './usage-repository.contract';
import { describeUserRepositoryContract } from './user-repository.contract';
import { describeWebhookPortsContract, makeEndpoint, makeWebhookEvent } from './webhook-ports.contract';

/** Every persistence port's contract, over one adapter family (a database's module, or the in-memory fakes). */
export function describePersistenceContracts(make: MakePersistence): void {
  describeApiKeyRepositoryContract(make);
  describeKeyRotationContract(make);
  describeKeyChangeContract(make);
  describeUserRepositoryContract(make);
  describeUsageRepositoryContract(make);
  describeKeyContextRepositoryContract(make);
  describeAuditLogContract(make);
  describeAnalyticsEventRepositoryContract(make);
  describeModelRepositoryContract(make);
  describeKeyDirectoryContract(make);
  describeOperatorRepositoryContract(make);
  describeGeneratedSecretRepositoryContract(make);
  describeLicenseSigningKeyRepositoryContract(make);
  describeWebhookPortsContract(make);
  describeDeviceRepositoryContract(make);
  describeStoredLicenseRepositoryContract(make);
}

/**
 * Two service instances on one database (two modules, two connections or
 * pools): what one writes the other reads at once, exactly one revocation
 * wins, and consumption through either never passes the limit together nor
 * loses an increment; an outbox event is fanned out, a delivery claimed, a
 * generated secret or signing key kept, a signed license stored and claimed,
 * and an owner removed by only one of them; activations through both take no
 * more seats than are free. `open` makes another instance on the same, empty database.
 */
export function describeSharedDatabaseContract(open: () => Promise<PersistenceFixture>): void {
  describe('two service instances sharing one database', () => {
    let one: PersistenceFixture;
    let two: PersistenceFixture;
    beforeEach(async () => {
      one = await open();
      two = await open();
    });
    afterEach(async () => {
      await one?.dispose();
      await two?.dispose();
    });

    it('see a revocation at once, and only one of them wins it', async () => {
      const key = await seedKey(one);
      await expect(two.keys.findByDigest(key.props.digest)).resolves.not.toBeNull();

      const results = await Promise.all([revokeAlone(one.keys, key.id, T0), revokeAlone(two.keys, key.id, T0)]);

      expect(results.filter(Boolean)).toHaveLength(1);
      expect((await two.keys.findByDigest(key.props.digest))?.revokedAt).toEqual(T0);
      expect((await one.keys.findById(key.id))?.revokedAt).toEqual(T0);
    });

    it('of rotations of one key racing on both, exactly one wins (CONTRACT 16)', async () => {
      const key = await seedKey(one);
      const rotations = Array.from({ length: 10 }, () => rotationOf(key));
      const results = await Promise.all(rotations.map((r, i) => (i % 2 === 0 ? one : two).keys.rotate(r, NO_RECORDS)));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await two.keys.findByLicense(key.id)).toHaveLength(2);
    });

    it('never pass the limit together, and lose no increment', async () => {
      const key = await seedKey(one);
      await one.seedUsage(key.id, '2026-03', 70);

      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          (i % 2 === 0 ? one : two).events.appendConsuming(makeAnalyticsEvent({ keyId: key.id, period: '2026-03' }), 1, 100),
        ),
      );

      expect(results.filter((r) => r !== null)).toHaveLength(30);
      await expect(two.usage.usedIn(key.id, '2026-03')).resolves.toBe(100);
    });

    it('store exactly the events the limit lets through when both append to a fresh period at once', async () => {
      const key = await seedKey(one);

      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          (i % 2 === 0 ? one : two).events.appendConsuming(makeAnalyticsEvent({ keyId: key.id, period: '2026-04' }), 1, 25),
        ),
      );

      expect(results.filter((r) => r !== null)).toHaveLength(25);
      await expect(one.usage.usedIn(key.id, '2026-04')).resolves.toBe(25);
      expect((await two.events.breakdown(key.id, '2026-04')).byEventType.inference).toBe(25);
    });

    it('fan each outbox event out once, and claim each due delivery for one of them, when both work at once', async () => {
      const [hooksOne, hooksTwo] = [one.webhooks!, two.webhooks!];
      const endpoint = makeEndpoint({ events: ['key.issued'] });
      await hooksOne.endpoints.create(endpoint, makeAuditEntry({ action: 'webhook.created', keyId: null }));
      const events = Array.from({ length: 16 }, (_, i) => makeWebhookEvent('key.issued', { occurredAt: new Date(T0.getTime() + i) }));
      await hooksTwo.outbox.record(events);
      const deliveriesOf = (event: WebhookEvent, endpoints: readonly WebhookEndpoint[]): WebhookDelivery[] =>
        endpoints.map((e) => ({
          id: uniqueId('msg'),
          endpointId: e.id,
          eventId: event.id,
          eventType: event.type,
          body: '{}',
          status: 'pending',
          attempts: 0,
          nextAttemptAt: T0,
          lastAttemptAt: null,
          lastStatusCode: null,
          lastError: null,
          createdAt: T0,
        }));
      const fanned = await Promise.all(
        Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? hooksOne : hooksTwo).outbox.fanOut(4, deliveriesOf, T0)),
      );
      const rest = await hooksOne.outbox.fanOut(100, deliveriesOf, T0);
      expect(fanned.reduce((a, b) => a + b, 0) + rest).toBe(events.length);
      const leaseUntil = new Date(T0.getTime() + 30_000);
      const claims = await Promise.all(
        Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? hooksOne : hooksTwo).deliveries.claimDue(`owner-${i}`, T0, leaseUntil, 5, [])),
      );
      const claimed = claims.flatMap((claim) => claim.map((c) => c.delivery.id));
      expect(new Set(claimed).size).toBe(claimed.length);
      // a claim takes at most one delivery per endpoint: the rest, one claim after another
      const left: string[] = [];
      for (let round = 0; round < events.length; round++) {
        const next = await hooksTwo.deliveries.claimDue(`owner-last-${round}`, T0, leaseUntil, 100, []);
        if (next.length === 0) break;
        left.push(...next.map((c) => c.delivery.id));
      }
      expect(new Set([...claimed, ...left]).size).toBe(events.length);
      expect(claimed.length + left.length).toBe(events.length);
    });

    it('keep one generated secret and one signing key per generation of those both write at once', async () => {
      const values = Array.from({ length: 8 }, (_, i) => `secret-${i}`);
      const answers = await Promise.all(values.map((v, i) => (i % 2 === 0 ? one : two).secrets.keepFirst('shared', v, T0)));
      expect(new Set(answers).size).toBe(1);
      await expect(one.secrets.find('shared')).resolves.toBe(answers[0]);
      const keys = Array.from({ length: 8 }, () => makeSigningKey(1));
      const kept = await Promise.all(keys.map((key, i) => (i % 2 === 0 ? one : two).signingKeys.addIfAbsent(key)));
      expect(kept.filter(Boolean)).toHaveLength(1);
      await expect(two.signingKeys.list()).resolves.toEqual([keys[kept.indexOf(true)]]);
    });

    it('store one of the licenses both sign at once, and claim it for one of them', async () => {
      const key = await seedKey(one);
      const signed = Array.from({ length: 8 }, (_, i) => makeStoredLicense({ refreshAt: new Date(T0.getTime() + i * 1000) }));
      const stored = await Promise.all(signed.map((license, i) => (i % 2 === 0 ? one : two).storedLicenses.replace(key.id, null, license)));
      expect(stored.filter(Boolean)).toHaveLength(1);
      const kept = signed[stored.indexOf(true)];
      await expect(two.storedLicenses.find(key.id)).resolves.toEqual(kept);
      const until = new Date(T0.getTime() + DAY_MS);
      const claims = await Promise.all(
        Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? one : two).storedLicenses.claim(key.id, NO_DEVICE, kept.refreshAt, until)),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect((await one.storedLicenses.find(key.id))?.refreshAt).toEqual(until);
    });

    // On two SQLite connections in one process too: their transactions on the file take turns
    // (SqliteStatements.inTurn), so none waits in better-sqlite3's busy wait, which would hold the one
    // event loop the other transaction needs to commit.
    it('activate no more devices through both than there are free seats', async () => {
      const key = await seedKey(one);
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 === 0 ? one : two).devices.activate(
            {
              id: uniqueId('dev'),
              licenseId: key.licenseId,
              fingerprintDigest: randomDigest(),
              name: null,
              platform: null,
              at: T0,
              maxDevices: 3,
              heldSince: null,
            },
            () => ({ audit: [], events: [] }),
          ),
        ),
      );
      expect(outcomes.filter((o) => o.kind === 'activated')).toHaveLength(3);
      expect(await two.devices.listByLicense(key.licenseId)).toHaveLength(3);
      await expect(one.devices.countNotDeactivated()).resolves.toBe(3);
    });

    it('remove owners at once through both, leaving one enabled owner', async () => {
      // rounds of the last two owners demoting each other, one through each instance: one is refused each time
      let survivor = (await seedOperator(one, { name: 'First', role: 'owner' })).operator;
      for (let round = 0; round < 6; round++) {
        const newcomer = (await seedOperator(two, { name: `Owner ${round}`, role: 'owner' })).operator;
        const results = await Promise.all([
          one.operators.update(survivor.id, { role: 'admin' }, T0, true),
          two.operators.update(newcomer.id, { disabled: true }, T0, true),
        ]);
        expect({ round, refused: results.filter((r) => r === 'last_owner').length }).toEqual({ round, refused: 1 });
        const owners = (await two.operators.list()).filter((o) => o.role === 'owner' && o.disabledAt === null);
        expect(owners).toHaveLength(1);
        survivor = owners[0];
      }
    });
  });
}
