import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { isAbort } from './api';

export interface Loaded<T> {
  /** The latest answer; kept while a new one is fetched and after a failure (shown with the error). */
  readonly data: T | null;
  /** The latest failure (null once a load succeeds). */
  readonly error: unknown;
  /** A request is on its way (the first one, or a newer one while `data` shows the previous answer). */
  readonly fetching: boolean;
  readonly reload: () => void;
}

/**
 * Loads a page's data again whenever `deps` change or `reload` is called. The previous request is
 * cancelled (its AbortSignal, passed to the API client), so only the latest answer is ever shown.
 */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data: T | null; error: unknown; fetching: boolean }>({ data: null, error: null, fetching: true });
  const [round, setRound] = useState(0);
  const latest = useRef(load);
  latest.current = load;
  useEffect(() => {
    const controller = new AbortController();
    setState((previous) => ({ ...previous, fetching: true }));
    latest.current(controller.signal).then(
      (data) => !controller.signal.aborted && setState({ data, error: null, fetching: false }),
      (error: unknown) => {
        if (!controller.signal.aborted && !isAbort(error)) setState((previous) => ({ ...previous, error, fetching: false }));
      },
    );
    return () => controller.abort();
  }, [...deps, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { ...state, reload };
}
