/**
 * The indexes of the operators' console reads (CONTRACT 17): keys newest
 * first and by prefix, tier and status; users by e-mail; counters by period; events by key and day (covering
 * the counts by type, outcome and model) and by day; the audit log newest first, by action. The same names and columns on every
 * database: each database's migration 1764100000000 creates them from this one list. (The audit log's two
 * are replaced by the order of AUDIT_ORDER_INDEXES, migration 1764200000000.)
 */
export const CONSOLE_INDEXES: ReadonlyArray<readonly [name: string, table: string, columns: string]> = [
  ['ix_api_keys_created', 'api_keys', 'created_at, id'],
  ['ix_api_keys_prefix', 'api_keys', 'display_prefix, created_at, id'],
  ['ix_api_keys_tier_status', 'api_keys', 'license_type, revoked_at, expires_at'],
  ['ix_users_email', 'users', 'email'],
  ['ix_usage_counters_period', 'usage_counters', 'period, used'],
  ['ix_analytics_events_key_received', 'analytics_events', 'key_id, received_at, event_type, success, model_name'],
  ['ix_analytics_events_received', 'analytics_events', 'received_at'],
  ['ix_audit_log_at_id', 'audit_log', 'at, id'],
  ['ix_audit_log_action_at', 'audit_log', 'action, at, id'],
];
