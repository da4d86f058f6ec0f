import { RandomSource } from '../shared/id-generator';
import { ApiKeyFormat, DISPLAY_PREFIX_LENGTH } from './api-key-format';

const HEX48 = '0123456789abcdef'.repeat(3);

class QueuedRandom extends RandomSource {
  readonly requested: number[] = [];
  constructor(private readonly answer: string) {
    super();
  }
  hex(bytes: number): string {
    this.requested.push(bytes);
    return this.answer;
  }
}

describe(ApiKeyFormat.name, () => {
  const svc = new ApiKeyFormat('svc');

  describe('judge', () => {
    it.each([
      ['a live key', `svc_live_${HEX48}`, 'live'],
      ['a test key', `svc_test_${HEX48}`, 'test'],
      ['upper-case hex', `svc_live_${HEX48.toUpperCase()}`, 'live'],
      ['mixed-case hex', `svc_test_${'aB'.repeat(24)}`, 'test'],
    ])('accepts %s as well-formed, keeping it exactly', (_, raw, environment) => {
      expect(svc.judge(raw)).toEqual({ kind: 'well-formed', secret: raw, environment });
    });

    it.each([
      ['undefined', undefined],
      ['null', null],
      ['the empty string', ''],
      ['spaces', '   '],
      ['tabs and newlines', '\t\n\r '],
      ['a non-breaking space', '\u00a0'],
    ])('treats %s as missing', (_, raw) => {
      expect(svc.judge(raw)).toEqual({ kind: 'missing' });
    });

    it.each([
      ['a number', 42],
      ['zero', 0],
      ['false', false],
      ['true', true],
      ['an object', { api_key: `svc_live_${HEX48}` }],
      ['an array holding a key', [`svc_live_${HEX48}`]],
      ['an empty array', []],
      ['a boxed string', Object(`svc_live_${HEX48}`)],
    ])('treats %s (not a string) as malformed', (_, raw) => {
      expect(svc.judge(raw)).toEqual({ kind: 'malformed' });
    });

    it.each([
      ['a leading space', ` svc_live_${HEX48}`],
      ['a trailing space', `svc_live_${HEX48} `],
      ['a trailing newline', `svc_live_${HEX48}\n`],
      ['47 hex characters', `svc_live_${HEX48.slice(1)}`],
      ['49 hex characters', `svc_live_${HEX48}a`],
      ['a non-hex character', `svc_live_${HEX48.slice(1)}g`],
      ['an unknown environment', `svc_prod_${HEX48}`],
      ['an upper-case environment', `svc_LIVE_${HEX48}`],
      ['an upper-case prefix', `SVC_live_${HEX48}`],
      ['another prefix', `abc_live_${HEX48}`],
      ['no prefix', `_live_${HEX48}`],
      ['dashes for underscores', `svc-live-${HEX48}`],
      ['the prefix twice', `svc_svc_live_${HEX48}`],
      ['a key embedded in text', `key=svc_live_${HEX48}`],
      ['a key followed by another', `svc_live_${HEX48}svc_live_${HEX48}`],
      ['full-width digits', `svc_live_${HEX48.slice(1)}\uff11`],
    ])('treats a key with %s as malformed (nothing is trimmed or normalised)', (_, raw) => {
      expect(svc.judge(raw)).toEqual({ kind: 'malformed' });
    });

    it('uses the configured prefix word', () => {
      const acme = new ApiKeyFormat('acme2');
      expect(acme.judge(`acme2_live_${HEX48}`)).toEqual({ kind: 'well-formed', secret: `acme2_live_${HEX48}`, environment: 'live' });
      expect(acme.judge(`svc_live_${HEX48}`)).toEqual({ kind: 'malformed' });
      expect(acme.judge(`acme_live_${HEX48}`)).toEqual({ kind: 'malformed' });
      expect(acme.prefix).toBe('acme2');
    });

    it.each(['', 'sv c', 'svc_', 'a.b', 'x+', '(svc)', 'svc|abc'])('refuses the prefix word %j', (prefix) => {
      expect(() => new ApiKeyFormat(prefix)).toThrow('key prefix must be letters and digits');
    });
  });

  describe('generate', () => {
    it('asks the random source for 24 bytes (192 bits) and gives 48 lowercase hex', () => {
      const random = new QueuedRandom(HEX48.toUpperCase());

      const key = svc.generate('live', random);

      expect(random.requested).toEqual([24]);
      expect(key).toBe(`svc_live_${HEX48}`);
      expect(key).toMatch(/^svc_live_[0-9a-f]{48}$/);
    });

    it('writes the environment and the configured prefix, and judges its own keys well-formed', () => {
      const acme = new ApiKeyFormat('acme');
      const key = acme.generate('test', new QueuedRandom(HEX48));
      expect(key).toBe(`acme_test_${HEX48}`);
      expect(acme.judge(key)).toEqual({ kind: 'well-formed', secret: key, environment: 'test' });
    });

    it.each([
      ['too short', HEX48.slice(2)],
      ['too long', `${HEX48}00`],
      ['not hex', 'z'.repeat(48)],
    ])('refuses a random source whose answer is %s', (_, answer) => {
      expect(() => svc.generate('live', new QueuedRandom(answer))).toThrow('random source must give 24 bytes of hex');
    });
  });

  describe('displayPrefixOf', () => {
    it('keeps the first 12 characters only', () => {
      const key = `svc_live_${HEX48}`;
      expect(DISPLAY_PREFIX_LENGTH).toBe(12);
      expect(ApiKeyFormat.displayPrefixOf(key)).toBe('svc_live_012');
    });
  });
});
