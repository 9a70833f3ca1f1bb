import type { Store } from '../store/index.js';

/** How the demo data set is generated. */
export interface DemoOptions {
  /** Scale factor for generated market data (1 = the quick first-start set). */
  scale: number;
  /** The demo's "today": the last session of generated data (YYYY-MM-DD). */
  asOf: string;
  log: (line: string) => void;
  /** The as-of date was chosen explicitly: later starts keep the data set as it is (no roll forward). */
  pinned?: boolean;
  /** Where the branding images go (the server's --branding-dir; default <data-dir>/branding). Absent: no images. */
  brandingDir?: string;
}

/** One part of the demo data set (reference facts, market data, news, fundamentals, options). */
export interface DemoStep {
  name: string;
  run(store: Store, opts: DemoOptions): Promise<string>;
}
