import { KeyLifecyclePostgres1763700000000 } from './postgres/1763700000000-key-lifecycle';
import { KeyLifecycleSqlite1763700000000 } from './sqlite/1763700000000-key-lifecycle';
import { AnalyticsEventsPostgres1763800000000 } from './postgres/1763800000000-analytics-events';
import { AnalyticsEventsSqlite1763800000000 } from './sqlite/1763800000000-analytics-events';

/** Migrations per driver, in order. Both lists must describe the same schema. */
export const SQLITE_MIGRATIONS = [KeyLifecycleSqlite1763700000000, AnalyticsEventsSqlite1763800000000];
export const POSTGRES_MIGRATIONS = [KeyLifecyclePostgres1763700000000, AnalyticsEventsPostgres1763800000000];
