/**
 * The actors of audit entries written before operators existed (migration
 * 1764600000000, the same statements on every database): a key's own revoke
 * or rotate and its installer tokens name the key; a model change made
 * through the CLI names the CLI (its OS user was not recorded then, so the
 * user is empty). Other changes came through the admin API (ADMIN_TOKEN),
 * the CLI's key commands or the sample-model seeding, which left no mark
 * telling them apart: they stay `system`, the column's default, rather than
 * be guessed.
 */
export const AUDIT_ACTOR_BACKFILL: readonly string[] = [
  `UPDATE audit_log SET actor_type = 'key', actor_id = key_id WHERE details LIKE '%"by":"holder"%' OR action = 'installer.token_issued'`,
  `UPDATE audit_log SET actor_type = 'cli', actor_name = '' WHERE action LIKE 'model.%' AND details LIKE '%"channel":"cli"%'`,
];
