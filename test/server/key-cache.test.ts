// The key cache asks the store once per key however many requests come while it asks, for the
// first request, for the renewal of a record in use past three quarters of its TTL and for each refresh after
// the TTL, and a revocation made elsewhere is seen by the first request past the TTL.
import { describe, expect, it } from 'vitest';
import { KeyAuthenticator } from '../../src/server/auth.js';
import type { ApiKeyRecord, KeyRepository } from '../../src/store/repos/keys.js';

const TTL = 500;

/** A key store whose lookups the test answers by hand, counting them. */
function handStore() {
  const pending: Array<(r: ApiKeyRecord | undefined) => void> = [];
  let record: ApiKeyRecord | undefined = { id: 'key_1', prefix: 'tb_a', plan: 'demo', created_utc: '2026-11-01T00:00:00Z', kind: 'key' };
  const repo = {
    findByKey: () => new Promise<ApiKeyRecord | undefined>((resolve) => pending.push(resolve)),
  } as unknown as KeyRepository;
  return {
    repo,
    pending,
    revoke: () => {
      record = { ...record!, revoked_utc: '2026-11-29T00:00:00Z' };
    },
    /** Answers every lookup asked so far with the current record. */
    answer: async () => {
      for (const r of pending.splice(0)) r(record);
      await new Promise((r) => setImmediate(r));
    },
  };
}

/** An authenticator over a hand store whose key was looked up once, at `clock.now`. */
async function cachedOnce() {
  const store = handStore();
  const clock = { now: 1_000_000 };
  const auth = new KeyAuthenticator(store.repo, TTL, () => clock.now);
  const first = auth.authenticate('tb_secret');
  await store.answer();
  await first;
  return { store, auth, clock };
}

describe('key cache', () => {
  it('requests that come while the store is asked share one lookup', async () => {
    const store = handStore();
    let now = 1_000_000;
    const auth = new KeyAuthenticator(store.repo, TTL, () => now);
    const waiting = Array.from({ length: 50 }, (_, i) => auth.authenticate('tb_secret', { connection: i }));
    expect(waiting.every((w) => w instanceof Promise)).toBe(true);
    expect(store.pending).toHaveLength(1);
    await store.answer();
    expect((await Promise.all(waiting)).every((r) => r.id === 'key_1')).toBe(true);
    // fresh: no lookup, no promise
    now += (TTL * 3) / 4 - 1;
    expect(auth.authenticate('tb_secret')).toMatchObject({ id: 'key_1' });
    expect(store.pending).toHaveLength(0);
  });

  it('renews a record in use once it is three quarters of its TTL old, answering meanwhile without waiting', async () => {
    const { store, auth, clock } = await cachedOnce();
    const readAt = clock.now;
    clock.now = readAt + (TTL * 3) / 4;
    // answered at once from the kept record; one lookup started, however many requests come
    for (let i = 0; i < 10; i++) expect(auth.authenticate('tb_secret', { connection: i })).toMatchObject({ id: 'key_1' });
    expect(store.pending).toHaveLength(1);
    await store.answer();
    // past the first record's TTL: the renewed one answers, nobody waits, the store is not asked
    clock.now = readAt + TTL + 50;
    expect(auth.authenticate('tb_secret')).toMatchObject({ id: 'key_1' });
    expect(store.pending).toHaveLength(0);
  });

  it('a revocation read by the renewal is applied at once, and no record outlives the TTL from its read', async () => {
    const { store, auth, clock } = await cachedOnce();
    const readAt = clock.now;
    store.revoke();
    clock.now = readAt + (TTL * 3) / 4 + 10;
    expect(auth.authenticate('tb_secret')).toMatchObject({ id: 'key_1' }); // the kept record, within its TTL
    await store.answer(); // the renewal reads the revocation
    expect(() => auth.authenticate('tb_secret')).toThrow(/revoked/);

    // a renewal that has not returned by the record's expiry: the record is not used past it
    const other = await cachedOnce();
    const at = other.clock.now;
    other.clock.now = at + (TTL * 3) / 4 + 1;
    other.auth.authenticate('tb_secret'); // starts the renewal
    other.clock.now = at + TTL + 1;
    expect(other.auth.authenticate('tb_secret')).toBeInstanceOf(Promise);
  });

  it('past the TTL, the requests that come while the store is asked again wait for one refresh', async () => {
    const { store, auth, clock } = await cachedOnce();

    clock.now += TTL + 1;
    const during = Array.from({ length: 20 }, (_, i) => auth.authenticate('tb_secret', { connection: i }));
    expect(during.every((r) => r instanceof Promise)).toBe(true);
    expect(store.pending).toHaveLength(1); // one refresh for all of them
    await store.answer();
    expect((await Promise.all(during)).every((r) => r.id === 'key_1')).toBe(true);
    expect(auth.authenticate('tb_secret')).toMatchObject({ id: 'key_1' }); // fresh again
  });

  it('a key revoked elsewhere is refused once the refresh returns', async () => {
    const { store, auth, clock } = await cachedOnce();
    store.revoke();
    clock.now += TTL - 1;
    expect(auth.authenticate('tb_secret')).toMatchObject({ id: 'key_1' }); // within the TTL: the kept record
    clock.now += 2;
    const refused = expect(auth.authenticate('tb_secret')).rejects.toThrow(/revoked/);
    await store.answer();
    await refused;
    expect(() => auth.authenticate('tb_secret')).toThrow(/revoked/);
  });

  it('a lookup begun before forget() does not fill the cache with what it read', async () => {
    const store = handStore();
    const now = 1_000_000;
    const auth = new KeyAuthenticator(store.repo, TTL, () => now);
    const before = auth.authenticate('tb_secret');
    const older = store.pending.shift()!; // this lookup read the key before it was revoked
    auth.forget(); // a revocation in this process
    store.revoke();
    const after = auth.authenticate('tb_secret');
    expect(store.pending).toHaveLength(1); // asked again, not joined to the older lookup
    const refused = expect(after).rejects.toThrow(/revoked/);
    await store.answer();
    await refused;
    // the older lookup comes back last, with what it read before the revocation
    older({ id: 'key_1', prefix: 'tb_a', plan: 'demo', created_utc: '2026-11-01T00:00:00Z', kind: 'key' });
    await expect(before).resolves.toMatchObject({ id: 'key_1' });
    expect(() => auth.authenticate('tb_secret')).toThrow(/revoked/);
  });
});
