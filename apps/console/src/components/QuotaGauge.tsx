import { formatCount, formatPercent } from '../format';
import { Time } from './Time';

/** Used against the monthly limit: a <meter> (low / high / full colours) and the numbers. */
export function QuotaGauge(props: { used: number; limit: number | null; resetsAt?: string }) {
  const { used, limit } = props;
  return (
    <div class="gauge">
      {limit === null ? (
        <p>
          <strong data-testid="quota-used">{formatCount(used)}</strong> inferences this month, no monthly limit.
        </p>
      ) : (
        <>
          <meter
            id="quota-meter"
            min={0}
            max={Math.max(limit, 1)}
            low={limit * 0.8}
            high={limit * 0.95}
            optimum={0}
            value={Math.min(used, limit)}
            aria-label="Quota used"
          >
            {formatPercent(limit > 0 ? used / limit : 1)}
          </meter>
          <p>
            <strong data-testid="quota-used">{formatCount(used)}</strong> of {formatCount(limit)} inferences this month (
            {formatPercent(limit > 0 ? used / limit : 1)})
          </p>
        </>
      )}
      {props.resetsAt && (
        <p class="muted">
          Resets <Time iso={props.resetsAt} />
        </p>
      )}
    </div>
  );
}
