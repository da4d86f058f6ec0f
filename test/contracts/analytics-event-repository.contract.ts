import { AnalyticsEventRepository, type EventCount, type UsageBreakdown, tallyUsage } from '@svc/domain';
import { makeAnalyticsEvent } from '../factories/domain.factory';
import { type MakePersistence, type PersistenceFixture, seedKey, useFixture } from './persistence-fixture';
import { expectRefused } from './refused';

const MARCH = '2026-03';
const APRIL = '2026-04';

/** What `breakdown` answers for a key and period without events. */
const EMPTY: UsageBreakdown = {
  byKey: {},
  byEventType: { inference: 0, model_load: 0, error: 0 },
  byModel: {},
  byOutcome: { success: 0, failure: 0, unreported: 0 },
};

/**
 * The behaviour every AnalyticsEventRepository adapter must share: the event
 * and its consumption in one atomic step (refused: nothing stored, nothing
 * counted), over the same counters as the UsageRepository of the fixture.
 */
export function describeAnalyticsEventRepositoryContract(make: MakePersistence): void {
  describe(`${AnalyticsEventRepository.name} contract`, () => {
    const fixture = useFixture(make);

    async function keyIn(f: PersistenceFixture): Promise<string> {
      return (await seedKey(f)).id;
    }

    /** Brings a counter to `used` through the usage port (which the events share). */
    async function consumeTo(f: PersistenceFixture, keyId: string, period: string, used: number): Promise<void> {
      if (used > 0) await f.seedUsage(keyId, period, used);
    }

    /** How many events `breakdown` counts for the key and period. */
    async function storedCount(f: PersistenceFixture, keyId: string, period: string): Promise<number> {
      const { byEventType } = await f.events.breakdown(keyId, period);
      return byEventType.inference + byEventType.model_load + byEventType.error;
    }

    describe('appendConsuming', () => {
      it('stores the event, consumes its cost and answers the new total', async () => {
        const f = fixture();
        const key = await keyIn(f);

        await expect(f.events.appendConsuming(makeAnalyticsEvent({ keyId: key }), 1, 10)).resolves.toBe(1);
        await expect(f.events.appendConsuming(makeAnalyticsEvent({ keyId: key }), 3, 10)).resolves.toBe(4);

        await expect(f.usage.usedIn(key, MARCH)).resolves.toBe(4);
        await expect(f.events.breakdown(key, MARCH)).resolves.toEqual({
          ...EMPTY,
          byKey: { [key]: 2 },
          byEventType: { inference: 2, model_load: 0, error: 0 },
          byModel: { motor_imagery_4class_v1: 2 },
          byOutcome: { success: 2, failure: 0, unreported: 0 },
        });
      });

      it('consumes from the same counter as the usage port', async () => {
        const f = fixture();
        const key = await keyIn(f);
        await consumeTo(f, key, MARCH, 7);

        await expect(f.events.appendConsuming(makeAnalyticsEvent({ keyId: key }), 1, 10)).resolves.toBe(8);
        await expect(f.usage.usedIn(key, MARCH)).resolves.toBe(8);
      });

      it('reaches the limit exactly, then refuses, storing and counting nothing', async () => {
        const f = fixture();
        const key = await keyIn(f);
        await consumeTo(f, key, MARCH, 9);

        await expect(f.events.appendConsuming(makeAnalyticsEvent({ keyId: key }), 1, 10)).resolves.toBe(10);
        await expect(f.events.appendConsuming(makeAnalyticsEvent({ keyId: key }), 1, 10)).resolves.toBeNull();

        await expect(f.usage.usedIn(key, MARCH)).resolves.toBe(10);
        await expect(storedCount(f, key, MARCH)).resolves.toBe(1);
      });

      it('refuses a cost that would pass the limit even when some is left', async () => {
        const f = fixture();
        const key = await keyIn(f);
        await consumeTo(f, key, MARCH, 8);

        await expect(f.events.appendConsuming(makeAnalyticsEvent({ keyId: key }), 3, 10)).resolves.toBeNull();

        await expect(f.usage.usedIn(key, MARCH)).resolves.toBe(8);
        await expect(f.events.breakdown(key, MARCH)).resolves.toEqual(EMPTY);
      });

      it.each([
        ['a first cost above the limit', 5, 4],
        ['anything under a limit of 0', 1, 0],
      ])('refuses %s, storing and counting nothing', async (_, cost, limit) => {
        const f = fixture();
        const key = await keyIn(f);

        await expect(f.events.appendConsuming(makeAnalyticsEvent({ keyId: key }), cost, limit)).resolves.toBeNull();

        await expect(f.usage.usedIn(key, MARCH)).resolves.toBe(0);
        await expect(f.events.breakdown(key, MARCH)).resolves.toEqual(EMPTY);
      });

      it('stores a zero-cost event and answers the current total, even with the quota used up', async () => {
        const f = fixture();
        const key = await keyIn(f);
        await consumeTo(f, key, MARCH, 10);

        await expect(f.events.appendConsuming(makeAnalyticsEvent({ keyId: key, eventType: 'model_load' }), 0, 10)).resolves.toBe(10);

        await expect(f.usage.usedIn(key, MARCH)).resolves.toBe(10);
        expect((await f.events.breakdown(key, MARCH)).byEventType).toEqual({ inference: 0, model_load: 1, error: 0 });
      });

      it('stores a zero-cost event even when the limit was lowered below what is used', async () => {
        const f = fixture();
        const key = await keyIn(f);
        await consumeTo(f, key, MARCH, 50);

        await expect(f.events.appendConsuming(makeAnalyticsEvent({ keyId: key, eventType: 'error' }), 0, 20)).resolves.toBe(50);

        await expect(f.usage.usedIn(key, MARCH)).resolves.toBe(50);
        expect((await f.events.breakdown(key, MARCH)).byEventType).toEqual({ inference: 0, model_load: 0, error: 1 });
      });

      it('stores a zero-cost event on a counter never consumed, answering 0 and counting nothing', async () => {
        const f = fixture();
        const key = await keyIn(f);

        await expect(f.events.appendConsuming(makeAnalyticsEvent({ keyId: key, eventType: 'model_load' }), 0, 0)).resolves.toBe(0);

        await expect(f.usage.usedIn(key, MARCH)).resolves.toBe(0);
        await expect(storedCount(f, key, MARCH)).resolves.toBe(1);
      });

      it('never refuses without a limit, and still counts', async () => {
        const f = fixture();
        const key = await keyIn(f);
        await consumeTo(f, key, MARCH, 3_000_000_000);

        await expect(f.events.appendConsuming(makeAnalyticsEvent({ keyId: key }), 1, null)).resolves.toBe(3_000_000_001);
        await expect(f.events.appendConsuming(makeAnalyticsEvent({ keyId: key }), 1, null)).resolves.toBe(3_000_000_002);

        await expect(f.usage.usedIn(key, MARCH)).resolves.toBe(3_000_000_002);
        await expect(storedCount(f, key, MARCH)).resolves.toBe(2);
      });

      it("keeps periods apart: the event's period is the one consumed and counted", async () => {
        const f = fixture();
        const key = await keyIn(f);
        await consumeTo(f, key, MARCH, 10);

        await expect(f.events.appendConsuming(makeAnalyticsEvent({ keyId: key, period: MARCH }), 1, 10)).resolves.toBeNull();
        await expect(f.events.appendConsuming(makeAnalyticsEvent({ keyId: key, period: APRIL }), 1, 10)).resolves.toBe(1);

        await expect(f.usage.usedIn(key, MARCH)).resolves.toBe(10);
        await expect(f.usage.usedIn(key, APRIL)).resolves.toBe(1);
        await expect(storedCount(f, key, MARCH)).resolves.toBe(0);
        await expect(storedCount(f, key, APRIL)).resolves.toBe(1);
      });

      it('keeps keys apart', async () => {
        const f = fixture();
        const a = await keyIn(f);
        const b = await keyIn(f);
        await consumeTo(f, a, MARCH, 7);
        await expect(f.events.appendConsuming(makeAnalyticsEvent({ keyId: a }), 3, 10)).resolves.toBe(10);

        await expect(f.events.appendConsuming(makeAnalyticsEvent({ keyId: b }), 1, 1)).resolves.toBe(1);

        await expect(f.usage.usedIn(a, MARCH)).resolves.toBe(10);
        await expect(f.usage.usedIn(b, MARCH)).resolves.toBe(1);
        await expect(storedCount(f, a, MARCH)).resolves.toBe(1);
        await expect(storedCount(f, b, MARCH)).resolves.toBe(1);
      });

      it('fails on an event id already stored, counting nothing for it', async () => {
        const f = fixture();
        const key = await keyIn(f);
        const event = makeAnalyticsEvent({ keyId: key });
        await expect(f.events.appendConsuming(event, 1, 10)).resolves.toBe(1);

        await expectRefused(f.events.appendConsuming({ ...event }, 1, 10));

        await expect(f.usage.usedIn(key, MARCH)).resolves.toBe(1);
        await expect(storedCount(f, key, MARCH)).resolves.toBe(1);
      });

      it('lets exactly 30 of 100 concurrent events through when 30 are left, storing exactly those', async () => {
        const f = fixture();
        const key = await keyIn(f);
        await consumeTo(f, key, MARCH, 70);

        const results = await Promise.all(
          Array.from({ length: 100 }, () => f.events.appendConsuming(makeAnalyticsEvent({ keyId: key }), 1, 100)),
        );

        const granted = results.filter((r): r is number => r !== null);
        expect(granted).toHaveLength(30);
        expect([...granted].sort((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, i) => 71 + i));
        await expect(f.usage.usedIn(key, MARCH)).resolves.toBe(100);
        await expect(storedCount(f, key, MARCH)).resolves.toBe(30);
      });

      it('loses no increment under 100 concurrent events on a fresh unlimited counter', async () => {
        const f = fixture();
        const key = await keyIn(f);

        const results = await Promise.all(
          Array.from({ length: 100 }, () => f.events.appendConsuming(makeAnalyticsEvent({ keyId: key }), 1, null)),
        );

        expect([...(results as number[])].sort((x, y) => x - y)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
        await expect(f.usage.usedIn(key, MARCH)).resolves.toBe(100);
        await expect(storedCount(f, key, MARCH)).resolves.toBe(100);
      });

      it('lets exactly the limit through when 60 concurrent events open a fresh counter limited to 25', async () => {
        const f = fixture();
        const key = await keyIn(f);

        const results = await Promise.all(
          Array.from({ length: 60 }, () => f.events.appendConsuming(makeAnalyticsEvent({ keyId: key }), 1, 25)),
        );

        expect(results.filter((r) => r !== null)).toHaveLength(25);
        await expect(f.usage.usedIn(key, MARCH)).resolves.toBe(25);
        await expect(storedCount(f, key, MARCH)).resolves.toBe(25);
      });

      it('counts exactly up to the largest safe integer', async () => {
        const f = fixture();
        const key = await keyIn(f);
        await f.seedUsage(key, MARCH, Number.MAX_SAFE_INTEGER - 2);

        await expect(f.events.appendConsuming(makeAnalyticsEvent({ keyId: key }), 1, null)).resolves.toBe(Number.MAX_SAFE_INTEGER - 1);
        await expect(f.events.appendConsuming(makeAnalyticsEvent({ keyId: key }), 1, Number.MAX_SAFE_INTEGER)).resolves.toBe(
          Number.MAX_SAFE_INTEGER,
        );
        await expect(f.usage.usedIn(key, MARCH)).resolves.toBe(Number.MAX_SAFE_INTEGER);
      });
    });

    describe('breakdown', () => {
      it('answers every event type, no model and no outcome for a key and period without events', async () => {
        const f = fixture();
        await expect(f.events.breakdown(await keyIn(f), MARCH)).resolves.toEqual(EMPTY);
      });

      it('counts by event type, by named model (case-sensitive; none left out) and by outcome', async () => {
        const f = fixture();
        const key = await keyIn(f);
        const events = [
          makeAnalyticsEvent({ keyId: key, eventType: 'inference', modelName: 'p300_binary_v1', success: true }),
          makeAnalyticsEvent({ keyId: key, eventType: 'inference', modelName: 'p300_binary_v1', success: false, errorMessage: 'timeout' }),
          makeAnalyticsEvent({ keyId: key, eventType: 'inference', modelName: 'ssvep_v2', inferenceType: 'streaming', success: null }),
          makeAnalyticsEvent({ keyId: key, eventType: 'model_load', modelName: 'ssvep_v2', inferenceType: null, success: true }),
          makeAnalyticsEvent({
            keyId: key,
            eventType: 'model_load',
            modelName: 'SSVEP_v2',
            inferenceType: null,
            durationMs: null,
            success: null,
          }),
          makeAnalyticsEvent({
            keyId: key,
            eventType: 'error',
            modelName: null,
            inferenceType: null,
            durationMs: null,
            success: false,
            errorMessage: 'the device went away',
            metadata: { device: 'OpenBCI Cyton', channels: 8, nested: { ok: false }, note: 'é ✓' },
          }),
          makeAnalyticsEvent({ keyId: key, eventType: 'error', modelName: null, inferenceType: null, success: null }),
        ];
        for (const event of events) {
          await expect(f.events.appendConsuming(event, event.eventType === 'inference' ? 1 : 0, null)).resolves.not.toBeNull();
        }

        await expect(f.events.breakdown(key, MARCH)).resolves.toEqual({
          byKey: { [key]: 7 },
          byEventType: { inference: 3, model_load: 2, error: 2 },
          byModel: { p300_binary_v1: 2, ssvep_v2: 2, SSVEP_v2: 1 },
          byOutcome: { success: 2, failure: 2, unreported: 3 },
        });
        await expect(f.usage.usedIn(key, MARCH)).resolves.toBe(3);
      });

      it("counts only the key's events of the period", async () => {
        const f = fixture();
        const key = await keyIn(f);
        const other = await keyIn(f);
        await f.events.appendConsuming(makeAnalyticsEvent({ keyId: key, modelName: 'mine', success: true }), 1, null);
        await f.events.appendConsuming(makeAnalyticsEvent({ keyId: key, modelName: 'later', success: false, period: APRIL }), 1, null);
        await f.events.appendConsuming(makeAnalyticsEvent({ keyId: other, modelName: 'theirs', success: null }), 1, null);

        await expect(f.events.breakdown(key, MARCH)).resolves.toEqual({
          byKey: { [key]: 1 },
          byEventType: { inference: 1, model_load: 0, error: 0 },
          byModel: { mine: 1 },
          byOutcome: { success: 1, failure: 0, unreported: 0 },
        });
        await expect(f.events.breakdown(key, APRIL)).resolves.toEqual({
          byKey: { [key]: 1 },
          byEventType: { inference: 1, model_load: 0, error: 0 },
          byModel: { later: 1 },
          byOutcome: { success: 0, failure: 1, unreported: 0 },
        });
        await expect(f.events.breakdown(other, APRIL)).resolves.toEqual(EMPTY);
      });
    });

    describe('usageBetween and eventsPerDay', () => {
      const at = (iso: string) => new Date(iso);
      const sorted = (counts: readonly EventCount[]) =>
        [...counts].sort((a, b) =>
          JSON.stringify([a.eventType, a.modelName, a.success]).localeCompare(JSON.stringify([b.eventType, b.modelName, b.success])),
        );

      async function append(
        f: PersistenceFixture,
        keyId: string,
        iso: string,
        overrides: Partial<Parameters<typeof makeAnalyticsEvent>[0]> = {},
      ) {
        await f.events.appendConsuming(makeAnalyticsEvent({ keyId, receivedAt: at(iso), period: iso.slice(0, 7), ...overrides }), 0, null);
      }

      it("counts one key's inferences per UTC day, and its events by type, model and outcome, in [from, until), by received time", async () => {
        const f = fixture();
        const key = await keyIn(f);
        const other = await keyIn(f);
        await append(f, key, '2026-02-28T23:59:59.999Z'); // before the range
        await append(f, key, '2026-03-01T00:00:00.000Z');
        await append(f, key, '2026-03-01T23:59:59.999Z');
        await append(f, key, '2026-03-01T12:00:00.000Z', { success: false });
        await append(f, key, '2026-03-03T08:00:00.000Z', { eventType: 'model_load', modelName: null, success: null, inferenceType: null });
        await append(f, key, '2026-03-04T00:00:00.000Z'); // the range's end, excluded
        await append(f, other, '2026-03-02T10:00:00.000Z');

        const usage = await f.events.usageBetween(key, at('2026-03-01T00:00:00Z'), at('2026-03-04T00:00:00Z'));

        expect(usage.inferencesPerDay).toEqual([{ day: '2026-03-01', events: 3 }]);
        expect(sorted(usage.counts)).toEqual(
          sorted([
            { keyId: key, eventType: 'inference', modelName: 'motor_imagery_4class_v1', success: true, count: 2 },
            { keyId: key, eventType: 'inference', modelName: 'motor_imagery_4class_v1', success: false, count: 1 },
            { keyId: key, eventType: 'model_load', modelName: null, success: null, count: 1 },
          ]),
        );
        const counts = usage.counts;
        expect(tallyUsage(counts)).toEqual({
          byKey: { [key]: 4 },
          byEventType: { inference: 3, model_load: 1, error: 0 },
          byModel: { motor_imagery_4class_v1: 3 },
          byOutcome: { success: 2, failure: 1, unreported: 1 },
        });
      });

      it('answers nothing for a key without events in the range', async () => {
        const f = fixture();
        const key = await keyIn(f);
        await append(f, key, '2026-01-10T00:00:00.000Z');
        await expect(f.events.usageBetween(key, at('2026-03-01T00:00:00Z'), at('2026-04-01T00:00:00Z'))).resolves.toEqual({
          inferencesPerDay: [],
          counts: [],
        });
      });

      it("counts every key's events per UTC day, oldest first, days without events absent", async () => {
        const f = fixture();
        const one = await keyIn(f);
        const two = await keyIn(f);
        await append(f, one, '2026-03-09T23:59:59.999Z');
        await append(f, one, '2026-03-10T00:00:00.000Z');
        await append(f, two, '2026-03-10T18:30:00.000Z', { eventType: 'error', success: false });
        await append(f, two, '2026-03-12T01:00:00.000Z');
        await append(f, one, '2026-03-13T00:00:00.000Z');

        await expect(f.events.eventsPerDay(at('2026-03-10T00:00:00Z'), at('2026-03-13T00:00:00Z'))).resolves.toEqual([
          { day: '2026-03-10', events: 2 },
          { day: '2026-03-12', events: 1 },
        ]);
      });
    });
  });
}
