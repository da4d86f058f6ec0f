import { randomBytes } from 'node:crypto';
import { type AddressInfo, createServer } from 'node:net';
import { ConsoleLogger, Logger } from '@nestjs/common';
import { FixedClock } from '@svc/domain';
import Redis from 'ioredis';
import { CapturingLogger } from '../../../../test/harness/capturing-logger';
import { serverAvailableSync } from '../../../../test/harness/services';
import { InMemoryRateCounter } from './in-memory-rate-counter';
import { REDIS_DISCONNECT_TIMEOUT_MS, RedisRateCounter } from './redis-rate-counter';

const WINDOW_MS = 60_000;
const RETRY_MS = 100;

/** Waits until `check` holds, for at most 10 s (milliseconds on an idle machine). */
async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(check()).toBe(true);
}

(serverAvailableSync(6379, 'Redis') ? describe : describe.skip)(`${RedisRateCounter.name} on the machine's Redis`, () => {
  const prefix = `svc-test:counter:${randomBytes(6).toString('hex')}:`;
  let redis: Redis;
  let counter: RedisRateCounter;
  // the counter logs through Nest's Logger: no app here, so keep its lines (checked below) instead of printing them
  const logger = new CapturingLogger();
  const unreachable = () => logger.lines.filter((line) => line.includes('Redis unreachable'));

  beforeAll(() => {
    Logger.overrideLogger(logger);
    redis = new Redis(6379, '127.0.0.1');
    counter = new RedisRateCounter('redis://127.0.0.1:6379', prefix, new InMemoryRateCounter(new FixedClock(new Date()), 1_000), RETRY_MS);
  });
  afterAll(async () => {
    counter.onApplicationShutdown();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    Logger.overrideLogger(new ConsoleLogger());
  });

  it('peeks at the window hit counts in, without counting', async () => {
    await until(() => counter.mode() === 'shared');
    expect(await counter.peek('p', 'b', 2, WINDOW_MS)).toMatchObject({ allowed: true, remaining: 2, retryAfterSeconds: 60 });
    expect(await redis.exists(`${prefix}p:b`)).toBe(0);
    await counter.hit('p', 'b', 2, WINDOW_MS);
    expect(await counter.peek('p', 'b', 2, WINDOW_MS)).toMatchObject({ allowed: true, remaining: 1 });
    await counter.hit('p', 'b', 2, WINDOW_MS);
    const blocked = await counter.peek('p', 'b', 2, WINDOW_MS);
    expect(blocked).toMatchObject({ allowed: false, remaining: 0 });
    expect(blocked.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(blocked.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(await redis.get(`${prefix}p:b`)).toBe('2');
  });

  it('a command that fails on an open connection falls back per instance, then shares again by itself, with no traffic', async () => {
    await until(() => counter.mode() === 'shared');
    expect(await counter.hit('s', 'b', 5, WINDOW_MS)).toMatchObject({ allowed: true, remaining: 4 });
    expect(await redis.get(`${prefix}s:b`)).toBe('1');

    // the script fails on this bucket (a hash where it reads a count): an error answer, the connection stays open
    await redis.hset(`${prefix}s:broken`, 'field', 'value');
    expect(await counter.hit('s', 'broken', 5, WINDOW_MS)).toMatchObject({ allowed: true, remaining: 4 });
    expect(counter.mode()).toBe('per-instance');
    await redis.del(`${prefix}s:broken`);

    // no reconnection will announce it: the counter asks Redis again after RETRY_MS, with no traffic
    await until(() => counter.mode() === 'shared');
    expect(await counter.hit('s', 'b', 5, WINDOW_MS)).toMatchObject({ allowed: true, remaining: 3 });
    expect(await redis.get(`${prefix}s:b`)).toBe('2');
    expect(unreachable()).toHaveLength(1); // the incident, logged once
  });

  it('an orderly shutdown is no incident: closing the connection logs no "Redis unreachable"', async () => {
    const closing = new RedisRateCounter(
      'redis://127.0.0.1:6379',
      prefix,
      new InMemoryRateCounter(new FixedClock(new Date()), 1_000),
      RETRY_MS,
    );
    await until(() => closing.mode() === 'shared');
    const before = unreachable().length;
    closing.onApplicationShutdown();
    // the connection's 'close' event comes after disconnect(); wait until it has come
    await until(() => (closing as unknown as { redis: Redis }).redis.status === 'end');
    await new Promise((resolve) => setImmediate(resolve));
    expect(unreachable()).toHaveLength(before);
    expect(closing.mode()).toBe('per-instance');
  });
});

describe(`${RedisRateCounter.name} when Redis has gone away`, () => {
  const logger = new CapturingLogger();
  beforeAll(() => Logger.overrideLogger(logger));
  afterAll(() => Logger.overrideLogger(new ConsoleLogger()));

  it('its shutdown leaves no timer behind that would hold a closing process open (a Jest worker, the service)', async () => {
    // a "Redis" that takes each connection and closes it at once
    const server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const before = timers();
    const counter = new RedisRateCounter(
      `redis://127.0.0.1:${(server.address() as AddressInfo).port}`,
      'svc-test:gone:',
      new InMemoryRateCounter(new FixedClock(new Date()), 1_000),
      RETRY_MS,
    );
    try {
      await until(() => logger.lines.some((line) => line.includes('Redis unreachable')));
    } finally {
      counter.onApplicationShutdown();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    // what ioredis arms while closing ends within REDIS_DISCONNECT_TIMEOUT_MS (its own default held it 2 s)
    await new Promise((resolve) => setTimeout(resolve, REDIS_DISCONNECT_TIMEOUT_MS * 3));
    expect(timers()).toBeLessThanOrEqual(before);
  });
});
