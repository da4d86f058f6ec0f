import { useRef, useState } from 'preact/hooks';

export interface Action<A extends unknown[]> {
  /** Runs the action, unless it is already running (a double click acts once). */
  readonly run: (...args: A) => Promise<void>;
  readonly busy: boolean;
  readonly error: unknown;
  /** The words of the last success, for a role=status line. */
  readonly done: string | null;
  readonly clear: () => void;
}

/**
 * One operator action (a button): busy while it runs (and never started twice meanwhile), its
 * failure or its success in words. `confirm`, when given, asks first (useConfirm's ask) and runs
 * only on yes. `perform` answers the words of success.
 */
export function useAction<A extends unknown[]>(
  perform: (...args: A) => Promise<string>,
  confirm?: (...args: A) => Promise<boolean>,
): Action<A> {
  const running = useRef(false);
  const [state, setState] = useState<{ busy: boolean; error: unknown; done: string | null }>({ busy: false, error: null, done: null });
  const run = async (...args: A) => {
    if (running.current) return;
    running.current = true;
    try {
      setState({ busy: false, error: null, done: null });
      if (confirm && !(await confirm(...args))) return;
      setState({ busy: true, error: null, done: null });
      const done = await perform(...args);
      setState({ busy: false, error: null, done });
    } catch (error) {
      setState({ busy: false, error, done: null });
    } finally {
      running.current = false;
    }
  };
  return { run, ...state, clear: () => setState({ busy: false, error: null, done: null }) };
}
