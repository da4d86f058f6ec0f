import { isPlausibleEmail } from './user';

describe(isPlausibleEmail.name, () => {
  it.each(['ada@example.org', 'a.b+tag@sub.example.co.uk', `${'a'.repeat(240)}@example.org`])('accepts %s', (email) => {
    expect(isPlausibleEmail(email)).toBe(true);
  });

  it.each([
    ['no @', 'ada.example.org'],
    ['two @', 'ada@@example.org'],
    ['no dot in the domain', 'ada@localhost'],
    ['a space', 'ada lovelace@example.org'],
    ['a leading space', ' ada@example.org'],
    ['empty', ''],
    ['too long', `${'a'.repeat(243)}@example.org`],
    ['not a string', 42],
    ['null', null],
  ])('refuses %s', (_, email) => {
    expect(isPlausibleEmail(email)).toBe(false);
  });
});
