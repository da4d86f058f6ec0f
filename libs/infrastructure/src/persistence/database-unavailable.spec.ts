import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable } from './database-unavailable';

const driverError = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe(isDatabaseUnavailable.name, () => {
  it.each([
    ['a refused connection', driverError('ECONNREFUSED')],
    ['PostgreSQL: the server shutting down', driverError('57P01')],
    ['PostgreSQL: a statement timeout', driverError('57014')],
    ['SQLite: busy', driverError('SQLITE_BUSY')],
    ['MySQL: the connection lost', driverError('PROTOCOL_CONNECTION_LOST')],
    ['MySQL: the client-side statement timeout', driverError('PROTOCOL_SEQUENCE_TIMEOUT')],
    ['MySQL: a deadlock victim', driverError('ER_LOCK_DEADLOCK')],
    ['MySQL: too many connections', driverError('ER_CON_COUNT_ERROR')],
    ['mysql2: a closed connection', new Error("Can't add new command when connection is in closed state")],
    ['wrapped by TypeORM', new QueryFailedError('SELECT 1', [], driverError('PROTOCOL_CONNECTION_LOST'))],
  ])('%s is the database unavailable', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a bug', new TypeError('x is undefined')],
    ['MySQL: a taken name', driverError('ER_DUP_ENTRY')],
    ['PostgreSQL: a unique violation', driverError('23505')],
    ['SQLite: a constraint', driverError('SQLITE_CONSTRAINT_PRIMARYKEY')],
    ['nothing', undefined],
  ])('%s is not', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
