import { restClient } from '@massive.com/client-js';
import { afterAll, beforeAll } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { listenNative, startTestApp, type TestApp } from './app.js';
import type { EngineUnderTest } from './engines.js';
import { lateBound } from './late-bound.js';

export type TestAppOptions = NonNullable<Parameters<typeof startTestApp>[1]>;

/** What a test starts on a store and stops after: an app or a server. */
export interface Closable {
  close(): Promise<void>;
}

/**
 * For the describe block it is called in: before its tests, opens the engine's store, seeds it
 * and runs each starter on it in turn (each starts an app); after them, closes the apps in the
 * same order and then the store.
 */
export function useStoreAndApps<T extends Closable[]>(
  engine: EngineUnderTest,
  seed: (store: Store) => Promise<unknown>,
  ...starters: { [K in keyof T]: (store: Store) => Promise<T[K]> }
): { store: Store; apps: T } {
  let store: Store | undefined;
  const started: (Closable | undefined)[] = starters.map(() => undefined);
  beforeAll(async () => {
    store = await engine.open();
    await seed(store);
    for (const [i, start] of starters.entries()) started[i] = await start(store);
  });
  afterAll(async () => {
    for (const app of started) await app?.close();
    await store?.close();
  });
  const apps = starters.map((_, i) => lateBound(`app ${i + 1}`, () => started[i])) as T;
  return { store: lateBound('the store', () => store), apps };
}

/** useStoreAndApps with test apps (startTestApp), one per options entry, each with a demo-plan key. */
export function useSeededApps(
  engine: EngineUnderTest,
  seed: (store: Store) => Promise<unknown>,
  ...appOptions: TestAppOptions[]
): { store: Store; apps: TestApp[] } {
  return useStoreAndApps<TestApp[]>(engine, seed, ...appOptions.map((opts) => (store: Store) => startTestApp(store, opts)));
}

/** useSeededApps with one app. */
export function useSeededApp(
  engine: EngineUnderTest,
  seed: (store: Store) => Promise<unknown>,
  opts: TestAppOptions = {},
): { store: Store; t: TestApp } {
  const { store, apps } = useSeededApps(engine, seed, opts);
  return { store, t: apps[0]! };
}

/** A native-envelope server on a loopback port, as the official SDK sees it. */
export interface NativeServer {
  base: string;
  key: string;
  /** The official client, unmodified, with the server's demo-plan key. */
  client(options?: Parameters<typeof restClient>[2]): ReturnType<typeof restClient>;
}

/**
 * For the describe block it is called in: before its tests, opens the engine's store, seeds it and
 * serves it in the native envelope on a free loopback port; after them, stops the server and
 * closes the store.
 */
export function useNativeServer(
  engine: EngineUnderTest,
  seed: (store: Store) => Promise<unknown>,
  opts: Parameters<typeof listenNative>[1] = {},
): { store: Store; server: NativeServer } {
  let store: Store | undefined;
  let server: (NativeServer & { close(): Promise<void> }) | undefined;
  beforeAll(async () => {
    store = await engine.open();
    await seed(store);
    const { base, key, close } = await listenNative(store, opts);
    server = { base, key, close, client: (options) => restClient(key, base, options) };
  });
  afterAll(async () => {
    await server?.close();
  });
  return { store: lateBound('the store', () => store), server: lateBound('the server', () => server) };
}
