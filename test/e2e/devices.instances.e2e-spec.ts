import { DataSource } from 'typeorm';
import { TestApp } from '../harness/create-test-app';

const ROUNDS = 20;
const RACERS = 10;
const SEATS = 3;
/** Several instances share one server database; SQLite is for one instance (docs/OPERATIONS.md). */
const onServerDatabase = process.env.TEST_DATABASE === 'postgres' || process.env.TEST_DATABASE === 'mysql';

function fingerprint(round: number, n: number): string {
  return `racing-machine-${String(round).padStart(2, '0')}-${String(n).padStart(2, '0')}-fingerprint`;
}

/**
 * CONTRACT 23's exactness across instances: three instances of the service, in this process, on one
 * PostgreSQL (or MySQL) database, each with its own connection pool. Ten distinct fingerprints race for
 * the three seats of a research license, spread over the instances; exactly three win, round after
 * round (a fresh license each), the license's one device.limit_reached of the day is recorded once, and
 * a rotated key of the license sees the same seats.
 */
(onServerDatabase ? describe : describe.skip)('Devices on three instances: ten fingerprints racing for three seats (CONTRACT 23)', () => {
  let instances: TestApp[] = [];
  let a: TestApp;

  beforeAll(async () => {
    const env = { SAMPLE_MODELS: 'false', DEVICE_LEASE_CHECK_SECONDS: '0' };
    a = await TestApp.start({ env });
    const shared = { ...env, DATABASE_URL: a.databaseUrl, MODEL_STORE_DIR: a.config.models.storeDir };
    instances = [a, await TestApp.start({ env: shared }), await TestApp.start({ env: shared })];
  }, 60_000);
  afterAll(async () => {
    for (const t of [...instances].reverse()) await t.close();
  });

  /** The outbox rows of a license's device.limit_reached notices. */
  async function limitNotices(licenseId: string): Promise<number> {
    const p = a.databaseKind === 'postgres' ? '$1' : '?';
    const rows: unknown[] = await a.app
      .get(DataSource)
      .query(`SELECT id FROM webhook_events WHERE id LIKE ${p}`, [`device.limit_reached:${licenseId}:%`]);
    return rows.length;
  }

  it(`lets exactly ${SEATS} of ${RACERS} win, ${ROUNDS} rounds in a row; a rotated key sees the same seats`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const issued = await a.issueKey({ licenseType: 'research' });
      const answers = await Promise.all(
        Array.from({ length: RACERS }, (_, n) =>
          instances[n % instances.length].post('/v1/devices/activate', { api_key: issued.api_key, fingerprint: fingerprint(round, n) }),
        ),
      );
      const won = answers.flatMap((answer, n) => (answer.status === 201 ? [{ n, deviceId: answer.body.device_id as string }] : []));
      expect({ round, statuses: answers.map((x) => x.status).sort() }).toEqual({
        round,
        statuses: [...Array<number>(SEATS).fill(201), ...Array<number>(RACERS - SEATS).fill(409)],
      });
      for (const answer of answers.filter((x) => x.status === 409)) {
        expect(answer.body).toMatchObject({ code: 'DEVICE_LIMIT_REACHED', max_devices: SEATS, active: SEATS });
      }
      expect(await limitNotices(issued.key_id)).toBe(1);

      if (round === 0 || round === ROUNDS - 1) {
        // the license's rotated key: the same seats, full, and the same devices
        const rotated = await instances[1].post('/v1/auth/rotate', { api_key: issued.api_key });
        expect(rotated.status).toBe(200);
        const successor = rotated.body.api_key as string;
        const refused = await instances[2].post('/v1/devices/activate', { api_key: successor, fingerprint: fingerprint(round, RACERS) });
        expect(refused.body).toMatchObject({ code: 'DEVICE_LIMIT_REACHED', max_devices: SEATS, active: SEATS });
        for (const { n, deviceId } of won) {
          const beat = await instances[n % instances.length].post('/v1/devices/heartbeat', {
            api_key: successor,
            fingerprint: fingerprint(round, n),
          });
          expect(beat.body).toMatchObject({ device_id: deviceId });
        }
        const lost = answers.findIndex((x) => x.status === 409);
        expect((await a.post('/v1/devices/heartbeat', { api_key: successor, fingerprint: fingerprint(round, lost) })).body).toMatchObject({
          code: 'DEVICE_NOT_FOUND',
        });
        expect(await limitNotices(issued.key_id)).toBe(1);
      }
    }
  }, 120_000);
});
