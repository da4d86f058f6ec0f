import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth';

/** `depth` arrays and objects inside one another, alternating, innermost holding `inner`. */
function nested(depth: number, inner = '1'): string {
  let text = inner;
  for (let level = depth; level >= 1; level--) text = level % 2 === 0 ? `[${text}]` : `{"k":${text}}`;
  return text;
}

describe(nestsDeeperThan.name, () => {
  it('counts arrays and objects inside one another: the outermost is level 1', () => {
    expect(nestsDeeperThan('{}', 0)).toBe(true);
    expect(nestsDeeperThan('{}', 1)).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan('['.repeat(30_000) + ']'.repeat(30_000), MAX_JSON_DEPTH)).toBe(true);
  });

  it('counts depth, not the number of containers side by side', () => {
    const wide = `{"a":[${Array.from({ length: 1000 }, () => '{"b":[1,2]}').join(',')}]}`;
    expect(nestsDeeperThan(wide, 4)).toBe(false);
    expect(nestsDeeperThan(wide, 3)).toBe(true);
  });

  it('ignores brackets and braces inside strings, escaped quotes and backslashes included', () => {
    const brackets = '[[[[{{{{';
    expect(nestsDeeperThan(JSON.stringify({ s: brackets.repeat(100) }), 1)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ s: `"${brackets}"\\${brackets}\\"${brackets}` }), 1)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ [brackets]: brackets, t: '\\' }), 1)).toBe(false);
    // a string ending in an escaped backslash closes: the brackets after it count
    expect(nestsDeeperThan('{"a":"\\\\","b":[[1]]}', 2)).toBe(true);
    expect(nestsDeeperThan('{"a":"\\\\","b":[[1]]}', 3)).toBe(false);
    // an escaped quote does not close: the brackets after it are still inside the string
    expect(nestsDeeperThan('{"a":"\\"[[[[","b":1}', 1)).toBe(false);
  });

  it('agrees with JSON.parse on the depth of generated values', () => {
    for (let depth = 1; depth <= 40; depth++) {
      const text = nested(depth, JSON.stringify('x[{"\\'));
      expect(JSON.parse(text)).toBeDefined();
      expect({ depth, deeper: nestsDeeperThan(text, MAX_JSON_DEPTH) }).toEqual({ depth, deeper: depth > MAX_JSON_DEPTH });
    }
  });

  it('gives an answer for text that is not JSON without throwing (the parser refuses it)', () => {
    for (const text of ['"unterminated [[[', ']]]]{', '\\', '', '"\\"']) expect(typeof nestsDeeperThan(text, 2)).toBe('boolean');
  });
});
