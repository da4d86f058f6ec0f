import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatCount, formatDay } from '../format';

const COLOURS = ['#2f6fd6', '#c2571a', '#2e8540', '#7b3fb3', '#a3213a'];

/** A part of each day's bar (e.g. one key of a license), drawn stacked in its own colour. */
export interface BarPart {
  readonly id: string;
  readonly label: string;
}

export interface BarDay {
  readonly date: string;
  readonly value: number;
  /** The value split by part id (the parts add up to `value`). */
  readonly parts?: Readonly<Record<string, number>>;
}

/**
 * Counts per UTC day as bars (uPlot on a canvas), sized to its container, stacked by part when
 * `parts` are given, with the same numbers in a table under "Show the numbers" for screen readers
 * and keyboard users.
 */
export function BarChart(props: { title: string; unit: string; days: readonly BarDay[]; parts?: readonly BarPart[] }) {
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    const xs = props.days.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1000);
    const parts = props.parts ?? [];
    // stacked: the bar of part k reaches the sum of parts 0..k; drawn tallest first, so each shows above the one below
    const layers =
      parts.length === 0
        ? [{ label: props.unit, colour: COLOURS[0], values: props.days.map((d) => d.value) }]
        : parts
            .map((part, k) => ({
              label: part.label,
              colour: COLOURS[k % COLOURS.length],
              values: props.days.map((d) => parts.slice(0, k + 1).reduce((sum, p) => sum + (d.parts?.[p.id] ?? 0), 0)),
            }))
            .reverse();
    // a day without events draws no bar (null), not a zero-height line
    const ys = layers.map((layer) => layer.values.map((v) => (v === 0 ? null : v)));
    const width = () => Math.max(240, element.clientWidth);
    const chart = new uPlot(
      {
        width: width(),
        height: 220,
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] } },
        axes: [
          { stroke: '#444', grid: { show: false } },
          { stroke: '#444', size: 60, values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? formatCount(v) : '')) },
        ],
        series: [
          {},
          ...layers.map((layer) => ({
            label: layer.label,
            fill: layer.colour,
            stroke: layer.colour,
            paths: uPlot.paths.bars!({ size: [0.7, 40] }),
            points: { show: false },
          })),
        ],
      },
      [xs, ...ys],
      element,
    );
    const observer = new ResizeObserver(() => chart.setSize({ width: width(), height: 220 }));
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
  }, [props.days, props.unit, props.parts]);
  const total = props.days.reduce((sum, d) => sum + d.value, 0);
  return (
    <figure class="chart">
      <figcaption>
        {props.title}{' '}
        <span class="muted">
          (total {formatCount(total)} {props.unit})
        </span>
      </figcaption>
      <div
        ref={holder}
        class="chart-canvas"
        role="img"
        aria-label={`${props.title}: bar chart, ${formatCount(total)} ${props.unit} in all`}
      />
      {props.parts && props.parts.length > 0 && (
        <ul class="legend" aria-label="Colours">
          {props.parts.map((part, k) => (
            <li key={part.id}>
              <span class={`swatch swatch-${k % COLOURS.length}`} aria-hidden="true" /> {part.label}
            </li>
          ))}
        </ul>
      )}
      <details>
        <summary>Show the numbers</summary>
        <table class="numbers">
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              {(props.parts ?? []).map((part) => (
                <th key={part.id} scope="col" class="num">
                  {part.label}
                </th>
              ))}
              <th scope="col" class="num">
                {props.unit}
              </th>
            </tr>
          </thead>
          <tbody>
            {props.days.map((d) => (
              <tr key={d.date} data-day={d.date}>
                <td>{formatDay(d.date)}</td>
                {(props.parts ?? []).map((part) => (
                  <td key={part.id} class="num" data-part={part.id}>
                    {formatCount(d.parts?.[part.id] ?? 0)}
                  </td>
                ))}
                <td class="num" data-total>
                  {formatCount(d.value)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
