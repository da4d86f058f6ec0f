import { FixedClock } from './clock';

describe(FixedClock.name, () => {
  it('answers the time it was given until moved', () => {
    const clock = new FixedClock(new Date('2026-03-15T12:00:00Z'));
    expect(clock.now()).toEqual(new Date('2026-03-15T12:00:00Z'));
    clock.advance(1500);
    expect(clock.now()).toEqual(new Date('2026-03-15T12:00:01.500Z'));
    clock.set(new Date('2027-01-01T00:00:00Z'));
    expect(clock.now()).toEqual(new Date('2027-01-01T00:00:00Z'));
  });

  it('cannot be moved through the dates it hands out or is set to', () => {
    const clock = new FixedClock(new Date('2026-03-15T12:00:00Z'));
    clock.now().setUTCFullYear(1999);
    expect(clock.now()).toEqual(new Date('2026-03-15T12:00:00Z'));
    const later = new Date('2026-05-01T00:00:00Z');
    clock.set(later);
    later.setUTCFullYear(1999);
    expect(clock.now()).toEqual(new Date('2026-05-01T00:00:00Z'));
  });
});
