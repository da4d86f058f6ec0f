/**
 * The history of bench/results/ as one SVG (docs/bench-history.svg, drawn by `npm run bench:report`):
 * for every `npm run bench` run, validate's and analytics' ratio to the bare ceiling, their ratio to the
 * full ceiling, and the service's requests per second, one colour per database, in the order of the
 * runs. Plain SVG text, written here: no chart library.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type BenchResult, DATABASE_KINDS, type DatabaseKind, type HotPathResult, RESULTS_SCHEMA } from './results';

/** A results file, read and checked. */
export interface LoadedRun {
  readonly file: string;
  readonly result: BenchResult;
}

export interface ResultsReading {
  readonly runs: readonly LoadedRun[];
  /** One line per problem: the file, then what is wrong in it. Empty when every file is well-formed. */
  readonly problems: readonly string[];
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isNumberOrNull = (value: unknown) => value === null || (typeof value === 'number' && Number.isFinite(value));
const shown = (value: unknown) => (value === undefined ? 'missing' : JSON.stringify(value));

/** What is wrong with one parsed results file (nothing: well-formed), each problem naming its field. */
export function problemsOf(value: unknown): string[] {
  if (!isObject(value)) return ['is not a JSON object'];
  const problems: string[] = [];
  const need = (ok: boolean, field: string, what: string) => {
    if (ok) return;
    const found = field.split('.').reduce<unknown>((v, k) => (typeof v === 'object' && v !== null ? (v as Json)[k] : undefined), value);
    problems.push(`${field} is ${shown(found)}, not ${what}`);
  };
  if (value.schema !== RESULTS_SCHEMA) return [`schema is ${shown(value.schema)}, not ${RESULTS_SCHEMA}: not a bench result of this shape`];
  need(value.kind === 'hot-path' || value.kind === 'admin-scale', 'kind', '"hot-path" or "admin-scale"');
  need(typeof value.date === 'string' && !Number.isNaN(Date.parse(value.date)), 'date', 'an ISO 8601 date');
  need(DATABASE_KINDS.includes(value.database as DatabaseKind), 'database', DATABASE_KINDS.map((k) => `"${k}"`).join(', '));
  need(isObject(value.machine), 'machine', 'an object');
  need(isObject(value.options), 'options', 'an object');
  if (value.kind === 'hot-path') {
    need(isObject(value.summary), 'summary', 'an object of endpoints');
    if (isObject(value.summary)) {
      for (const [endpoint, figures] of Object.entries(value.summary)) {
        const at = `summary.${endpoint}`;
        need(isObject(figures), at, 'an object');
        if (!isObject(figures)) continue;
        need(isObject(figures.service), `${at}.service`, 'an object');
        if (isObject(figures.service)) need(isNumberOrNull(figures.service.rps), `${at}.service.rps`, 'a number or null');
        need(isNumberOrNull(figures.ratio), `${at}.ratio`, 'a number or null');
        need(isNumberOrNull(figures.bare_ratio), `${at}.bare_ratio`, 'a number or null');
      }
    }
  }
  if (value.kind === 'admin-scale') {
    need(Array.isArray(value.reads), 'reads', 'a list');
    if (Array.isArray(value.reads)) {
      value.reads.forEach((read: unknown, i) => {
        need(isObject(read) && typeof read.label === 'string', `reads.${i}.label`, 'a text');
        need(isObject(read) && typeof read.median === 'number', `reads.${i}.median`, 'a number');
      });
    }
  }
  return problems;
}

/** Every `*.json` of `folder`, in name order (the bench names them by date), each parsed and checked. */
export function readResults(folder: string): ResultsReading {
  const runs: LoadedRun[] = [];
  const problems: string[] = [];
  for (const file of readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .sort()) {
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(join(folder, file), 'utf8'));
    } catch (error) {
      problems.push(`${file}: not JSON (${(error as Error).message})`);
      continue;
    }
    const wrong = problemsOf(value);
    if (wrong.length > 0) problems.push(...wrong.map((problem) => `${file}: ${problem}`));
    else runs.push({ file, result: value as BenchResult });
  }
  return { runs, problems };
}

const ENDPOINTS = ['validate', 'analytics'] as const;
type Endpoint = (typeof ENDPOINTS)[number];

interface Panel {
  readonly title: string;
  readonly valueOf: (run: HotPathResult, endpoint: Endpoint) => number | null;
  readonly format: (value: number) => string;
  /** What a value is, after "validate, SQLite, 10,000 keys: ". */
  readonly says: (value: number) => string;
}

const PANELS: readonly Panel[] = [
  {
    title: 'service / bare ceiling (req/s)',
    valueOf: (run, endpoint) => run.summary[endpoint]?.bare_ratio ?? null,
    format: (v) => v.toFixed(2),
    says: (v) => `${v.toFixed(2)} of the bare ceiling`,
  },
  {
    title: 'service / full ceiling (req/s)',
    valueOf: (run, endpoint) => run.summary[endpoint]?.ratio ?? null,
    format: (v) => v.toFixed(2),
    says: (v) => `${v.toFixed(2)} of the full ceiling`,
  },
  {
    title: 'service requests per second',
    valueOf: (run, endpoint) => run.summary[endpoint]?.service.rps ?? null,
    format: (v) => v.toLocaleString('en-US', { maximumFractionDigits: 0 }),
    says: (v) => `${v.toLocaleString('en-US', { maximumFractionDigits: 0 })} req/s`,
  },
];

const COLOURS: Record<DatabaseKind, string> = { sqlite: '#1f77b4', postgres: '#2ca02c', mysql: '#9467bd' };
const DATABASE_NAMES: Record<DatabaseKind, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL', mysql: 'MySQL / MariaDB' };
/** Runs at this many keys are drawn filled and joined by lines; runs at other key counts, hollow and apart. */
const USUAL_KEYS = 10_000;

const WIDTH = 960;
const LEFT = 64;
const RIGHT = 16;
const TOP = 64;
const PANEL_HEIGHT = 170;
const PANEL_GAP = 44;
const BOTTOM = 104;

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const px = (n: number) => (Math.round(n * 10) / 10).toString();
const keysOf = (run: HotPathResult) => (typeof run.options.keys === 'number' ? run.options.keys : null);

/** A round top for an axis of four steps: 1, 1.2, 1.6, 2, 2.4, 3, 4, 5, 6 or 8 times a power of ten. */
function niceCeiling(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  return [1, 1.2, 1.6, 2, 2.4, 3, 4, 5, 6, 8, 10].map((m) => m * power).find((top) => top >= max * (1 - 1e-9)) ?? 10 * power;
}

/** The SVG of the hot-path runs among `runs` (admin-scale runs are not drawn), in date order. */
export function renderHistorySvg(runs: readonly LoadedRun[]): string {
  const hot = runs
    .filter((run): run is LoadedRun & { result: HotPathResult } => run.result.kind === 'hot-path')
    .map((run) => ({ ...run, at: Date.parse(run.result.date) }))
    .sort((a, b) => a.at - b.at || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const plotWidth = WIDTH - LEFT - RIGHT;
  const slot = plotWidth / Math.max(hot.length, 1);
  const xOf = (i: number) => LEFT + (i + 0.5) * slot;
  const height = TOP + PANELS.length * (PANEL_HEIGHT + PANEL_GAP) - PANEL_GAP + BOTTOM;
  const first = hot[0]?.result.date.slice(0, 10);
  const last = hot[hot.length - 1]?.result.date.slice(0, 10);
  const svg: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="11">`,
    `<title>npm run bench: validate and analytics, run by run</title>`,
    `<desc>${hot.length} runs of bench/results/${first ? ` from ${first} to ${last}` : ''}, drawn by npm run bench:report</desc>`,
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<text x="${LEFT}" y="20" font-size="14" font-weight="bold">npm run bench, run by run (bench/results/)</text>`,
  ];

  // legend: a colour per database, a marker per endpoint, hollow for other key counts
  let lx = LEFT;
  for (const kind of DATABASE_KINDS) {
    svg.push(
      `<line x1="${lx}" y1="38" x2="${lx + 18}" y2="38" stroke="${COLOURS[kind]}" stroke-width="2"/>`,
      `<text x="${lx + 22}" y="42">${DATABASE_NAMES[kind]}</text>`,
    );
    lx += 34 + DATABASE_NAMES[kind].length * 6.5;
  }
  svg.push(
    `<circle cx="${lx + 6}" cy="38" r="3.5" fill="#555555"/><text x="${lx + 14}" y="42">validate</text>`,
    `<rect x="${lx + 72}" y="34.5" width="7" height="7" fill="#555555"/><text x="${lx + 84}" y="42">analytics (dashed)</text>`,
    `<circle cx="${lx + 200}" cy="38" r="3.5" fill="#ffffff" stroke="#555555"/><text x="${lx + 208}" y="42">hollow: not ${USUAL_KEYS.toLocaleString('en-US')} keys (not joined)</text>`,
  );

  PANELS.forEach((panel, p) => {
    const top = TOP + p * (PANEL_HEIGHT + PANEL_GAP);
    const bottom = top + PANEL_HEIGHT;
    const values = hot.flatMap((run) => ENDPOINTS.map((e) => panel.valueOf(run.result, e))).filter((v): v is number => v !== null);
    // the ratios on 0 to 1 (more when a run measured the service faster than a ceiling), req/s on a round top
    const yMax = p < 2 ? Math.max(1, Math.ceil(Math.max(0, ...values) * 4) / 4) : niceCeiling(Math.max(0, ...values));
    const yOf = (v: number) => bottom - (Math.min(Math.max(v, 0), yMax) / yMax) * PANEL_HEIGHT;
    svg.push(`<g class="panel" data-panel="${p}">`, `<text x="${LEFT}" y="${top - 8}" font-weight="bold">${escape(panel.title)}</text>`);
    const steps = p < 2 ? Math.round(yMax * 4) : 4;
    for (let t = 0; t <= steps; t++) {
      const v = (yMax * t) / steps;
      svg.push(
        `<line x1="${LEFT}" y1="${px(yOf(v))}" x2="${WIDTH - RIGHT}" y2="${px(yOf(v))}" stroke="${t === 0 ? '#888888' : '#e5e5e5'}"/>`,
        `<text x="${LEFT - 6}" y="${px(yOf(v) + 4)}" text-anchor="end">${panel.format(v)}</text>`,
      );
    }
    for (const kind of DATABASE_KINDS) {
      for (const endpoint of ENDPOINTS) {
        const joined = hot
          .map((run, i) => ({ run, i, v: panel.valueOf(run.result, endpoint) }))
          .filter(({ run, v }) => run.result.database === kind && v !== null && keysOf(run.result) === USUAL_KEYS);
        if (joined.length > 1) {
          const d = joined.map(({ i, v }, n) => `${n === 0 ? 'M' : 'L'}${px(xOf(i))},${px(yOf(v!))}`).join(' ');
          const dash = endpoint === 'analytics' ? ' stroke-dasharray="4 3"' : '';
          svg.push(`<path d="${d}" fill="none" stroke="${COLOURS[kind]}" stroke-width="1.2" stroke-opacity="0.7"${dash}/>`);
        }
      }
    }
    hot.forEach((run, i) => {
      for (const endpoint of ENDPOINTS) {
        const v = panel.valueOf(run.result, endpoint);
        if (v === null) continue;
        const colour = COLOURS[run.result.database];
        const keys = keysOf(run.result);
        const fill = keys === USUAL_KEYS ? colour : '#ffffff';
        const title = escape(
          `${run.file}: ${endpoint}, ${DATABASE_NAMES[run.result.database]}, ${keys === null ? 'keys not recorded' : `${keys.toLocaleString('en-US')} keys`}: ${panel.says(v)}` +
            (run.result.label ? ` (${run.result.label})` : ''),
        );
        const data = `class="point" data-file="${escape(run.file)}" data-endpoint="${endpoint}" fill="${fill}" stroke="${colour}"`;
        const [x, y] = [xOf(i), yOf(v)];
        svg.push(
          endpoint === 'validate'
            ? `<circle ${data} cx="${px(x)}" cy="${px(y)}" r="3"><title>${title}</title></circle>`
            : `<rect ${data} x="${px(x - 2.8)}" y="${px(y - 2.8)}" width="5.6" height="5.6"><title>${title}</title></rect>`,
        );
      }
    });
    svg.push('</g>');
  });

  // the runs along the bottom: a tick each, and the date where a new day starts
  const axis = TOP + PANELS.length * (PANEL_HEIGHT + PANEL_GAP) - PANEL_GAP;
  let day = '';
  hot.forEach((run, i) => {
    const x = px(xOf(i));
    const what = `${run.file}: ${DATABASE_NAMES[run.result.database]}${run.result.label ? `, ${run.result.label}` : ''}${run.result.machine.cpu ? `, ${run.result.machine.cpu}` : ''}`;
    svg.push(
      `<line class="run" data-file="${escape(run.file)}" x1="${x}" y1="${axis}" x2="${x}" y2="${axis + 5}" stroke="#888888"><title>${escape(what)}</title></line>`,
    );
    const today = run.result.date.slice(0, 10);
    if (today !== day) {
      day = today;
      svg.push(
        `<line x1="${x}" y1="${TOP}" x2="${x}" y2="${axis}" stroke="#bbbbbb" stroke-dasharray="1 3"/>`,
        `<text x="${x}" y="${axis + 10}" transform="rotate(90 ${x} ${axis + 10})">${today}</text>`,
      );
    }
  });
  svg.push(
    `<text x="${WIDTH - RIGHT}" y="${height - 6}" text-anchor="end" fill="#555555">runs in date order, one slot each (not to scale in time)</text>`,
    '</svg>',
  );
  return `${svg.join('\n')}\n`;
}
