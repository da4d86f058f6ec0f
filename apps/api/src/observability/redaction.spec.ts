import { redactText, redactUrl } from './redaction';

const KEY = `svc_live_${'0123456789abcdef'.repeat(3)}`;

describe(redactUrl.name, () => {
  it.each([
    [`/v1/models/list?api_key=${KEY}`, '/v1/models/list?api_key=[REDACTED]'],
    [`/v1/models/list?type=SvcLDA&api_key=${KEY}&paradigm=p300`, '/v1/models/list?type=SvcLDA&api_key=[REDACTED]&paradigm=p300'],
    [
      `/x?API_KEY=anything&token=ghp_abc&access_token=t&x-api-key=k`,
      '/x?API_KEY=[REDACTED]&token=[REDACTED]&access_token=[REDACTED]&x-api-key=[REDACTED]',
    ],
    [`/v1/auth/${KEY}`, '/v1/auth/[REDACTED]'],
    [`/${KEY.slice(9)}`, '/[REDACTED]'],
    [`/v1/auth/${KEY.toUpperCase()}`, '/v1/auth/[REDACTED]'],
    [`/x?q=acme_test_${'f'.repeat(48)}`, '/x?q=[REDACTED]'],
  ])('%s -> %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });

  it('leaves ids, model names and other parameters readable', () => {
    for (const url of [
      '/admin/v1/audit?key_id=key_3f1c9a0b7d2e4c5a8b6f0e1d',
      '/v1/models/motor_imagery_test_v1/download',
      '/model-files/p300_binary_v1-1.0.0-3f1c9a0b7d2e4c5a8b6f0e1d.bin',
      '/v1/models/list?paradigm=ssvep&type=SvcQDA',
    ]) {
      expect(redactUrl(url)).toBe(url);
    }
  });
});

describe(redactText.name, () => {
  it('replaces key-shaped text in free text', () => {
    expect(redactText(`rotated; the old one was ${KEY}, see ticket 42`)).toBe('rotated; the old one was [REDACTED], see ticket 42');
  });
});
