import { makeApiKey } from '../../../../test/factories/domain.factory';
import { type ApiKey } from './api-key';
import { type PresentedKey } from './api-key-format';
import { KEY_CHECK_CODES, type KeyPurpose, assertUsableFor, assertWellFormed } from './key-check';

const NOW = new Date('2026-03-15T12:00:00Z');
const PRESENTED: PresentedKey[] = [{ kind: 'missing' }, { kind: 'malformed' }, { kind: 'well-formed', secret: 's', environment: 'live' }];
const FOUND: Array<ApiKey | null> = [
  null,
  makeApiKey({ revokedAt: new Date(NOW.getTime() - 1000) }),
  makeApiKey({ expiresAt: NOW }),
  makeApiKey({ expiresAt: new Date(NOW.getTime() + 1000) }),
];

/** The code the checks answer for one presented key and one stored key, in CONTRACT 2's order, or OK. */
function verdictOf(purpose: KeyPurpose, presented: PresentedKey, found: ApiKey | null): string {
  try {
    assertWellFormed(presented);
    assertUsableFor(purpose, found, NOW);
    return 'OK';
  } catch (error) {
    return (error as { code: string }).code;
  }
}

describe('KEY_CHECK_CODES', () => {
  it.each<KeyPurpose>(['use', 'revoke'])('lists exactly the codes the %s checks answer', (purpose) => {
    const answered = new Set(PRESENTED.flatMap((presented) => FOUND.map((found) => verdictOf(purpose, presented, found))));
    answered.delete('OK');
    expect([...answered].sort()).toEqual([...KEY_CHECK_CODES[purpose]].sort());
  });

  it('revocation passes an expired key; use refuses it', () => {
    expect(verdictOf('revoke', PRESENTED[2], FOUND[2])).toBe('OK');
    expect(verdictOf('use', PRESENTED[2], FOUND[2])).toBe('KEY_EXPIRED');
  });
});
