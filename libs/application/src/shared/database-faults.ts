/**
 * How a failure of the configured database's driver reads in the domain's
 * terms: DatabaseUnavailableError when the database cannot answer now (with
 * its retry hint), InvalidRequestError when it refused a text it cannot store,
 * any other error unchanged. Applied where a failure leaves the service (the
 * HTTP error filter, the CLI's report), so nothing outside the adapters knows
 * a driver's codes. Each persistence module binds the one of its database.
 */
export abstract class DatabaseFaults {
  abstract translate(error: unknown): unknown;
}
