import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { engines } from '../helpers/engines.js';
import { NEWS_FIXTURE, bulkArticles, seedNews } from '../helpers/news-fixture.js';
import { UPSTREAM_DIR } from '../helpers/conformance.js';
import { useNativeServer } from '../helpers/app-fixture.js';

// Field names and JSON types of our news bodies against the recorded upstream bodies, and the
// official client (unmodified, native mode, real socket) walking our pages.

const FIXTURES = UPSTREAM_DIR;
const haveFixtures = existsSync(join(FIXTURES, 'index.json'));
if (!haveFixtures) console.log(`news conformance skipped: ${FIXTURES} is absent`);

function jsonType(v: unknown): string {
  return Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v;
}

/** Every key of `theirs` exists in `ours` with the same JSON type, recursively (first array items). */
function sameShape(theirs: unknown, ours: unknown, path: string, problems: string[]): void {
  if (jsonType(theirs) !== jsonType(ours)) {
    problems.push(`${path}: upstream ${jsonType(theirs)}, ours ${jsonType(ours)}`);
    return;
  }
  if (Array.isArray(theirs) && Array.isArray(ours) && theirs.length > 0 && ours.length > 0) sameShape(theirs[0], ours[0], `${path}[0]`, problems);
  else if (jsonType(theirs) === 'object') {
    for (const [k, v] of Object.entries(theirs as object)) {
      if (!(k in (ours as object))) problems.push(`${path}.${k}: missing in ours`);
      else sameShape(v, (ours as Record<string, unknown>)[k], `${path}.${k}`, problems);
    }
  }
}

for (const engine of engines()) {
  describe(`news conformance and SDK (${engine.name})`, () => {
    const { server } = useNativeServer(engine, async (store) => {
      await seedNews(store);
      const bulk = bulkArticles(45, { tickers: ['ZZZ'] });
      await store.news.upsertArticles(bulk.map((a) => ({ article: a, publishedMs: Date.parse(a.published_utc) })));
    });

    it.skipIf(!haveFixtures)('has the field names and JSON types of every recorded news body', async () => {
      const index = JSON.parse(readFileSync(join(FIXTURES, 'index.json'), 'utf8')) as { request: string; file: string; endpoint: string }[];
      const samples = index.filter((e) => e.request.startsWith('/v2/reference/news'));
      expect(samples.length).toBeGreaterThan(0);
      // a1 carries every optional field, as the recorded article does.
      const ours = await (await fetch(`${server.base}/v2/reference/news?ticker=MSFT&limit=1`, { headers: { authorization: `Bearer ${server.key}` } })).json();
      const paged = await (await fetch(`${server.base}/v2/reference/news?limit=1`, { headers: { authorization: `Bearer ${server.key}` } })).json();
      for (const s of samples) {
        const theirs = JSON.parse(readFileSync(join(FIXTURES, s.file), 'utf8'));
        const problems: string[] = [];
        const { next_url: _n, ...theirsTop } = theirs;
        sameShape(theirsTop, ours, '$', problems);
        if (theirs.next_url !== undefined) sameShape({ next_url: theirs.next_url }, paged, '$', problems);
        expect(problems, s.file).toEqual([]);
        // and nothing of ours that upstream's contract lacks
        const contract = new Set([...Object.keys(theirs.results[0]), 'keywords', 'insights']);
        for (const k of Object.keys(ours.results[0])) expect(contract.has(k), k).toBe(true);
      }
    });

    it('listNews through @massive.com/client-js, every filter form and every page', async () => {
      const rest = server.client();
      const one = await rest.listNews({ ticker: 'AAPL', order: 'asc' as never });
      expect(one.status).toBe('OK');
      expect(one.results?.map((r) => r.id)).toEqual(['a1', 'a3', 'a6']);
      expect(one.results?.[0]).toEqual(NEWS_FIXTURE[0]);
      const ranged = await rest.listNews({ tickerGt: 'AAPL', tickerLt: 'MSFT', publishedUtcGte: '2024-06-22' as never, publishedUtcLt: '2024-06-24' as never });
      expect(ranged.results?.map((r) => r.id)).toEqual(['a5', 'a4']);
      const paging = server.client({ pagination: true });
      const all = await paging.listNews({ ticker: 'ZZZ', limit: 10 });
      expect(all.results).toHaveLength(45);
      expect(new Set(all.results?.map((r) => r.id)).size).toBe(45);
    });
  });
}
