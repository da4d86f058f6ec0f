import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatCount, formatDay } from '../format';

/**
 * Counts per UTC day as bars (uPlot on a canvas), sized to its container, with the same numbers
 * in a table under "Show the numbers" for screen readers and keyboard users.
 */
export function BarChart(props: { title: string; unit: string; days: ReadonlyArray<{ date: string; value: number }> }) {
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    const xs = props.days.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1000);
    // a day without events draws no bar (null), not a zero-height line
    const ys = props.days.map((d) => (d.value === 0 ? null : d.value));
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
          {
            label: props.unit,
            fill: '#2f6fd6',
            stroke: '#2f6fd6',
            paths: uPlot.paths.bars!({ size: [0.7, 40] }),
            points: { show: false },
          },
        ],
      },
      [xs, ys],
      element,
    );
    const observer = new ResizeObserver(() => chart.setSize({ width: width(), height: 220 }));
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
  }, [props.days, props.unit]);
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
      <details>
        <summary>Show the numbers</summary>
        <table class="numbers">
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              <th scope="col" class="num">
                {props.unit}
              </th>
            </tr>
          </thead>
          <tbody>
            {props.days.map((d) => (
              <tr key={d.date} data-day={d.date}>
                <td>{formatDay(d.date)}</td>
                <td class="num">{formatCount(d.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
