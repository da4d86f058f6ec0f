/**
 * `npm run bench:report [-- --results DIR] [--out FILE]`: reads every run in bench/results/ (the bench
 * writes one file per run) and draws their history into docs/bench-history.svg, which
 * docs/PERFORMANCE.md shows. A file that is not a well-formed result stops it, naming the file and
 * the field, and no chart is written.
 */
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { readResults, renderHistorySvg } from './history-chart';

/** The repository: dist/bench/report.js is two folders down. */
const ROOT = join(__dirname, '..', '..');

function main(argv: readonly string[]): number {
  let folder = join(ROOT, 'bench', 'results');
  let out = join(ROOT, 'docs', 'bench-history.svg');
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag !== '--results' && flag !== '--out')
      throw new Error(`unknown option ${flag} (bench:report takes --results DIR and --out FILE)`);
    if (!value) throw new Error(`${flag} takes a path`);
    if (flag === '--results') folder = value;
    else out = value;
  }
  const { runs, problems } = readResults(folder);
  if (problems.length > 0) {
    process.stderr.write(`bench:report: ${problems.length} problem(s) in ${relative(process.cwd(), folder) || '.'}; no chart written\n`);
    for (const problem of problems) process.stderr.write(`  ${problem}\n`);
    return 1;
  }
  writeFileSync(out, renderHistorySvg(runs));
  const hot = runs.filter((run) => run.result.kind === 'hot-path').length;
  process.stdout.write(
    `bench:report: ${runs.length} runs read (${hot} of npm run bench, drawn), ${relative(process.cwd(), out)} written\n`,
  );
  return 0;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`bench:report: ${(error as Error).message}\n`);
  process.exitCode = 1;
}
