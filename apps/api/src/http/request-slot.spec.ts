import type { FastifyRequest } from 'fastify';
import { RequestSlot } from './request-slot';

describe('RequestSlot', () => {
  const request = () => ({ id: 'req' }) as unknown as FastifyRequest;

  it('answers what was recorded on the same request, and nothing on another', () => {
    const slot = new RequestSlot<string>('test');
    const [one, two] = [request(), request()];
    expect(slot.get(one)).toBeUndefined();
    slot.set(one, 'found');
    expect(slot.get(one)).toBe('found');
    expect(slot.get(two)).toBeUndefined();
  });

  it('keeps two slots apart on one request, and adds no enumerable property to it', () => {
    const [keys, principals] = [new RequestSlot<string>('a'), new RequestSlot<string>('a')];
    const one = request();
    keys.set(one, 'key');
    principals.set(one, 'principal');
    expect([keys.get(one), principals.get(one)]).toEqual(['key', 'principal']);
    expect(Object.keys(one)).toEqual(['id']);
  });
});
