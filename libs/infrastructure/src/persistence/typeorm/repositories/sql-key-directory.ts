import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { KeyDirectory, KeyListing, KeySearch, KeyUsage, NearQuotaQuery, TierStatusCount } from '@svc/application';
import { KeyStatus, LICENSE_TYPES } from '@svc/domain';
import { Repository } from 'typeorm';
import { ApiKeyMapper } from '../mappers/api-key.mapper';
import { RecordHydrator } from '../record-hydrator';
import { ApiKeyRecord } from '../records/api-key.record';
import { PreparedStatement, SqlStatements } from '../sql-statements';

type ListingRow = Record<string, unknown> & { u_email: string };
type UsageRow = ListingRow & { used: string | number; lim: string | number };

/**
 * A key's status at an instant (the bound parameter), in SQL: the rule of
 * ApiKey.statusAt (revoked wins; expired from the instant `expires_at` is
 * reached). The contract suites hold the two to the same answers.
 */
const STATUS_FILTER: Readonly<Record<KeyStatus, string>> = {
  revoked: 'k.revoked_at IS NOT NULL',
  expired: 'k.revoked_at IS NULL AND k.expires_at <= ?',
  active: 'k.revoked_at IS NULL AND k.expires_at > ?',
};

/**
 * The operators' reads across keys in portable SQL, on the indexes of
 * migration 1764100000000: newest first on (created_at, id), by e-mail on
 * users (email) then api_keys (user_id), by prefix on (display_prefix,
 * created_at, id), the counts on (license_type, revoked_at, expires_at).
 * Each search shape is one prepared statement.
 */
@Injectable()
export class SqlKeyDirectory extends KeyDirectory {
  private readonly keyRows: RecordHydrator<ApiKeyRecord>;
  private readonly prepared = new Map<string, PreparedStatement>();

  constructor(
    @InjectRepository(ApiKeyRecord) records: Repository<ApiKeyRecord>,
    private readonly statements: SqlStatements,
  ) {
    super();
    this.keyRows = new RecordHydrator(records.manager.connection, ApiKeyRecord);
  }

  /**
   * The page's ids first, from the indexes alone where the filters allow
   * (ordered by (created_at, id), or by (display_prefix, created_at, id) then
   * sorted), and only then the page's rows and their holders: a filter that
   * matches many keys sorts ids, not whole rows.
   */
  async search(query: KeySearch): Promise<KeyListing[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const shape: string[] = [];
    if (query.email !== undefined) {
      where.push('k.user_id IN (SELECT u.id FROM users u WHERE u.email_lower = ?)');
      params.push(query.email);
      shape.push('e');
    }
    if (query.emailPrefix !== undefined && query.emailPrefix !== '') {
      where.push(`k.user_id IN (SELECT u.id FROM users u WHERE ${startsWith('u.email_lower')})`);
      params.push(...startsWithParams(query.emailPrefix));
      shape.push('ep');
    }
    if (query.prefix !== undefined && query.prefix !== '') {
      where.push(startsWith('k.display_prefix'));
      params.push(...startsWithParams(query.prefix));
      shape.push('p');
    }
    if (query.userId !== undefined) {
      where.push('k.user_id = ?');
      params.push(query.userId);
      shape.push('u');
    }
    if (query.licenseType !== undefined) {
      where.push('k.license_type = ?');
      params.push(query.licenseType);
      shape.push('t');
    }
    if (query.status !== undefined) {
      where.push(STATUS_FILTER[query.status]);
      if (query.status !== 'revoked') params.push(this.keyRows.bind('expiresAt', query.at));
      shape.push(`s${query.status}`);
    }
    if (query.after !== undefined) {
      // a row value: one range on (created_at, id), wherever the page before ended
      where.push('(k.created_at, k.id) < (?, ?)');
      params.push(this.keyRows.bind('createdAt', query.after.createdAt), query.after.id);
      shape.push('a');
    }
    params.push(query.limit);
    const statement = this.statement(
      `key_search_${shape.join('_') || 'all'}`,
      () =>
        'SELECT ' +
        `${this.keyRows.selectList('k')}, u.email AS u_email FROM (SELECT k.id AS page_id FROM api_keys k` +
        (where.length ? ` WHERE ${where.join(' AND ')}` : '') +
        ' ORDER BY k.created_at DESC, k.id DESC LIMIT ?) page JOIN api_keys k ON k.id = page.page_id JOIN users u ON u.id = k.user_id',
    );
    // the page is put in order here: an outer ORDER BY leads SQLite's planner to walk every key in that order
    return (await statement.all(params)).map((row) => this.listingOf(row as ListingRow)).sort(newestFirst);
  }

  /**
   * On (license_type, revoked_at, expires_at): one pass over the index for
   * the keys of each tier, then two index ranges per tier (revoked; expired at
   * `at`), so only the expired and revoked keys are visited again.
   */
  async countByTierAndStatus(at: Date): Promise<TierStatusCount[]> {
    const counts = [
      "SELECT license_type AS tier, 'all' AS status, COUNT(*) AS n FROM api_keys GROUP BY license_type",
      ...LICENSE_TYPES.flatMap((t) => [
        `SELECT '${t}' AS tier, 'revoked' AS status, COUNT(*) AS n FROM api_keys WHERE license_type = '${t}' AND revoked_at IS NOT NULL`,
        `SELECT '${t}' AS tier, 'expired' AS status, COUNT(*) AS n FROM api_keys WHERE license_type = '${t}' AND revoked_at IS NULL AND expires_at <= ?`,
      ]),
    ];
    const statement = this.statement('key_counts_by_tier_status', () => counts.join(' UNION ALL '));
    const expiry = this.keyRows.bind('expiresAt', at);
    const rows = (await statement.all(LICENSE_TYPES.map(() => expiry))) as Array<{ tier: string; status: string; n: string | number }>;
    const found: TierStatusCount[] = [];
    for (const tier of LICENSE_TYPES) {
      const n = (status: string) => Number(rows.find((r) => r.tier === tier && r.status === status)?.n ?? 0);
      const revoked = n('revoked');
      const expired = n('expired');
      const active = n('all') - revoked - expired;
      for (const [status, count] of [
        ['active', active],
        ['expired', expired],
        ['revoked', revoked],
      ] as const) {
        if (count > 0) found.push({ licenseType: tier, status, count });
      }
    }
    return found;
  }

  /**
   * The one statement that reads usage against limits (usage_counters by
   * period, joined to the license's current key: a key in its grace after a
   * rotation shares the counter and is not listed again): the limit in force
   * is the override, else the tier's, written into the SQL from the
   * catalogue (tier names and integers only).
   */
  async nearQuota(query: NearQuotaQuery): Promise<KeyUsage[]> {
    const tierLimit = LICENSE_TYPES.map((t) => `WHEN '${t}' THEN ${sqlInteger(query.tierLimits[t])}`).join(' ');
    const limitInForce = `CASE WHEN k.monthly_limit_source = 'override' THEN k.monthly_limit ELSE CASE k.license_type ${tierLimit} END END`;
    const sql =
      `SELECT x.* FROM (SELECT ${this.keyRows.selectList('k')}, u.email AS u_email, c.used AS used, ${limitInForce} AS lim ` +
      'FROM usage_counters c JOIN api_keys k ON k.license_id = c.license_id AND k.rotated_to IS NULL JOIN users u ON u.id = k.user_id ' +
      'WHERE c.period = ? AND c.used > 0) x ' +
      'WHERE x.lim > 0 AND x.used * 100 >= x.lim * ?' +
      // after a position: a smaller share (compared exactly, as integers), or the same share and a greater id
      (query.after ? ' AND (x.used * ? < ? * x.lim OR (x.used * ? = ? * x.lim AND x.id > ?))' : '') +
      ' ORDER BY x.used * 1.0 / x.lim DESC, x.id LIMIT ?';
    const statement = this.statement(`keys_near_quota_${hashOf(sql)}`, () => sql);
    const a = query.after;
    const after = a ? [a.monthlyLimit, a.used, a.monthlyLimit, a.used, a.keyId] : [];
    const rows = (await statement.all([query.period, query.atLeastPercent, ...after, query.limit])) as UsageRow[];
    return rows.map((row) => ({ ...this.listingOf(row), used: Number(row.used), monthlyLimit: Number(row.lim) }));
  }

  private listingOf(row: ListingRow): KeyListing {
    return { key: ApiKeyMapper.toDomain(this.keyRows.hydrate(row)), email: row.u_email };
  }

  private statement(name: string, sql: () => string): PreparedStatement {
    let statement = this.prepared.get(name);
    if (!statement) {
      statement = this.statements.prepare(name, sql());
      this.prepared.set(name, statement);
    }
    return statement;
  }
}

/** The list's order: creation time, then id, both descending (ids are ASCII: the same order as the databases'). */
function newestFirst(a: KeyListing, b: KeyListing): number {
  const t = b.key.props.createdAt.getTime() - a.key.props.createdAt.getTime();
  return t !== 0 ? t : a.key.id < b.key.id ? 1 : a.key.id > b.key.id ? -1 : 0;
}

/**
 * A column starting with a text, on the column's index: a range, then the exact test (the range alone is
 * exact only under a byte-order collation). Its parameters: startsWithParams.
 */
function startsWith(column: string): string {
  return `${column} >= ? AND ${column} < ? AND substr(${column}, 1, ?) = ?`;
}

function startsWithParams(prefix: string): unknown[] {
  return [prefix, successorOf(prefix), [...prefix].length, prefix];
}

/** The least text greater than every text starting with `prefix` (byte order): its last character, plus one. */
function successorOf(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

function sqlInteger(value: number | null): string {
  if (value === null) return 'NULL';
  if (!Number.isSafeInteger(value)) throw new Error(`not an integer limit: ${value}`);
  return String(value);
}

function hashOf(text: string): string {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return (h >>> 0).toString(36);
}
