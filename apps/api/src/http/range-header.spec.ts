import { byteRangeRequestOf } from './range-header';

describe(byteRangeRequestOf.name, () => {
  it.each([
    ['bytes=0-99', { start: 0, end: 99 }],
    ['bytes=100-', { start: 100 }],
    ['bytes=-500', { suffixLength: 500 }],
    ['bytes = 5 - 9', { start: 5, end: 9 }],
    ['bytes=9-5', { start: 9, end: 5 }],
  ])('reads %j', (header, expected) => {
    expect(byteRangeRequestOf(header)).toEqual(expected);
  });

  it.each([[undefined], ['bytes=0-1,5-9'], ['items=0-1'], ['bytes='], ['bytes=-'], ['bytes=a-b'], [['bytes=0-1', 'bytes=2-3']]])(
    'answers the whole file for %j',
    (header) => {
      expect(byteRangeRequestOf(header)).toBeUndefined();
    },
  );
});
