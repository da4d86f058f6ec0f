import { RandomIdGenerator } from './random-id-generator';

describe(RandomIdGenerator.name, () => {
  it('makes `<kind>_` and 24 hex digits, never the same twice', () => {
    const ids = new RandomIdGenerator();
    const made = Array.from({ length: 5_000 }, (_, i) => ids.newId(i % 2 === 0 ? 'evt' : 'key'));
    for (const [i, id] of made.entries()) expect(id).toMatch(i % 2 === 0 ? /^evt_[0-9a-f]{24}$/ : /^key_[0-9a-f]{24}$/);
    expect(new Set(made.map((id) => id.slice(4))).size).toBe(made.length);
  });

  it('two generators never make the same id', () => {
    const a = new RandomIdGenerator();
    const b = new RandomIdGenerator();
    const fromA = Array.from({ length: 1_000 }, () => a.newId('evt').slice(4));
    const fromB = new Set(Array.from({ length: 1_000 }, () => b.newId('evt').slice(4)));
    expect(fromA.filter((id) => fromB.has(id))).toEqual([]);
  });
});
