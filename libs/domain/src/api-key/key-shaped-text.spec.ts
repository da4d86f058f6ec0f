import { REDACTED, redactKeyShapedText } from './key-shaped-text';

const KEY = 'svc_live_0123456789abcdef0123456789abcdef0123456789abcdef';

describe(redactKeyShapedText.name, () => {
  it.each([
    [`rotated; the old one was ${KEY}, see ticket 42`, `rotated; the old one was ${REDACTED}, see ticket 42`],
    [`${KEY.toUpperCase()} leaked`, `${REDACTED} leaked`],
    ['acme_test_0123456789ABCDEF0123 under another prefix', `${REDACTED} under another prefix`],
    ['only the secret part: 0123456789abcdef0123456789abcdef0123456789abcdef', `only the secret part: ${REDACTED}`],
    [`two: ${KEY} and ${KEY}`, `two: ${REDACTED} and ${REDACTED}`],
  ])('replaces key-shaped text: %s', (text, redacted) => {
    expect(redactKeyShapedText(text)).toBe(redacted);
  });

  it.each(['rotated', 'key_0123456789abcdef01234567 was shared by mistake', 'motor_imagery_4class_v1 is outdated', 'ticket 4242'])(
    'leaves other text alone: %s',
    (text) => {
      expect(redactKeyShapedText(text)).toBe(text);
    },
  );
});
