import { type QueryRunner } from 'typeorm';
import { selectedRows } from '../../typeorm/migration-rows';

/**
 * The table options every MySQL migration uses: InnoDB, utf8mb4, and a
 * binary collation WITHOUT padding, so `=` compares every byte as SQLite and
 * PostgreSQL do (case-sensitive, and `'abc '` is not `'abc'`: utf8mb4_bin
 * pads, so a digest with a trailing space would match). The two servers name
 * that collation differently: MariaDB `utf8mb4_nopad_bin`, MySQL 8 `utf8mb4_0900_bin`.
 */
export async function tableOptions(q: QueryRunner): Promise<string> {
  const [{ version }] = await selectedRows<{ version: string }>(q, 'SELECT VERSION() AS version');
  const collation = /mariadb/i.test(version) ? 'utf8mb4_nopad_bin' : 'utf8mb4_0900_bin';
  return `ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=${collation}`;
}
