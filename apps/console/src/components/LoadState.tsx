import type { ComponentChildren } from 'preact';
import type { Loaded } from '../load';
import { ErrorNote } from './ErrorNote';

/**
 * The one place a page's data shows its state: a role=status line that says what is being loaded
 * (announced to screen readers), the failure with a Retry button, and the content (the previous
 * answer stays while a newer one loads; aria-busy says it is being replaced).
 */
export function LoadState<T>(props: { load: Loaded<T>; what: string; children: (data: T) => ComponentChildren }) {
  const { data, error, fetching, reload } = props.load;
  return (
    <div class="load-state" aria-busy={fetching}>
      <p role="status" class="muted loading-line">
        {fetching ? `Loading ${props.what}…` : ''}
      </p>
      {error !== null && !fetching && (
        <div class="load-error">
          <ErrorNote error={error} />
          <button type="button" onClick={reload}>
            Retry
          </button>
        </div>
      )}
      {data !== null && <div class={fetching ? 'stale' : undefined}>{props.children(data)}</div>}
    </div>
  );
}
