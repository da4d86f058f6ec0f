import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { RateCounter, type RateCounterMode, type RateVerdict, secondsUntil } from '@svc/application';
import Redis from 'ioredis';
import { type InMemoryRateCounter } from './in-memory-rate-counter';

/**
 * Count and check in one script run: a bucket at its limit is not counted
 * further; the window's expiry is set by its first hit. Returns
 * {allowed (1/0), count, ttl ms}.
 */
const HIT_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local limit = tonumber(ARGV[1])
if count >= limit then
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]); ttl = tonumber(ARGV[2]) end
  return {0, count, ttl}
end
count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]); ttl = tonumber(ARGV[2]) end
return {1, count, ttl}
`;

/** Read a window without counting: {count, ttl ms (negative: no window)}. */
const PEEK_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
return {count, redis.call('PTTL', KEYS[1])}
`;

/**
 * After a command failed on a connection that stayed open (a command timeout on a busy host, an
 * error answer), Redis is asked again (PING) after this long: no 'ready' event will announce that
 * it answers.
 */
export const REDIS_RETRY_AFTER_FAILED_COMMAND_MS = 1000;

/** How long a closing connection waits for Redis to close its end (ioredis's `disconnectTimeout`). */
export const REDIS_DISCONNECT_TIMEOUT_MS = 100;

type RedisWithHit = Redis & {
  rateHit(key: string, limit: number, windowMs: number): Promise<[number, number, number]>;
  ratePeek(key: string): Promise<[number, number]>;
};

/**
 * Shared counters in Redis, so any number of instances enforce one limit.
 * When Redis errors or is unreachable, requests are counted per instance
 * instead (logged once per incident); shared counting resumes by itself when
 * Redis answers again.
 */
export class RedisRateCounter extends RateCounter implements OnApplicationShutdown {
  private readonly logger = new Logger('RateLimits');
  private readonly redis: RedisWithHit;
  /** `closed`: the application shut it down; the connection's end is no incident. */
  private state: 'connecting' | 'shared' | 'degraded' | 'closed' = 'connecting';
  private probe: NodeJS.Timeout | undefined;

  constructor(
    url: string,
    private readonly keyPrefix: string,
    private readonly fallback: InMemoryRateCounter,
    private readonly retryAfterMs: number = REDIS_RETRY_AFTER_FAILED_COMMAND_MS,
  ) {
    super();
    this.redis = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 250,
      connectTimeout: 1000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
      lazyConnect: false,
      // How long a closing connection may wait for Redis to close its end before its socket is destroyed
      // (ioredis's default is 2 s). The timer stays armed when the socket had closed already (Redis gone),
      // holding a shutting-down process open that long; Redis closes its end of a live connection at once.
      disconnectTimeout: REDIS_DISCONNECT_TIMEOUT_MS,
    }) as RedisWithHit;
    this.redis.defineCommand('rateHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.redis.defineCommand('ratePeek', { numberOfKeys: 1, lua: PEEK_SCRIPT });
    this.redis.on('ready', () => this.share());
    this.redis.on('error', () => this.degrade());
    this.redis.on('close', () => this.degrade());
  }

  /** The window is the Redis key `<prefix><scope>:<caller>`. */
  async hit(scope: string, caller: string, limit: number, windowMs: number): Promise<RateVerdict> {
    if (this.state === 'shared') {
      try {
        const [allowed, count, ttl] = await this.redis.rateHit(`${this.keyPrefix}${scope}:${caller}`, limit, windowMs);
        const now = Date.now();
        const resetAtMs = now + Math.max(0, ttl);
        return {
          allowed: allowed === 1,
          remaining: Math.max(0, limit - count),
          resetAtMs,
          retryAfterSeconds: secondsUntil(resetAtMs, now),
        };
      } catch {
        this.degrade();
      }
    }
    return this.fallback.hitNow(scope, caller, limit, windowMs);
  }

  /** The same window as `hit`'s, read without counting; while Redis is away, the per-instance one. */
  async peek(scope: string, caller: string, limit: number, windowMs: number): Promise<RateVerdict> {
    if (this.state === 'shared') {
      try {
        const [count, ttl] = await this.redis.ratePeek(`${this.keyPrefix}${scope}:${caller}`);
        const now = Date.now();
        const live = ttl > 0;
        const resetAtMs = now + (live ? ttl : windowMs);
        const used = live ? count : 0;
        return {
          allowed: used < limit,
          remaining: Math.max(0, limit - used),
          resetAtMs,
          retryAfterSeconds: secondsUntil(resetAtMs, now),
        };
      } catch {
        this.degrade();
      }
    }
    return this.fallback.peekNow(scope, caller, limit, windowMs);
  }

  mode(): RateCounterMode {
    return this.state === 'shared' ? 'shared' : 'per-instance';
  }

  isSharedConfigured(): boolean {
    return true;
  }

  onApplicationShutdown(): void {
    // before disconnecting: the 'close' event it causes must not log "Redis unreachable" on every orderly shutdown
    this.state = 'closed';
    clearTimeout(this.probe);
    this.redis.disconnect();
  }

  private share(): void {
    if (this.state === 'closed') return;
    this.logger.log('Redis reachable: rate limits are shared across instances');
    this.state = 'shared';
  }

  /** Once per incident: the first failure after Redis was reachable (or at start-up). */
  private degrade(): void {
    if (this.state === 'closed') return;
    if (this.state !== 'degraded') this.logger.warn('Redis unreachable: rate limits fall back to per-instance counters');
    this.state = 'degraded';
    // a failed command on a connection that stays open: no 'ready' event will come, so ask again
    if (this.redis.status === 'ready' && this.probe === undefined) {
      this.probe = setTimeout(() => {
        this.probe = undefined;
        this.redis.ping().then(
          () => {
            if (this.state === 'degraded' && this.redis.status === 'ready') this.share();
          },
          () => this.degrade(),
        );
      }, this.retryAfterMs);
      this.probe.unref();
    }
  }
}
