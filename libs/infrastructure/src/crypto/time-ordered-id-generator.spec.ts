import { redactKeyShapedText } from '@svc/domain';
import { TimeOrderedIdGenerator } from './time-ordered-id-generator';

describe(TimeOrderedIdGenerator.name, () => {
  it('makes `<kind>_` and 24 hex digits, never the same twice', () => {
    const ids = new TimeOrderedIdGenerator();
    const made = Array.from({ length: 5_000 }, (_, i) => ids.newId(i % 2 === 0 ? 'evt' : 'key'));
    for (const [i, id] of made.entries()) expect(id).toMatch(i % 2 === 0 ? /^evt_[0-9a-f]{24}$/ : /^key_[0-9a-f]{24}$/);
    expect(new Set(made.map((id) => id.slice(4))).size).toBe(made.length);
  });

  it('begins with the milliseconds it was made at, so ids made in later milliseconds sort after earlier ones', async () => {
    const ids = new TimeOrderedIdGenerator();
    const before = Date.now();
    const first = ids.newId('evt');
    const at = parseInt(first.slice(4, 16), 16);
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(Date.now());
    await new Promise((resolve) => setTimeout(resolve, 2));
    const later = Array.from({ length: 100 }, () => ids.newId('evt'));
    for (const id of later) expect(id > first).toBe(true);
  });

  it('two generators never make the same id', () => {
    const a = new TimeOrderedIdGenerator();
    const b = new TimeOrderedIdGenerator();
    const fromA = Array.from({ length: 1_000 }, () => a.newId('evt').slice(4));
    const fromB = new Set(Array.from({ length: 1_000 }, () => b.newId('evt').slice(4)));
    expect(fromA.filter((id) => fromB.has(id))).toEqual([]);
  });

  it('is not redacted as key-shaped text where it is logged or stored', () => {
    const id = new TimeOrderedIdGenerator().newId('key');
    expect(redactKeyShapedText(`revoked after ${id} was rotated`)).toBe(`revoked after ${id} was rotated`);
  });
});
