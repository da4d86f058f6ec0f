import { Test } from '@nestjs/testing';
import { TerminusModule } from '@nestjs/terminus';
import { DatabasePing, RateCounter, type RateCounterMode } from '@svc/application';
import { ModelStore } from '@svc/domain';
import type { FastifyReply } from 'fastify';
import { DatabaseHealthIndicator } from './database.health-indicator';
import { HealthController } from './health.controller';
import { ModelStoreHealthIndicator } from './model-store.health-indicator';
import { RedisHealthIndicator } from './redis.health-indicator';

/** A reply that records the status the controller sets (200 unless set). */
function fakeReply(): FastifyReply & { statusCode: number } {
  const reply = {
    statusCode: 200,
    status(code: number) {
      reply.statusCode = code;
      return reply;
    },
  };
  return reply as unknown as FastifyReply & { statusCode: number };
}

/** The controller on real terminus services, over a database and a rate counter the test switches. */
async function controllerWith(state: { database: boolean; redis?: RateCounterMode; modelStore?: boolean }) {
  const ping = { answers: async () => state.database };
  const store = { answers: async () => state.modelStore ?? true };
  const counter = { isSharedConfigured: () => state.redis !== undefined, mode: () => state.redis ?? 'per-instance' };
  const moduleRef = await Test.createTestingModule({
    imports: [TerminusModule.forRoot({ logger: false })],
    controllers: [HealthController],
    providers: [
      DatabaseHealthIndicator,
      ModelStoreHealthIndicator,
      RedisHealthIndicator,
      { provide: DatabasePing, useValue: ping },
      { provide: ModelStore, useValue: store },
      { provide: RateCounter, useValue: counter },
    ],
  }).compile();
  await moduleRef.init();
  return { controller: moduleRef.get(HealthController), moduleRef };
}

describe(HealthController.name, () => {
  it('maps the database indicator to the SPEC 4.7 bodies', async () => {
    const state = { database: true };
    const { controller, moduleRef } = await controllerWith(state);
    const up = fakeReply();
    expect(await controller.status(up)).toEqual({ status: 'healthy', timestamp: expect.any(String), version: 'v1', database: 'connected' });
    expect(up.statusCode).toBe(200);

    state.database = false;
    const down = fakeReply();
    expect(await controller.status(down)).toEqual({
      status: 'unhealthy',
      timestamp: expect.any(String),
      error: 'Database is not reachable',
      database: 'disconnected',
    });
    expect(down.statusCode).toBe(503);
    await moduleRef.close();
  });

  it('readiness lists Redis only where configured, and Redis down keeps it ready', async () => {
    const state: { database: boolean; redis?: RateCounterMode } = { database: true, redis: 'per-instance' };
    const { controller, moduleRef } = await controllerWith(state);
    const reply = fakeReply();
    const redis = {
      status: 'up',
      connection: 'down',
      rate_limits: 'per-instance',
      message: 'Redis unreachable: rate limits fall back to per-instance counters',
    };
    expect(await controller.ready(reply)).toEqual({
      status: 'ok',
      info: { database: { status: 'up' }, model_store: { status: 'up' }, redis },
      error: {},
      details: { database: { status: 'up' }, model_store: { status: 'up' }, redis },
    });
    expect(reply.statusCode).toBe(200);
    await moduleRef.close();

    const without = await controllerWith({ database: true });
    expect((await without.controller.ready(fakeReply())).details).toEqual({ database: { status: 'up' }, model_store: { status: 'up' } });
    await without.moduleRef.close();
  });

  it('readiness fails while the model store does not answer, and /api/health (the database) does not', async () => {
    const { controller, moduleRef } = await controllerWith({ database: true, modelStore: false });
    const ready = fakeReply();
    const down = { model_store: { status: 'down', message: 'Model store is not reachable' } };
    expect(await controller.ready(ready)).toEqual({
      status: 'error',
      info: { database: { status: 'up' } },
      error: down,
      details: { database: { status: 'up' }, ...down },
    });
    expect(ready.statusCode).toBe(503);
    const health = fakeReply();
    expect((await controller.status(health)).status).toBe('healthy');
    expect(health.statusCode).toBe(200);
    await moduleRef.close();
  });

  it('while the app shuts down, the probes answer 503 shutting_down; /api/health still reports the database', async () => {
    const { controller, moduleRef } = await controllerWith({ database: true });
    await moduleRef.close(); // terminus marks itself shutting down in beforeApplicationShutdown

    const live = fakeReply();
    expect(await controller.live(live)).toEqual({ status: 'shutting_down', info: {}, error: {}, details: {} });
    expect(live.statusCode).toBe(503);

    const ready = fakeReply();
    expect(await controller.ready(ready)).toEqual({
      status: 'shutting_down',
      info: { database: { status: 'up' }, model_store: { status: 'up' } },
      error: {},
      details: { database: { status: 'up' }, model_store: { status: 'up' } },
    });
    expect(ready.statusCode).toBe(503);

    const health = fakeReply();
    expect((await controller.status(health)).status).toBe('healthy');
    expect(health.statusCode).toBe(200);
  });
});
