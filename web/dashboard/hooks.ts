import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiFailure } from './api.js';

export type Async<T> =
  | { readonly state: 'loading'; readonly data?: T }
  | { readonly state: 'ok'; readonly data: T }
  | { readonly state: 'error'; readonly error: ApiFailure; readonly data?: T };

const asFailure = (err: unknown): ApiFailure =>
  err instanceof ApiFailure ? err : new ApiFailure(0, 'Unexpected error', err instanceof Error ? err.message : String(err));

/**
 * Runs `load` when `deps` change and on `reload()`. A reload keeps the previous data while the new
 * answer is on its way (so a live chart does not flash), and answers that arrive out of order are
 * dropped.
 */
export function useAsync<T>(load: () => Promise<T>, deps: readonly unknown[]): Async<T> & { reload: () => void } {
  const [result, setResult] = useState<Async<T>>({ state: 'loading' });
  const [tick, setTick] = useState(0);
  const generation = useRef(0);
  useEffect(() => {
    const mine = ++generation.current;
    setResult((previous) => ({ state: 'loading', ...(previous.data === undefined ? {} : { data: previous.data }) }));
    load().then(
      (data) => { if (generation.current === mine) setResult({ state: 'ok', data }); },
      (err: unknown) => { if (generation.current === mine) setResult((previous) => ({ state: 'error', error: asFailure(err), ...(previous.data === undefined ? {} : { data: previous.data }) })); },
    );
    // The caller's deps say when to load again: `load` is a new closure on every render.
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...result, reload };
}

/** The part of the URL after `#`, e.g. `/apis/api_123`; `/usage` when there is none. */
export function useHashRoute(): string {
  const read = (): string => decodeURIComponent(location.hash.replace(/^#/, '')) || '/usage';
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const changed = (): void => setRoute(read());
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return route;
}

export function navigate(route: string): void {
  location.hash = route;
}

/** Calls `tick` every `ms` while `enabled` and the page is visible. */
export function useInterval(tick: () => void, ms: number, enabled: boolean): void {
  const saved = useRef(tick);
  saved.current = tick;
  useEffect(() => {
    if (!enabled) return undefined;
    const id = setInterval(() => { if (document.visibilityState === 'visible') saved.current(); }, ms);
    return () => clearInterval(id);
  }, [ms, enabled]);
}

/** Runs an action, tracking whether it is busy and the failure it ended with. */
export function useAction(): { busy: boolean; error: ApiFailure | null; run: <T>(action: () => Promise<T>) => Promise<T | undefined>; clear: () => void } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiFailure | null>(null);
  const run = useCallback(async <T,>(action: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(null);
    try {
      return await action();
    } catch (err) {
      setError(asFailure(err));
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run, clear: () => setError(null) };
}
