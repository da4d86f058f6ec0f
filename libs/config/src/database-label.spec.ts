import 'reflect-metadata';
import { join, resolve } from 'node:path';
import { databaseLabel } from './database-label';
import { loadConfig } from './load-config';

/** The repository root (where the default tiers file is): relative SQLite paths are resolved from it. */
const ROOT = resolve(__dirname, '../../..');

function labelOf(url: string): string {
  return databaseLabel(loadConfig({ DATABASE_URL: url }, ROOT).database);
}

describe('databaseLabel', () => {
  it('names a SQLite file by its absolute path, and :memory: as itself', () => {
    expect(labelOf('sqlite:./data/service.db')).toBe(`sqlite ${join(ROOT, 'data/service.db')}`);
    expect(labelOf('sqlite:/var/lib/svc/keys.db')).toBe('sqlite /var/lib/svc/keys.db');
    expect(labelOf('sqlite::memory:')).toBe('sqlite :memory:');
  });

  it('names a server by its kind and URL, the password masked', () => {
    expect(labelOf('postgres://svc:hunter2@db.example.org:5432/keys')).toBe('postgres postgres://svc:***@db.example.org:5432/keys');
    expect(labelOf('postgresql://svc:p%40ss@db/keys?sslmode=require')).toBe('postgres postgresql://svc:***@db/keys?sslmode=require');
    expect(labelOf('mysql://root:hunter2@127.0.0.1:3306/svc')).toBe('mysql mysql://root:***@127.0.0.1:3306/svc');
  });

  it('leaves a URL without a password as it is', () => {
    expect(labelOf('postgres://postgres@127.0.0.1:5432/svc_test')).toBe('postgres postgres://postgres@127.0.0.1:5432/svc_test');
    expect(labelOf('mysql://root@127.0.0.1:3306/test')).toBe('mysql mysql://root@127.0.0.1:3306/test');
  });

  it('masks query parameters that may carry a secret, and never prints the password anywhere', () => {
    const label = labelOf('postgres://svc@db/keys?password=hunter2&sslmode=verify-full&sslpassword=hunter3&application_name=cli');
    expect(label).toBe('postgres postgres://svc@db/keys?password=***&sslmode=verify-full&sslpassword=***&application_name=cli');
    expect(labelOf('postgres://svc:hunter2@db/keys?password=hunter2')).not.toContain('hunter2');
  });
});
