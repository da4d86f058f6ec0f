import type { FastifyRequest } from 'fastify';

/**
 * A value a guard records on the request for the handler: a property under a
 * symbol of its own, gone with the request. Not a WeakMap keyed by the
 * request: V8's young-generation collections keep a WeakMap's entries alive,
 * so everything the value reaches (a key's row, its user, the digest) moved
 * into the old generation with every request and was freed only by
 * mark-compacts (docs/PERFORMANCE.md, "The paced tail").
 */
export class RequestSlot<T> {
  private readonly slot: symbol;

  constructor(description: string) {
    this.slot = Symbol(description);
  }

  set(request: FastifyRequest, value: T): void {
    (request as unknown as Record<symbol, T>)[this.slot] = value;
  }

  get(request: FastifyRequest): T | undefined {
    return (request as unknown as Record<symbol, T | undefined>)[this.slot];
  }
}
