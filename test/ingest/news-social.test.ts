import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { importFile } from '../../src/ingest/load.js';
import { RecordImportError, importNewsSocialFile } from '../../src/ingest/news-social.js';
import { elementLines } from '../../src/ingest/source-records.js';
import type { Store } from '../../src/store/index.js';
import { engines } from '../helpers/engines.js';
import { NEWS_FIXTURE, post } from '../helpers/news-fixture.js';
import { UPSTREAM_DIR } from '../helpers/conformance.js';
import { sqlOf } from '../../src/store/inspect.js';

const RECORDED = `${UPSTREAM_DIR}/v2/reference/news.json`;

async function allArticles(store: Store) {
  return (await store.news.listArticles({ ticker: [], published: [], order: 'asc', limit: 10_000 })).map((r) => JSON.parse(r.json));
}

async function importError(p: Promise<unknown>): Promise<RecordImportError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(RecordImportError);
    return err as RecordImportError;
  }
  throw new Error('the import was expected to fail');
}

for (const engine of engines()) {
  describe(`news and social post import (${engine.name})`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'tb-news-import-'));
    const file = (name: string, content: string | Buffer) => {
      const p = join(dir, name);
      writeFileSync(p, content);
      return p;
    };
    let store: Store;
    beforeAll(async () => {
      store = await engine.open();
    });
    beforeEach(async () => {
      await sqlOf(store).run('DELETE FROM news_articles');
      await sqlOf(store).run('DELETE FROM social_posts');
    });
    afterAll(async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('loads a JSON array of articles, and loading it again changes nothing', async () => {
      const p = file('news.json', JSON.stringify(NEWS_FIXTURE, null, 2));
      const summary = await importNewsSocialFile(store, p);
      expect(summary).toEqual({ file: p, dataset: 'news', records: 8, written: 8 });
      const first = await allArticles(store);
      expect(first).toEqual(NEWS_FIXTURE);
      expect(await importNewsSocialFile(store, p)).toMatchObject({ records: 8, written: 0 });
      expect(await allArticles(store)).toEqual(first);
      expect(await store.news.countArticles()).toBe(8);
    });

    it('loads an upstream response body as captured, normalising times to UTC', async () => {
      const body = {
        status: 'OK',
        request_id: 'x',
        count: 1,
        results: [{ ...NEWS_FIXTURE[0], published_utc: '2024-06-20T12:00:00+02:00', unknown_future_field: 1, amp_url: null }],
        next_url: 'https://api.massive.com/v2/reference/news?cursor=abc',
      };
      await importNewsSocialFile(store, file('body.json', JSON.stringify(body)));
      const [a] = await allArticles(store);
      expect(a!.published_utc).toBe('2024-06-20T10:00:00Z');
      expect(a).not.toHaveProperty('unknown_future_field');
      expect(a).not.toHaveProperty('amp_url');
    });

    it.skipIf(!existsSync(RECORDED))('loads the recorded upstream news body unchanged', async () => {
      const recorded = JSON.parse(readFileSync(RECORDED, 'utf8'));
      await importNewsSocialFile(store, RECORDED);
      expect(await allArticles(store)).toEqual(recorded.results);
    });

    it('loads NDJSON social posts (a .gz file too)', async () => {
      const posts = [post('p1', '2026-11-20T09:00:00Z', ['AAPL'], 0.5), post('p2', '2026-11-20T09:30:00.250Z', ['TSLA', 'AAPL'])];
      const text = posts.map((x) => JSON.stringify(x)).join('\n') + '\n\n';
      expect(await importNewsSocialFile(store, file('posts.ndjson', text))).toMatchObject({ dataset: 'social_posts', records: 2, written: 2 });
      expect(await store.social.countPosts()).toBe(2);
      expect(await importNewsSocialFile(store, file('posts.jsonl.gz', gzipSync(text)))).toMatchObject({ records: 2, written: 0 });
      expect(await store.social.countPosts()).toBe(2);
      const counts = await store.social.mentionCounts({ previousStartMs: 0, startMs: Date.parse('2026-11-20T00:00:00Z'), endMs: Date.parse('2026-11-21T00:00:00Z') });
      expect(counts.find((c) => c.ticker === 'AAPL')).toMatchObject({ post_mentions: 2, sentiment_count: 1, sentiment_sum: 0.5 });
    });

    it('decodes characters that straddle two read chunks (NDJSON)', async () => {
      const posts = Array.from({ length: 1500 }, (_, i) => ({ ...post(`u${i}`, '2026-11-20T09:00:00Z', ['AAPL']), text: '株価が上昇'.repeat(7 + (i % 3)) }));
      await importNewsSocialFile(store, file('wide.ndjson', posts.map((x) => JSON.stringify(x)).join('\n')));
      const rows = await sqlOf(store).all("SELECT body FROM social_posts");
      expect(rows).toHaveLength(1500);
      for (const r of rows) expect(JSON.parse(String(r.body)).text).toMatch(/^(株価が上昇)+$/);
    });

    it('loads CSV articles with dotted publisher columns and list cells', async () => {
      const csv = [
        'id,publisher.name,publisher.homepage_url,publisher.logo_url,publisher.favicon_url,title,author,published_utc,article_url,tickers,keywords,insights,description',
        'c1,Wire,https://w.example/,https://w.example/l.png,,"Hello, world",Ann,2024-01-02T03:04:05Z,https://w.example/c1,"AAPL,MSFT","[""ai"",""chips""]","[{""ticker"":""AAPL"",""sentiment"":""positive"",""sentiment_reasoning"":""good""}]",',
        'c2,Wire,https://w.example/,https://w.example/l.png,https://w.example/f.ico,Second,Bob,2024-01-03T00:00:00Z,https://w.example/c2,"[""NVDA""]","x, y",,Text',
      ].join('\r\n');
      await importNewsSocialFile(store, file('news.csv', csv));
      const [c1, c2] = await allArticles(store);
      expect(c1).toEqual({
        id: 'c1', publisher: { name: 'Wire', homepage_url: 'https://w.example/', logo_url: 'https://w.example/l.png' }, title: 'Hello, world', author: 'Ann',
        published_utc: '2024-01-02T03:04:05Z', article_url: 'https://w.example/c1', tickers: ['AAPL', 'MSFT'], keywords: ['ai', 'chips'],
        insights: [{ ticker: 'AAPL', sentiment: 'positive', sentiment_reasoning: 'good' }],
      });
      expect(c2).toMatchObject({ tickers: ['NVDA'], keywords: ['x', 'y'], description: 'Text', publisher: { favicon_url: 'https://w.example/f.ico' } });
    });

    it('never lets a CSV column name reach an object prototype', async () => {
      const csv = 'id,source,author,created_utc,text,tickers,__proto__.polluted,constructor.prototype.polluted,toString\nz1,forum,ann,2026-11-20T10:00:00Z,hi,AAPL,yes,yes,x\n';
      await importNewsSocialFile(store, file('proto.csv', csv));
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(JSON.parse(String((await sqlOf(store).get("SELECT body FROM social_posts WHERE id = 'z1'"))!.body))).toEqual({ id: 'z1', source: 'forum', author: 'ann', created_utc: '2026-11-20T10:00:00Z', text: 'hi', tickers: ['AAPL'] });
    });

    it('loads CSV social posts with numeric sentiment', async () => {
      const csv = 'id,source,author,created_utc,text,tickers,sentiment\ns1,forum,ann,2026-11-20T10:00:00Z,"$AAPL to the moon, $TSLA too","AAPL,TSLA",0.9\ns2,blog,bob,2026-11-20T11:00:00Z,meh,GME,\n';
      expect(await importNewsSocialFile(store, file('posts.csv', csv))).toMatchObject({ dataset: 'social_posts', records: 2 });
      const counts = await store.social.mentionCounts({ previousStartMs: 0, startMs: 0, endMs: Date.parse('2027-01-01T00:00:00Z') });
      expect(counts.sort((a, b) => a.ticker.localeCompare(b.ticker)).map((c) => [c.ticker, c.post_mentions, c.sentiment_sum])).toEqual([['AAPL', 1, 0.9], ['GME', 1, 0], ['TSLA', 1, 0.9]]);
    });

    it('refuses a file with bad records, naming file:line: field: reason, and writes nothing of it', async () => {
      const records = [
        NEWS_FIXTURE[0],
        { ...NEWS_FIXTURE[1], published_utc: '2024-02-30T00:00:00Z' },
        NEWS_FIXTURE[2],
        { ...NEWS_FIXTURE[3], tickers: 'TSLA', insights: [{ ticker: 'TSLA', sentiment: 'bullish' }] },
        { ...NEWS_FIXTURE[4], publisher: { name: 'x' } },
      ];
      const p = file('bad.json', `[\n${records.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`);
      const err = await importError(importNewsSocialFile(store, p));
      expect(err.message.split('\n')).toEqual([
        `${p}:3: published_utc: must be an RFC 3339 timestamp such as 2024-06-24T18:33:53Z, got "2024-02-30T00:00:00Z"`,
        `${p}:5: tickers: must be an array of ticker symbols`,
        `${p}:5: insights[0].sentiment: must be positive, neutral or negative`,
        `${p}:5: insights[0].sentiment_reasoning: is required`,
        `${p}:6: publisher.homepage_url: is required`,
        `${p}:6: publisher.logo_url: is required`,
      ]);
      expect(await store.news.countArticles()).toBe(0);
    });

    it('gives pretty-printed JSON arrays the line each record starts on', async () => {
      const text = '[\n  {\n    "id": "a"\n  },\n  { "id": "b",\n "x": "}]," },\n\n  3\n]';
      expect(elementLines(text, 'root')).toEqual([2, 5, 8]);
      expect(elementLines('{"status":"OK","x":[1],"results":[\n{"a":1},\n{"b":[2]}]}', 'results')).toEqual([2, 3]);
    });

    it('reports bad posts, bad CSV rows and bad JSON by line', async () => {
      const posts = [
        JSON.stringify(post('p1', '2026-11-20T09:00:00Z', ['AAPL'])),
        JSON.stringify({ ...post('p2', '2026-11-20T09:00:00Z', []), sentiment: 2 }),
        '{"id": "p3", oops}',
        JSON.stringify({ ...post('p4', 'yesterday', ['A B']), source: '' }),
      ].join('\n');
      const p = file('posts.ndjson', posts);
      const err = await importError(importNewsSocialFile(store, p));
      expect(err.issues.map((i) => `${i.line}: ${i.field}`)).toEqual(['2: tickers', '2: sentiment', '3: (json)', '4: source', '4: created_utc', '4: tickers[0]']);
      expect(err.message).toContain(`${p}:2: sentiment: must be a number from -1 to 1`);
      expect(await store.social.countPosts()).toBe(0);

      const csv = file('short.csv', 'id,source,author,created_utc,text,tickers\ns1,forum,ann,2026-11-20T10:00:00Z,hi,AAPL\ns2,forum,ann\n');
      expect((await importError(importNewsSocialFile(store, csv))).message).toBe(`${csv}:3: (csv): has 3 fields, the header has 6`);

      const broken = file('broken.json', '[\n{"id": "a"},\n{"id": }\n]');
      const e = await importError(importNewsSocialFile(store, broken));
      expect(e.issues[0]).toMatchObject({ line: 3, field: '(json)' });
    });

    it('refuses files it cannot place and empty files', async () => {
      const other = file('other.json', JSON.stringify([{ ticker: 'AAPL', cash_amount: 1 }]));
      expect((await importError(importNewsSocialFile(store, other))).message).toMatch(/other\.json:1: \(record\): is neither a news article/);
      const empty = file('empty.json', '[]');
      expect((await importError(importNewsSocialFile(store, empty))).message).toBe(`${empty}:1: (file): holds no records`);
    });

    it('caps the list of problems it prints', async () => {
      const many = Array.from({ length: 30 }, (_, i) => ({ ...NEWS_FIXTURE[0], id: `m${i}`, title: '' }));
      const err = await importError(importNewsSocialFile(store, file('many.json', JSON.stringify(many))));
      expect(err.issues).toHaveLength(20);
      expect(err.message).toMatch(/… and 10 more problems$/);
    });

    it('writes more than one batch atomically: a bad last record rolls back the earlier batches', async () => {
      const lines = Array.from({ length: 2500 }, (_, i) => JSON.stringify(post(`b${i}`, '2026-11-20T09:00:00Z', ['AAPL'])));
      lines.push(JSON.stringify(post('bad', 'never', ['AAPL'])));
      await importError(importNewsSocialFile(store, file('big.ndjson', lines.join('\n'))));
      expect(await store.social.countPosts()).toBe(0);
      const ok = await importNewsSocialFile(store, file('big-ok.ndjson', lines.slice(0, -1).join('\n')));
      expect(ok.records).toBe(2500);
      expect(await store.social.countPosts()).toBe(2500);
    });
  });
}

describe('news and social posts through the import registry (tickerbase import)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tb-news-registry-'));
  let store: Store;
  beforeAll(async () => {
    store = await engines()[0]!.open();
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is picked for news and post files by their fields, and reports new rows', async () => {
    const news = join(dir, 'news.json');
    writeFileSync(news, JSON.stringify(NEWS_FIXTURE));
    const first = await importFile(store, news);
    expect(first).toMatchObject({ importer: 'news-social', kind: 'news', rows: 8, written: 8, rejected: 0 });
    expect(await importFile(store, news)).toMatchObject({ kind: 'news', rows: 8, written: 0 });
    const posts = join(dir, 'posts.csv');
    writeFileSync(posts, 'id,source,author,created_utc,text,tickers\ns1,forum,ann,2026-11-20T10:00:00Z,hi,AAPL\n');
    expect(await importFile(store, posts)).toMatchObject({ importer: 'news-social', kind: 'social_posts', rows: 1, written: 1 });
    const named = join(dir, 'named.ndjson');
    writeFileSync(named, JSON.stringify(post('s2', '2026-11-20T10:00:00Z', ['MSFT'])));
    expect(await importFile(store, named, { dataset: 'social_posts' })).toMatchObject({ kind: 'social_posts', written: 1 });
  });

  it('with --skip-bad-rows leaves bad records out and lists them in the rejects file', async () => {
    const p = join(dir, 'mixed.ndjson');
    writeFileSync(p, [post('k1', '2026-11-20T10:00:00Z', ['AAPL']), { ...post('k2', 'soon', ['AAPL']) }, post('k3', '2026-11-20T10:00:00Z', ['TSLA'])].map((x) => JSON.stringify(x)).join('\n'));
    const r = await importFile(store, p, { skipBadRows: true });
    expect(r).toMatchObject({ kind: 'social_posts', rows: 2, written: 2, rejected: 1 });
    const rejects = readFileSync(r.rejectsFile!, 'utf8').split('\n');
    expect(rejects[1]).toMatch(/^2,"created_utc: must be an RFC 3339 timestamp.*""id"":""k2""/);
    await expect(importFile(store, p)).rejects.toThrow(`${p}:2: created_utc: must be an RFC 3339 timestamp`);
  });
});
