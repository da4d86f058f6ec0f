import { castDatetimeExactly } from './mysql-data-source';

const field = (type: string, text: string | null) => ({ type, string: () => text });
const untouched = () => 'mysql2 cast';

describe(castDatetimeExactly.name, () => {
  it.each([
    ['0001-01-01 00:00:00', '0001-01-01T00:00:00.000Z'],
    ['0001-01-01 00:00:00.000', '0001-01-01T00:00:00.000Z'],
    ['0099-12-31 23:59:59.999', '0099-12-31T23:59:59.999Z'],
    ['2026-03-15 12:00:00.123', '2026-03-15T12:00:00.123Z'],
    ['2024-02-29 00:00:00.5', '2024-02-29T00:00:00.500Z'],
    ['9999-12-31 23:59:59.999999', '9999-12-31T23:59:59.999Z'],
  ])('reads %s as the UTC instant %s', (text, iso) => {
    expect((castDatetimeExactly(field('DATETIME', text), untouched) as Date).toISOString()).toBe(iso);
  });

  it('keeps a NULL null and leaves other types to mysql2', () => {
    expect(castDatetimeExactly(field('DATETIME', null), untouched)).toBeNull();
    expect(castDatetimeExactly(field('LONGLONG', '12'), untouched)).toBe('mysql2 cast');
  });
});
