import autocannon from 'autocannon';
import { Agent, request as httpRequest } from 'node:http';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { type SeededKeys } from './seed-keys';

export type EndpointName = 'validate' | 'analytics' | 'keyed' | 'batch' | 'models' | 'health';
export const ENDPOINT_NAMES: readonly EndpointName[] = ['validate', 'analytics', 'keyed', 'batch', 'models', 'health'];

/** Events in each request of the `batch` endpoint: a full batch (CONTRACT 22). */
export const EVENTS_PER_BATCH = 100;

export const ENDPOINT_LABELS: Record<EndpointName, string> = {
  validate: 'POST /v1/auth/validate',
  analytics: 'POST /v1/analytics/log',
  keyed: 'POST /v1/analytics/log, keyed',
  batch: 'POST /v1/analytics/batch',
  models: 'GET /v1/models/list',
  health: 'GET /api/health',
};

/** What one load run measured. Latencies in ms. */
export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly requests: number;
  /** Connection errors and timeouts. */
  readonly errors: number;
  readonly non2xx: number;
  readonly seconds: number;
  /**
   * The longest the load generator's own event loop was held up during the run (its garbage
   * collection, its own work), in ms. This process sends the requests and times the answers, so a
   * p99 near this figure measures the generator, not the server.
   */
  readonly generatorStallMs: number;
}

/** Watches this process's event loop for the length of one run (LoadResult.generatorStallMs). */
function generatorStall(): { stop(): number } {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  return {
    stop() {
      delay.disable();
      return delay.max / 1e6;
    },
  };
}

/** How validate and the model list present the seeded keys (bench/main.ts --key-order). */
export type KeyOrder = 'every' | 'mix';

/** In the `mix` order: the share of requests that present a key of the hot set. */
export const HOT_SHARE = 0.8;

export interface LoadOptions {
  readonly baseUrl: string;
  readonly endpoint: EndpointName;
  readonly keys: SeededKeys;
  readonly connections: number;
  readonly seconds: number;
  /** Hard cap on requests, whatever the duration. */
  readonly maxRequests: number;
  readonly keyOrder?: KeyOrder;
  /** Each key's device fingerprint (--device-fingerprint): validate names the device of the key it presents. */
  readonly fingerprints?: ReadonlyMap<string, string>;
}

const JSON_HEADERS = { 'content-type': 'application/json' };

/** The fields of the inference event every analytics request sends (the batch sends a hundred of them). */
const FIELD_EVENT =
  '"event_type":"inference","model_name":"motor_imagery_4class_v1","inference_type":"batch","duration_ms":12.5,"success":true,"metadata":{"trials":40,"mean_confidence":0.82}';

/** Idempotency keys never sent before: this process's and this moment's, then a counter. */
function idempotencyKeys(): () => string {
  const run = `${process.pid.toString(36)}-${Date.now().toString(36)}`;
  let sent = 0;
  return () => `bench-${run}-${(sent++).toString(36)}`;
}

/**
 * The request of each endpoint. Keys rotate round-robin (one counter per
 * endpoint, across runs), so each request presents the next seeded key:
 * every key for validate and the model list, the unlimited ones for
 * inference events (they never run out of quota). In the `mix` order,
 * validate and the model list present a key of the hot set (the first 1 % of
 * the keys, at least 100) at random for HOT_SHARE of the requests, and the
 * next key of the long tail (the others, in turn) for the rest.
 */
function requestOf(
  endpoint: EndpointName,
  keys: SeededKeys,
  order: KeyOrder = 'every',
  fingerprints?: ReadonlyMap<string, string>,
): autocannon.Request {
  const rotate = (list: readonly string[]) => {
    if (list.length === 0) throw new Error(`no keys to present to ${endpoint}`);
    return () => list[(cursor[endpoint] = (cursor[endpoint] + 1) % list.length)];
  };
  const presented = (list: readonly string[]) => {
    if (order === 'every') return rotate(list);
    const hot = list.slice(0, Math.min(list.length, Math.max(100, Math.floor(list.length / 100))));
    const tail = list.length > hot.length ? rotate(list.slice(hot.length)) : null;
    return () => (tail === null || Math.random() < HOT_SHARE ? hot[Math.floor(Math.random() * hot.length)] : tail());
  };
  switch (endpoint) {
    case 'validate': {
      const next = presented(keys.all);
      if (fingerprints) {
        // the key's own device, named as an SDK names it (docs/DEVICES.md)
        return {
          method: 'POST',
          path: '/v1/auth/validate',
          headers: JSON_HEADERS,
          setupRequest: (req) => {
            const key = next();
            return { ...req, headers: { ...JSON_HEADERS, 'x-device-fingerprint': fingerprints.get(key)! }, body: `{"api_key":"${key}"}` };
          },
        };
      }
      return {
        method: 'POST',
        path: '/v1/auth/validate',
        headers: JSON_HEADERS,
        setupRequest: (req) => ({ ...req, body: `{"api_key":"${next()}"}` }),
      };
    }
    case 'analytics': {
      const next = rotate(keys.unlimited);
      return {
        method: 'POST',
        path: '/v1/analytics/log',
        headers: JSON_HEADERS,
        setupRequest: (req) => ({ ...req, body: `{"api_key":"${next()}",${FIELD_EVENT}}` }),
      };
    }
    case 'keyed': {
      // the single endpoint's event with an idempotency key of its own, as an SDK sends it (the batch's events, one at a time)
      const next = rotate(keys.unlimited);
      const key = idempotencyKeys();
      return {
        method: 'POST',
        path: '/v1/analytics/log',
        headers: JSON_HEADERS,
        setupRequest: (req) => ({ ...req, body: `{"api_key":"${next()}",${FIELD_EVENT},"idempotency_key":"${key()}"}` }),
      };
    }
    case 'batch': {
      // a full batch of the single endpoint's event, each with an idempotency key of its own (as an SDK sends them)
      const next = rotate(keys.unlimited);
      const key = idempotencyKeys();
      const events = () => Array.from({ length: EVENTS_PER_BATCH }, () => `{${FIELD_EVENT},"idempotency_key":"${key()}"}`).join(',');
      return {
        method: 'POST',
        path: '/v1/analytics/batch',
        headers: JSON_HEADERS,
        setupRequest: (req) => ({ ...req, body: `{"api_key":"${next()}","events":[${events()}]}` }),
      };
    }
    case 'models': {
      const next = presented(keys.all);
      return { method: 'GET', path: '/v1/models/list', setupRequest: (req) => ({ ...req, path: `/v1/models/list?api_key=${next()}` }) };
    }
    case 'health':
      return { method: 'GET', path: '/api/health' };
  }
}
const cursor: Record<EndpointName, number> = { validate: -1, analytics: -1, keyed: -1, batch: -1, models: -1, health: -1 };

/** The q-quantile (0..1) of sorted values, by nearest rank. */
function quantile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/**
 * One autocannon run against one server, bounded by time and by count.
 * Latencies are taken from every 2xx answer's own response time (autocannon's
 * `response` event, in fractional ms), not from its histogram, which keeps
 * whole milliseconds: the paced runs answer well under one.
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const stall = generatorStall();
  const started = process.hrtime.bigint();
  let times = new Float64Array(1 << 16);
  let count = 0;
  let instance!: autocannon.Instance;
  const finished = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        url: options.baseUrl,
        connections: options.connections,
        duration: options.seconds,
        maxOverallRequests: Math.max(options.maxRequests, options.connections),
        timeout: 10,
        requests: [requestOf(options.endpoint, options.keys, options.keyOrder, options.fingerprints)],
      },
      (error, result) => (error ? reject(error as Error) : resolve(result)),
    );
  });
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    if (statusCode < 200 || statusCode > 299) return;
    if (count === times.length) {
      const grown = new Float64Array(times.length * 2);
      grown.set(times);
      times = grown;
    }
    times[count++] = responseTime;
  });
  const result = await finished;
  const generatorStallMs = stall.stop();
  const seconds = result.duration > 0 ? result.duration : Number(process.hrtime.bigint() - started) / 1e9;
  const requests = result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'];
  const sorted = times.slice(0, count).sort();
  return {
    requestsPerSecond: requests / seconds,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    requests,
    errors: result.errors,
    non2xx: result.non2xx,
    seconds,
    generatorStallMs,
  };
}

/**
 * Open-loop load at a fixed rate (`--paced`): request i is
 * sent at start + i / rate whatever the answers do, over at most
 * `connections` kept-alive sockets, and its latency counts from when it was
 * due (so a server that falls behind shows it). autocannon's `overallRate`
 * sends each second's quota in a burst at the start of the second, which
 * measures queueing, not the answer.
 */
export async function runPaced(options: LoadOptions & { readonly rate: number }): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const target = new URL(options.baseUrl);
  const template = requestOf(options.endpoint, options.keys, options.keyOrder, options.fingerprints);
  const total = Math.max(1, Math.round(options.rate * options.seconds));
  const times = new Float64Array(total);
  let answered = 0;
  let errors = 0;
  let non2xx = 0;
  let settled = 0;
  const stall = generatorStall();
  const started = performance.now();
  await new Promise<void>((resolve) => {
    const settle = () => {
      if (++settled === total) resolve();
    };
    const send = (due: number) => {
      const setup = template.setupRequest;
      const built = typeof setup === 'function' ? setup({ ...template }, {}) : template;
      const req = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          agent,
          method: built.method ?? 'GET',
          path: built.path ?? '/',
          headers: { ...(built.headers ?? {}), ...(built.body ? { 'content-length': Buffer.byteLength(String(built.body)) } : {}) },
          timeout: 10_000,
        },
        (res) => {
          res.resume();
          res.once('end', () => {
            const status = res.statusCode ?? 0;
            if (status >= 200 && status < 300) times[answered++] = performance.now() - due;
            else non2xx++;
            settle();
          });
        },
      );
      req.once('timeout', () => req.destroy(new Error('timeout')));
      req.once('error', () => {
        errors++;
        settle();
      });
      req.end(built.body === undefined ? undefined : String(built.body));
    };
    let sent = 0;
    const tick = () => {
      const now = performance.now();
      while (sent < total && started + (sent * 1000) / options.rate <= now) send(started + (sent++ * 1000) / options.rate);
      if (sent < total) setTimeout(tick, Math.max(0, started + (sent * 1000) / options.rate - performance.now()));
    };
    tick();
  });
  agent.destroy();
  const generatorStallMs = stall.stop();
  const seconds = (performance.now() - started) / 1000;
  const sorted = times.slice(0, answered).sort();
  return {
    requestsPerSecond: (answered + non2xx) / seconds,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    requests: answered + non2xx,
    errors,
    non2xx,
    seconds,
    generatorStallMs,
  };
}
