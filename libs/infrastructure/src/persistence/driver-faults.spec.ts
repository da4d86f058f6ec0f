import { DatabaseUnavailableError } from '@svc/domain';
import { ConnectionIsNotSetError, QueryFailedError } from 'typeorm';
import { type DriverFaults, DriverFaultTranslator, UNSTORABLE_TEXT_HINT, isUnavailable } from './driver-faults';
import { MYSQL_FAULTS } from './mysql/mysql-faults';
import { POSTGRES_FAULTS } from './postgres/postgres-faults';
import { SQLITE_FAULTS } from './sqlite/sqlite-faults';

const driverError = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('each database module knows its own driver faults', () => {
  it.each<[string, DriverFaults, unknown]>([
    ['PostgreSQL: a refused connection', POSTGRES_FAULTS, driverError('ECONNREFUSED')],
    ['PostgreSQL: the server shutting down', POSTGRES_FAULTS, driverError('57P01')],
    ['PostgreSQL: a statement timeout', POSTGRES_FAULTS, driverError('57014')],
    ['PostgreSQL: a terminated connection', POSTGRES_FAULTS, new Error('Connection terminated unexpectedly')],
    ['PostgreSQL: the data source closed', POSTGRES_FAULTS, new ConnectionIsNotSetError('postgres')],
    ['SQLite: busy', SQLITE_FAULTS, driverError('SQLITE_BUSY')],
    ['SQLite: the connection closed', SQLITE_FAULTS, new TypeError('The database connection is not open')],
    ['MySQL: a refused connection', MYSQL_FAULTS, driverError('ECONNREFUSED')],
    ['MySQL: the connection lost', MYSQL_FAULTS, driverError('PROTOCOL_CONNECTION_LOST')],
    ['MySQL: the client-side statement timeout', MYSQL_FAULTS, driverError('PROTOCOL_SEQUENCE_TIMEOUT')],
    ['MySQL: a deadlock victim', MYSQL_FAULTS, driverError('ER_LOCK_DEADLOCK')],
    ['MySQL: too many connections', MYSQL_FAULTS, driverError('ER_CON_COUNT_ERROR')],
    ['mysql2: a closed connection', MYSQL_FAULTS, new Error("Can't add new command when connection is in closed state")],
    ['MySQL wrapped by TypeORM', MYSQL_FAULTS, new QueryFailedError('SELECT 1', [], driverError('PROTOCOL_CONNECTION_LOST'))],
  ])('%s is the database unavailable', (_, faults, error) => {
    expect(isUnavailable(faults, error)).toBe(true);
  });

  it.each<[string, DriverFaults, unknown]>([
    ['a bug', POSTGRES_FAULTS, new TypeError('x is undefined')],
    ['MySQL: a taken name', MYSQL_FAULTS, driverError('ER_DUP_ENTRY')],
    ['PostgreSQL: a unique violation', POSTGRES_FAULTS, driverError('23505')],
    ['SQLite: a constraint', SQLITE_FAULTS, driverError('SQLITE_CONSTRAINT_PRIMARYKEY')],
    ["SQLite: another driver's code", SQLITE_FAULTS, driverError('PROTOCOL_CONNECTION_LOST')],
    ["MySQL: PostgreSQL's SQLSTATE", MYSQL_FAULTS, driverError('57P01')],
    ['nothing', SQLITE_FAULTS, undefined],
  ])('%s is not', (_, faults, error) => {
    expect(isUnavailable(faults, error)).toBe(false);
  });
});

describe(DriverFaultTranslator.name, () => {
  it("turns the driver's faults into DatabaseUnavailableError with the module's retry hint, the cause kept", () => {
    const busy = driverError('SQLITE_BUSY');
    const error = new DriverFaultTranslator(SQLITE_FAULTS).translate(busy);
    expect(error).toBeInstanceOf(DatabaseUnavailableError);
    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryAfterSeconds: SQLITE_FAULTS.retryAfterSeconds, cause: busy });
  });

  it('passes other failures through unchanged', () => {
    const bug = new TypeError('x is undefined');
    expect(new DriverFaultTranslator(POSTGRES_FAULTS).translate(bug)).toBe(bug);
    expect(new DriverFaultTranslator(POSTGRES_FAULTS).translate(undefined)).toBeUndefined();
  });

  it("reads PostgreSQL's refusal of NUL (22021) as INVALID_REQUEST, not a server error; other databases' codes pass as they are", () => {
    const nul = new QueryFailedError('SELECT 1', [], driverError('22021', 'invalid byte sequence for encoding "UTF8": 0x00'));
    expect(new DriverFaultTranslator(POSTGRES_FAULTS).translate(nul)).toMatchObject({
      code: 'INVALID_REQUEST',
      hint: UNSTORABLE_TEXT_HINT,
    });
    expect(new DriverFaultTranslator(MYSQL_FAULTS).translate(nul)).toBe(nul);
    expect(new DriverFaultTranslator(SQLITE_FAULTS).translate(nul)).toBe(nul);
  });
});
