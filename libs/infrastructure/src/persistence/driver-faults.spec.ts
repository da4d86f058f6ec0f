import { DatabaseUnavailableError, UserRepository } from '@svc/domain';
import { ConnectionIsNotSetError, QueryFailedError } from 'typeorm';
import { InMemoryUserRepository } from '../../../../test/in-memory';
import { type DriverFaults, UNSTORABLE_TEXT_HINT, isUnavailable, translatingFaults } from './driver-faults';
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

describe(translatingFaults.name, () => {
  class FailingUsers extends InMemoryUserRepository {
    failure?: Error;
    override async findById(id: string) {
      if (this.failure) throw this.failure;
      return super.findById(id);
    }
  }

  it("turns the driver's faults into DatabaseUnavailableError with the module's retry hint, the cause kept", async () => {
    const adapter = new FailingUsers();
    const users = translatingFaults(adapter, SQLITE_FAULTS);
    const busy = driverError('SQLITE_BUSY');
    adapter.failure = busy;
    const error: unknown = await users.findById('usr_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseUnavailableError);
    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryAfterSeconds: SQLITE_FAULTS.retryAfterSeconds, cause: busy });
  });

  it('passes other failures and every answer through unchanged, and stays the port', async () => {
    const adapter = new FailingUsers();
    const users = translatingFaults(adapter, POSTGRES_FAULTS);
    expect(users).toBeInstanceOf(UserRepository);
    expect(await users.findById('usr_1')).toBeNull();
    const bug = new TypeError('x is undefined');
    adapter.failure = bug;
    await expect(users.findById('usr_1')).rejects.toBe(bug);
  });
});

describe('text the database cannot store', () => {
  class Users extends InMemoryUserRepository {
    failure?: Error;
    override async findById(id: string) {
      if (this.failure) throw this.failure;
      return super.findById(id);
    }
  }

  it("PostgreSQL's refusal of NUL (22021) answers INVALID_REQUEST, not a server error; other databases' codes pass as they are", async () => {
    const adapter = new Users();
    const nul = new QueryFailedError('SELECT 1', [], driverError('22021', 'invalid byte sequence for encoding "UTF8": 0x00'));
    adapter.failure = nul;
    await expect(translatingFaults(adapter, POSTGRES_FAULTS).findById('usr_\u0000')).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      hint: UNSTORABLE_TEXT_HINT,
    });
    await expect(translatingFaults(adapter, MYSQL_FAULTS).findById('usr_1')).rejects.toBe(nul);
    await expect(translatingFaults(adapter, SQLITE_FAULTS).findById('usr_1')).rejects.toBe(nul);
  });
});
