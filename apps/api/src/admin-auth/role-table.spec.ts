import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PERMISSIONS, PERMISSION_NAMES, ROLES, roleAllows } from '@svc/domain';

/**
 * The docs' table of what each role may do is generated from the domain's
 * one permission table (CONTRACT 21): `roleTable()` renders it, and this test
 * holds docs/API.md and docs/OPERATIONS.md to it (copy its output when the table changes).
 */
export function roleTable(): string {
  const header = `| Permission | What it allows | ${ROLES.join(' | ')} |`;
  const rule = `|---|---|${ROLES.map(() => ':-:').join('|')}|`;
  const rows = PERMISSION_NAMES.map(
    (permission) =>
      `| \`${permission}\` | ${PERMISSIONS[permission].what} | ${ROLES.map((role) => (roleAllows(role, permission) ? 'yes' : '')).join(' | ')} |`,
  );
  return [header, rule, ...rows].join('\n');
}

describe('the role table in the docs', () => {
  const root = join(__dirname, '..', '..', '..', '..');
  it.each(['docs/API.md', 'docs/OPERATIONS.md'])('%s holds the table generated from the domain', (file) => {
    expect(readFileSync(join(root, file), 'utf8')).toContain(roleTable());
  });
});
