import { LicenseKeySchedule, type LicenseSigningKey, SIGNING_KEYS_REREAD_MS } from './license-signing-key';

const T0 = new Date('2026-03-15T12:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const generations = (keys: readonly LicenseSigningKey[]) => keys.map((key) => key.generation);

describe(LicenseKeySchedule.name, () => {
  const schedule = new LicenseKeySchedule(3600, 86_400);
  const first = schedule.first('pem-1', T0);

  it('the first key signs at once and is the only one published', () => {
    expect(first).toEqual({ generation: 1, privateKey: 'pem-1', createdAt: T0, signsFrom: T0 });
    expect(schedule.signingAt([first], T0).generation).toBe(1);
    expect(generations(schedule.publishedAt([first], T0))).toEqual([1]);
  });

  it('a rotated key is published at once, signs after the publish delay, and the old one stays until its last token expired', () => {
    const second = schedule.next([first], 'pem-2', at(100));
    expect(second).toEqual({ generation: 2, privateKey: 'pem-2', createdAt: at(100), signsFrom: at(3700) });
    const keys = [first, second];
    // published at once, the old key still signing first
    expect(generations(schedule.publishedAt(keys, at(100)))).toEqual([1, 2]);
    expect(schedule.signingAt(keys, at(3699)).generation).toBe(1);
    // the new key signs from its signsFrom on
    expect(schedule.signingAt(keys, at(3700)).generation).toBe(2);
    expect(generations(schedule.publishedAt(keys, at(3700)))).toEqual([2, 1]);
    // the old key leaves once a token it signed last (at 3700, plus a minute of instances not yet reading) has expired
    const unpublished = schedule.unpublishedAt(keys, first);
    expect(unpublished).toEqual(new Date(at(3700 + 86_400).getTime() + SIGNING_KEYS_REREAD_MS));
    expect(generations(schedule.publishedAt(keys, new Date(unpublished.getTime() - 1)))).toEqual([2, 1]);
    expect(generations(schedule.publishedAt(keys, unpublished))).toEqual([2]);
    expect(generations(schedule.retiredAt(keys, unpublished))).toEqual([1]);
  });

  it('rotations in quick succession never sign out of order', () => {
    const second = schedule.next([first], 'pem-2', at(0));
    const third = new LicenseKeySchedule(0, 86_400).next([first, second], 'pem-3', at(10));
    expect(third.signsFrom).toEqual(second.signsFrom);
    const keys = [first, second, third];
    expect(schedule.signingAt(keys, at(3600)).generation).toBe(3);
    expect(generations(schedule.publishedAt(keys, at(10)))).toEqual([1, 3, 2]);
  });

  it('refuses a publish delay outside 0 to 30 days', () => {
    for (const seconds of [-1, 1.5, 2_592_001, Number.NaN]) expect(() => new LicenseKeySchedule(seconds, 60)).toThrow(RangeError);
  });
});
