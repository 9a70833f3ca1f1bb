import type { FunctionComponent } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/** A component whose code is fetched on first render (a separate chunk). */
export function lazy<P>(load: () => Promise<FunctionComponent<P>>): FunctionComponent<P> {
  let loaded: FunctionComponent<P> | undefined;
  return (props: P) => {
    const [C, setC] = useState<FunctionComponent<P> | undefined>(() => loaded);
    const [failed, setFailed] = useState<string>();
    useEffect(() => {
      if (!C) load().then((c) => setC(() => (loaded = c)), (e: Error) => setFailed(e.message));
    }, []);
    if (failed) return <p class="error">Could not load this page: {failed}</p>;
    return C ? <C {...(props as P & object)} /> : <p class="loading">Loading…</p>;
  };
}
