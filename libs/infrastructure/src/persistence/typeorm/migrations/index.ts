import { KeyLifecyclePostgres1763700000000 } from './postgres/1763700000000-key-lifecycle';
import { KeyLifecycleSqlite1763700000000 } from './sqlite/1763700000000-key-lifecycle';
import { AnalyticsEventsPostgres1763800000000 } from './postgres/1763800000000-analytics-events';
import { AnalyticsEventsSqlite1763800000000 } from './sqlite/1763800000000-analytics-events';
import { ModelRegistryPostgres1763900000000 } from './postgres/1763900000000-model-registry';
import { ModelRegistrySqlite1763900000000 } from './sqlite/1763900000000-model-registry';

/** Migrations per driver, in order. Both lists must describe the same schema. */
export const SQLITE_MIGRATIONS = [KeyLifecycleSqlite1763700000000, AnalyticsEventsSqlite1763800000000, ModelRegistrySqlite1763900000000];
export const POSTGRES_MIGRATIONS = [KeyLifecyclePostgres1763700000000, AnalyticsEventsPostgres1763800000000, ModelRegistryPostgres1763900000000];
