import { formatTime, formatUtc } from '../format';

/** An instant in the viewer's zone, the UTC time on hover. */
export function Time(props: { iso: string | null | undefined }) {
  if (!props.iso) return <span>–</span>;
  return (
    <time dateTime={props.iso} title={formatUtc(props.iso)}>
      {formatTime(props.iso)}
    </time>
  );
}
