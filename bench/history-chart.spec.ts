import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readResults, renderHistorySvg } from './history-chart';
import { type HotPathResult, resultFileName, resultsFolder, writeResult } from './results';

/** A run as the bench writes it, with only the figures the chart reads filled in. */
function run(date: string, database: HotPathResult['database'], keys: number, validate: number, analytics: number): HotPathResult {
  const endpoint = (bareRatio: number, rps: number) => ({
    service: { rps, p50: 10, p99: 30, cpu: 300 },
    bare: { rps: rps / bareRatio, p50: 3, p99: 10, cpu: 100 },
    ceiling: { rps: rps / (bareRatio + 0.1), p50: 4, p99: 12, cpu: 120 },
    ratio: bareRatio + 0.1,
    bare_ratio: bareRatio,
  });
  return {
    schema: 1,
    kind: 'hot-path',
    date,
    database,
    machine: { cpu: 'AMD EPYC', cores: 2, memory_gib: 23.5, os: 'Linux 6.18', node: 'v20.20.2' },
    commit: null,
    options: { keys, rounds: 3 },
    seeding_seconds: 0.3,
    summary: { validate: endpoint(validate, 3000), analytics: endpoint(analytics, 1500) },
    measurements: [],
    paced: [],
    rss_peak_mib: 180,
    bare_rss_peak_mib: 147,
    ceiling_rss_peak_mib: 155,
    start_to_healthy_ms: [900],
    failures: 0,
  };
}

describe('bench results and their history chart (npm run bench:report)', () => {
  let folder: string;
  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'bench-results-'))));
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('names a run by its start and database, and never writes over another', () => {
    const first = run('2026-11-28T06:10:00.123Z', 'sqlite', 10_000, 0.4, 0.7);
    expect(resultFileName(first)).toBe('2026-11-28T06-10-00Z-sqlite.json');
    expect(resultFileName({ date: first.date, database: 'postgres', kind: 'admin-scale' })).toBe(
      '2026-11-28T06-10-00Z-admin-scale-postgres.json',
    );
    expect(writeResult(first, folder)).toBe(join(folder, '2026-11-28T06-10-00Z-sqlite.json'));
    expect(() => writeResult(first, folder)).toThrow(/EEXIST/);
  });

  it('draws a point per run, endpoint and panel, and a tick per run', () => {
    writeResult(run('2026-11-27T22:15:00Z', 'sqlite', 10_000, 0.36, 0.62), folder);
    writeResult(run('2026-11-27T23:10:00Z', 'postgres', 10_000, 0.38, 0.65), folder);
    const { runs, problems } = readResults(folder);
    expect(problems).toEqual([]);
    expect(runs.map((r) => r.file)).toEqual(['2026-11-27T22-15-00Z-sqlite.json', '2026-11-27T23-10-00Z-postgres.json']);

    const svg = renderHistorySvg(runs);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    for (const { file } of runs) {
      // validate and analytics, in each of the three panels (bare ratio, full ratio, req/s)
      expect(svg.split(`class="point" data-file="${file}"`)).toHaveLength(1 + 6);
      expect(svg.split(`class="run" data-file="${file}"`)).toHaveLength(1 + 1);
    }
    expect(svg).toContain('2026-11-27T22-15-00Z-sqlite.json: validate, SQLite, 10,000 keys: 0.36 of the bare ceiling');
    expect(svg).toContain('2026-11-27T23-10-00Z-postgres.json: analytics, PostgreSQL, 10,000 keys: 1,500 req/s');
  });

  it('reports a malformed file by name and field, and leaves it out of the chart', () => {
    writeResult(run('2026-11-27T22:15:00Z', 'sqlite', 10_000, 0.36, 0.62), folder);
    writeFileSync(join(folder, '2026-11-27T22-20-00Z-sqlite.json'), '{"schema": 1, "kind": "hot-path",');
    const wrong = run('2026-11-27T22:30:00Z', 'sqlite', 10_000, 0.36, 0.62) as unknown as Record<string, any>;
    wrong.summary.validate.service.rps = 'fast';
    wrong.database = 'oracle';
    writeFileSync(join(folder, '2026-11-27T22-30-00Z-sqlite.json'), JSON.stringify(wrong));

    const { runs, problems } = readResults(folder);
    expect(runs.map((r) => r.file)).toEqual(['2026-11-27T22-15-00Z-sqlite.json']);
    expect(problems).toEqual([
      expect.stringMatching(/^2026-11-27T22-20-00Z-sqlite\.json: not JSON \(/),
      '2026-11-27T22-30-00Z-sqlite.json: database is "oracle", not "sqlite", "postgres", "mysql"',
      '2026-11-27T22-30-00Z-sqlite.json: summary.validate.service.rps is "fast", not a number or null',
    ]);
  });

  it('reads every run kept in bench/results/ without a problem', () => {
    const { runs, problems } = readResults(resultsFolder(join(__dirname, '..')));
    expect(problems).toEqual([]);
    expect(runs.length).toBeGreaterThan(0);
  });
});
