/**
 * POST and PUT /admin/v1/models bodies as parsed JSON: a model record (SPEC
 * 2.4 fields and `owner_user_id`). It is deliberately not a validated DTO:
 * the record's rules live once, in the domain (`readModelDescription`), for
 * the admin API and the CLI alike, and a whitelist would silently drop
 * `checksum`, which is refused instead.
 */
export type ModelRequest = Readonly<Record<string, unknown>> | undefined;
