import { PLAIN_TEXT_PATTERNS, isPlainText } from './plain-text';

describe('isPlainText (names that cannot disguise themselves)', () => {
  const controls = [0x00, 0x01, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b, 0x1f, 0x7f, 0x80, 0x85, 0x9f].map((c) =>
    String.fromCharCode(c),
  );
  const bidi = ['\u061c', '\u200e', '\u200f', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];

  it.each([...controls, ...bidi, '\u2028', '\u2029'].map((c) => [c.codePointAt(0)!.toString(16).padStart(4, '0'), c]))(
    'refuses U+%s in one-line text, wherever it is',
    (_, c) => {
      expect(isPlainText(c)).toBe(false);
      expect(isPlainText(`Grace${c}Hopper`)).toBe(false);
      expect(isPlainText(`Grace Hopper${c}`)).toBe(false);
    },
  );

  it('takes multi-line text with tabs and line breaks, and nothing else of those', () => {
    expect(isPlainText('line one\nline two\r\n\tindented', true)).toBe(true);
    for (const c of [...controls.filter((c) => !'\t\n\r'.includes(c)), ...bidi, '\u2028', '\u2029'])
      expect(isPlainText(`a${c}b`, true)).toBe(false);
  });

  it.each([
    'Grace Hopper',
    'Zoë Ångström-Łukasiewicz',
    'محمد بن موسى',
    'עברית ו-English',
    '李小龙',
    'Team 🚀 👩‍💻',
    'می‌خواهم',
    '',
    'a\u00a0b',
  ])('takes %s', (text) => {
    expect(isPlainText(text)).toBe(true);
    expect(isPlainText(text, true)).toBe(true);
  });

  it('states the same rule as a pattern for a JSON schema (unicode mode)', () => {
    for (const [multiLine, source] of [
      [false, PLAIN_TEXT_PATTERNS.oneLine],
      [true, PLAIN_TEXT_PATTERNS.multiLine],
    ] as const) {
      const pattern = new RegExp(source, 'u');
      for (let c = 0; c < 0x2100; c++) {
        const text = `a${String.fromCharCode(c)}b`;
        expect([c, pattern.test(text)]).toEqual([c, isPlainText(text, multiLine)]);
      }
    }
  });
});
