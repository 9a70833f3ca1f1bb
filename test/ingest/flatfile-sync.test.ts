// `sync flatfiles` against a fake S3 bucket on 127.0.0.1 (test/helpers/fake-s3.ts), on both
// engines: listing (paged), streaming into the importer, the date range, the manifest's skips,
// the ticker filter, republished files, a refused object, bad credentials, a stalled download
// and the dry run.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { syncFlatFiles, type FlatFileSyncOptions } from '../../src/ingest/flatfile-sync.js';
import { FlatFilesBucket, FlatFilesBucketError } from '../../src/upstream/flatfiles-bucket.js';
import { nyTime } from '../../src/domain/calendar.js';
import { flatFileReaderSettings, flatFileReaderStats } from '../../src/ingest/flatfile-threaded.js';
import { importFile } from '../../src/ingest/load.js';
import { engines } from '../helpers/engines.js';
import { FakeS3 } from '../helpers/fake-s3.js';
import { dayKey, gzipCsv, MINUTE_HEADER, minuteBarLines, TRADES_HEADER, tradeLines } from '../helpers/flatfile-days.js';
import { countRows, useImportSandbox } from './import-sandbox.js';
import { TempDir } from './import-files.js';

const MINUTES = 'us_stocks_sip/minute_aggs_v1';
const TRADES = 'us_stocks_sip/trades_v1';
const DAYS = ['2024-03-06', '2024-03-07', '2024-03-08'];
const TICKERS = ['AAPL', 'MSFT', 'NVDA'];

class Output {
  text = '';
  isTTY = false;
  write(s: string): boolean {
    this.text += s;
    return true;
  }
}

for (const engine of engines()) {
  describe(`sync flatfiles (${engine.name})`, () => {
    const { store } = useImportSandbox(engine, ['minute_bars', 'day_bars', 'trades', 'quotes', 'flatfile_manifest']);
    let s3: FakeS3;
    let bucket: FlatFilesBucket;
    let out: Output;

    beforeEach(async () => {
      // Two keys a page: listing a data set takes several ListObjectsV2 calls.
      s3 = await new FakeS3({ pageSize: 2 }).start();
      for (const day of DAYS) {
        s3.put(dayKey(MINUTES, day), gzipCsv(MINUTE_HEADER, minuteBarLines(day, { tickers: TICKERS, minutes: 300 })));
        s3.put(dayKey(TRADES, day), gzipCsv(TRADES_HEADER, tradeLines(day, ['AAPL', 'MSFT'], 200)));
      }
      // Outside the range asked for below: never fetched.
      s3.put(dayKey(MINUTES, '2024-03-11'), gzipCsv(MINUTE_HEADER, minuteBarLines('2024-03-11', { tickers: TICKERS, minutes: 10 })));
      bucket = new FlatFilesBucket({ endpoint: s3.url, bucket: s3.bucket, accessKey: s3.accessKey, secretKey: s3.secretKey, idleTimeoutMs: 2_000 });
      out = new Output();
    });
    afterEach(async () => {
      bucket.destroy();
      await s3.stop();
    });

    const sync = (opts: Partial<FlatFileSyncOptions> = {}) =>
      syncFlatFiles(store, bucket, { datasets: [MINUTES, TRADES], from: '2024-03-01', to: '2024-03-08', output: out, ...opts });

    it('lists the data sets page by page and stores the files of the date range', async () => {
      const summary = await sync({ parallel: 2 });
      expect(summary).toMatchObject({ objects: 6, fetched: 6, upToDate: 0, failures: [], rows: 3 * 3 * 300 + 3 * 2 * 200 });
      expect(await countRows(store, 'minute_bars')).toBe(3 * 3 * 300);
      expect(await countRows(store, 'trades')).toBe(3 * 2 * 200);
      // Day bars derived from the minutes, one per ticker and day.
      expect(await countRows(store, 'day_bars')).toBe(3 * 3);
      const bars = await store.market.readBars('minute', { ticker: 'MSFT', fromMs: nyTime('2024-03-07', '00:00'), toMs: nyTime('2024-03-08', '00:00'), order: 'asc', limit: 1000 });
      expect(bars).toHaveLength(300);
      expect(bars[0]!.t).toBe(nyTime('2024-03-07', '04:00'));
      const listings = s3.requests.filter((r) => r.query.get('list-type') === '2');
      expect(listings.some((r) => r.query.has('continuation-token'))).toBe(true);
      expect(s3.gets(dayKey(MINUTES, '2024-03-11'))).toBe(0);
      expect(out.text).toMatch(/summary: 6 files from 2024-03-01 to 2024-03-08: 6 fetched, 0 up to date, 0 failed/);
    });

    it('parses in the reader thread as the bytes arrive, with the ticker filter applied there', async () => {
      const threshold = flatFileReaderSettings.workerThreshold;
      flatFileReaderSettings.workerThreshold = 0;
      const viaWorker = flatFileReaderStats.worker;
      try {
        const summary = await sync({ tickers: ['MSFT', 'NVDA'], datasets: [MINUTES] });
        expect(summary).toMatchObject({ fetched: 3, rows: 3 * 2 * 300, failures: [] });
      } finally {
        flatFileReaderSettings.workerThreshold = threshold;
      }
      expect(flatFileReaderStats.worker - viaWorker).toBe(3);
      expect(await countRows(store, 'minute_bars')).toBe(1800);
      expect(await store.market.readBars('minute', { ticker: 'AAPL', fromMs: 0, toMs: Date.UTC(2030, 0), order: 'asc', limit: 10 })).toEqual([]);
    });

    it('stores a file already imported from disk without doubling a row', async () => {
      const dir = new TempDir();
      try {
        const day = '2024-03-07';
        const file = dir.writeRaw(`${day}.csv.gz`, gzipCsv(TRADES_HEADER, tradeLines(day, ['AAPL', 'MSFT'], 200)));
        await importFile(store, file);
        const summary = await sync({ datasets: [TRADES] });
        expect(summary).toMatchObject({ fetched: 3, failures: [] });
        expect(await countRows(store, 'trades')).toBe(1200);
      } finally {
        dir.remove();
      }
    });

    it('skips on a re-run what is up to date, fetching nothing', async () => {
      await sync();
      const before = s3.requests.filter((r) => r.method === 'GET' && !r.query.has('list-type')).length;
      const again = await sync();
      expect(again).toMatchObject({ objects: 6, fetched: 0, upToDate: 6, failures: [] });
      expect(s3.requests.filter((r) => r.method === 'GET' && !r.query.has('list-type')).length).toBe(before);
      expect(await countRows(store, 'minute_bars')).toBe(2700);
    });

    it('pulls a republished file again, and its rows replace the old ones (a dropped row is gone)', async () => {
      await sync();
      const key = dayKey(MINUTES, '2024-03-07');
      // The new version: prices corrected, and NVDA's bars withdrawn.
      s3.put(key, gzipCsv(MINUTE_HEADER, minuteBarLines('2024-03-07', { tickers: ['AAPL', 'MSFT'], minutes: 300, priceShift: 1 })));
      const again = await sync();
      expect(again).toMatchObject({ fetched: 1, upToDate: 5, failures: [] });
      expect(s3.gets(key)).toBe(2);
      const day = { fromMs: nyTime('2024-03-07', '00:00'), toMs: nyTime('2024-03-08', '00:00'), order: 'asc' as const, limit: 1000 };
      expect(await store.market.readBars('minute', { ticker: 'NVDA', ...day })).toEqual([]);
      expect(await store.market.readBars('day', { ticker: 'NVDA', ...day })).toEqual([]);
      const aapl = await store.market.readBars('minute', { ticker: 'AAPL', ...day });
      expect(aapl).toHaveLength(300);
      const first = minuteBarLines('2024-03-07', { tickers: ['AAPL'], minutes: 1, priceShift: 1 })[0]!.split(',');
      expect(aapl[0]!.o).toBe(Number(first[2]));
      // The other days, NVDA's included, are as they were.
      expect(await countRows(store, 'minute_bars')).toBe(2700 - 300);
      expect(await store.market.readBars('minute', { ticker: 'NVDA', fromMs: nyTime('2024-03-08', '00:00'), toMs: nyTime('2024-03-09', '00:00'), order: 'asc', limit: 1000 })).toHaveLength(300);
    });

    it('replaces a republished crypto day in UTC, leaving the stocks of the same hours alone', async () => {
      const CRYPTO = 'global_crypto/minute_aggs_v1';
      const day = '2024-03-07';
      const utcMinutes = (tickers: string[], from: number, count: number, shift = 0) =>
        tickers.flatMap((ticker) =>
          Array.from({ length: count }, (_, m) => {
            const p = 60_000 + m + shift;
            return `${ticker},1.5,${p},${p},${p + 1},${p - 1},${BigInt(from + m * 60_000) * 1_000_000n},3`;
          }),
        );
      const key = dayKey(CRYPTO, day);
      s3.put(key, gzipCsv(MINUTE_HEADER, utcMinutes(['X:BTCUSD', 'X:ETHUSD'], Date.UTC(2024, 2, 7), 1440)));
      await sync({ datasets: [MINUTES, CRYPTO] });
      expect(await countRows(store, 'minute_bars')).toBe(2700 + 2 * 1440);
      // Republished without ETH.
      s3.put(key, gzipCsv(MINUTE_HEADER, utcMinutes(['X:BTCUSD'], Date.UTC(2024, 2, 7), 1440, 5)));
      expect(await sync({ datasets: [MINUTES, CRYPTO] })).toMatchObject({ fetched: 1, upToDate: 3 });
      const utcDay = { fromMs: Date.UTC(2024, 2, 7), toMs: Date.UTC(2024, 2, 8), order: 'asc' as const, limit: 5000 };
      expect(await store.market.readBars('minute', { ticker: 'X:ETHUSD', ...utcDay })).toEqual([]);
      const btc = await store.market.readBars('minute', { ticker: 'X:BTCUSD', ...utcDay });
      expect(btc).toHaveLength(1440);
      expect(btc[0]!.o).toBe(60_005);
      // The stocks' minutes of that day are all still there.
      expect(await countRows(store, 'minute_bars')).toBe(2700 + 1440);
    });

    it('fails a file republished between the listing and its download, and the next run fetches it', async () => {
      const key = dayKey(MINUTES, '2024-03-08');
      const body = gzipCsv(MINUTE_HEADER, minuteBarLines('2024-03-08', { tickers: TICKERS, minutes: 300, priceShift: 2 }));
      // Republished just as the run comes to download it.
      const racing = { list: (prefix: string) => bucket.list(prefix), open: (k: string, etag?: string) => (k === key && s3.put(k, body), bucket.open(k, etag)) };
      const summary = await syncFlatFiles(store, racing, { datasets: [MINUTES], from: '2024-03-01', to: '2024-03-08', output: out });
      expect(summary.fetched).toBe(2);
      expect(summary.failures).toEqual([{ key, message: `${key}: republished while the run was going; run again to fetch the new version` }]);
      expect(await countRows(store, 'minute_bars')).toBe(1800);
      expect(await sync({ datasets: [MINUTES] })).toMatchObject({ fetched: 1, upToDate: 2, failures: [] });
      expect(await countRows(store, 'minute_bars')).toBe(2700);
    });

    it('filters rows by ticker in flight, and a later run without the filter fetches the rest', async () => {
      const filtered = await sync({ tickers: ['AAPL'] });
      expect(filtered).toMatchObject({ fetched: 6, rows: 3 * 300 + 3 * 200 });
      expect(await countRows(store, 'minute_bars')).toBe(900);
      expect(await countRows(store, 'trades')).toBe(600);
      expect(await store.market.lastTrade('MSFT')).toBeUndefined();
      // The same filter again: up to date. A filter the stored one covers: up to date too.
      expect(await sync({ tickers: ['AAPL'] })).toMatchObject({ fetched: 0, upToDate: 6 });
      // Another ticker, or every ticker, is not covered by what was stored for AAPL.
      expect(await sync({ tickers: ['MSFT'], datasets: [TRADES] })).toMatchObject({ fetched: 3, upToDate: 0 });
      // MSFT's rows were added; AAPL's, stored by the first run, are still there.
      expect(await countRows(store, 'trades')).toBe(1200);
      expect(await store.market.lastTrade('AAPL')).toBeDefined();
      const all = await sync();
      expect(all).toMatchObject({ fetched: 6, upToDate: 0, failures: [] });
      expect(await countRows(store, 'minute_bars')).toBe(2700);
      expect(await countRows(store, 'trades')).toBe(1200);
      // Once stored whole, any filter is covered.
      expect(await sync({ tickers: ['NVDA'] })).toMatchObject({ fetched: 0, upToDate: 6 });
    });

    it('reports a refused object naming its key and the likely causes; the others are stored', async () => {
      const denied = dayKey(TRADES, '2024-03-08');
      s3.deny(denied);
      const summary = await sync();
      expect(summary.fetched).toBe(5);
      expect(summary.failures).toHaveLength(1);
      expect(summary.failures[0]!.key).toBe(denied);
      expect(summary.failures[0]!.message).toMatch(/access denied \(403\).*outside your plan.*not be published yet/);
      expect(out.text).toContain(`failed: ${denied}: access denied`);
      expect(await countRows(store, 'trades')).toBe(2 * 400);
      // Granted later: the next run fetches just that one.
      s3.deny(denied, false);
      expect(await sync()).toMatchObject({ fetched: 1, upToDate: 5, failures: [] });
      expect(await countRows(store, 'trades')).toBe(1200);
    });

    it('stops at once on bad credentials, storing nothing', async () => {
      for (const wrong of [{ secretKey: 'not-the-secret' }, { accessKey: 'AKIAUNKNOWN' }]) {
        const bad = new FlatFilesBucket({ endpoint: s3.url, bucket: s3.bucket, accessKey: s3.accessKey, secretKey: s3.secretKey, ...wrong });
        const err = await syncFlatFiles(store, bad, { datasets: [MINUTES], from: '2024-03-01', to: '2024-03-08', output: out }).catch((e: unknown) => e);
        bad.destroy();
        expect(err).toBeInstanceOf(FlatFilesBucketError);
        expect((err as FlatFilesBucketError).code).toBe('bad_credentials');
        expect((err as Error).message).toMatch(/refused the S3 credentials \((SignatureDoesNotMatch|InvalidAccessKeyId)\).*--s3-access-key/);
        expect((err as Error).message).not.toContain(s3.secretKey);
      }
      expect(await countRows(store, 'minute_bars')).toBe(0);
      expect(s3.requests.filter((r) => r.status === 200)).toEqual([]);
    });

    for (const reader of ['this thread', 'the reader thread'] as const) {
      it(`abandons a download that stalls, within the deadline, and stores nothing of it (parsed in ${reader})`, async () => {
        const stalled = dayKey(MINUTES, '2024-03-07');
        s3.stall(stalled);
        const threshold = flatFileReaderSettings.workerThreshold;
        if (reader === 'the reader thread') flatFileReaderSettings.workerThreshold = 0;
        let summary;
        try {
          summary = await sync({ datasets: [MINUTES] });
        } finally {
          flatFileReaderSettings.workerThreshold = threshold;
        }
        expect(summary.fetched).toBe(2);
        expect(summary.failures.map((f) => f.key)).toEqual([stalled]);
        expect(summary.failures[0]!.message).toMatch(/no data from the bucket for 2 s/);
        expect(await countRows(store, 'minute_bars')).toBe(2 * 900);
        expect((await store.flatFileManifest.entries(MINUTES)).map((e) => e.key)).not.toContain(stalled);
      });
    }

    it('gives up on a listing that does not answer, with an error naming the deadline', async () => {
      s3.listDelayMs = 5_000;
      const impatient = new FlatFilesBucket({ endpoint: s3.url, bucket: s3.bucket, accessKey: s3.accessKey, secretKey: s3.secretKey, timeoutMs: 300, maxAttempts: 1 });
      try {
        const err = await syncFlatFiles(store, impatient, { datasets: [MINUTES], from: '2024-03-01', to: '2024-03-08', output: out }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(FlatFilesBucketError);
        expect((err as FlatFilesBucketError).code).toBe('timeout');
        expect((err as Error).message).toMatch(/^listing us_stocks_sip\/minute_aggs_v1\/: no answer from http:\/\/127\.0\.0\.1:\d+\/flatfiles within 0\.6 s/);
      } finally {
        impatient.destroy();
      }
    });

    it('a dry run lists the files it would fetch with sizes and total, and writes nothing', async () => {
      const summary = await sync({ dryRun: true });
      expect(summary).toMatchObject({ objects: 6, fetched: 0 });
      for (const day of DAYS) expect(out.text).toContain(`would fetch ${dayKey(MINUTES, day)} (`);
      expect(out.text).toMatch(/dry run: 6 of 6 files to fetch, [\d.]+ KiB; 0 up to date/);
      expect(await countRows(store, 'minute_bars')).toBe(0);
      expect(await store.flatFileManifest.entries('')).toEqual([]);
      expect(s3.requests.filter((r) => r.method === 'GET' && !r.query.has('list-type'))).toEqual([]);
    });

    it('fails a file whose header is not of its data set, storing nothing of it', async () => {
      const wrong = dayKey(TRADES, '2024-03-07');
      s3.put(wrong, gzipCsv(MINUTE_HEADER, minuteBarLines('2024-03-07', { tickers: ['AAPL'], minutes: 5 })));
      const summary = await sync({ datasets: [TRADES] });
      expect(summary.fetched).toBe(2);
      expect(summary.failures).toEqual([{ key: wrong, message: `${wrong}:1: header is for aggs, not trades` }]);
      expect(await countRows(store, 'minute_bars')).toBe(0);
    });

    it('names the key of a file of a data set the importer cannot read, and goes on with the rest', async () => {
      const values = dayKey('us_indices/values_v1', '2024-03-08');
      s3.put(values, gzipCsv('ticker,timestamp,value', ['I:SPX,1709913600000000000,5123.4']));
      const summary = await sync({ datasets: ['us_indices/values_v1', MINUTES] });
      expect(summary.fetched).toBe(3);
      expect(summary.failures).toEqual([{ key: values, message: expect.stringMatching(/^us_indices\/values_v1\/2024\/03\/2024-03-08\.csv\.gz: the flat-file importer does not read the data set us_indices\/values_v1/) }]);
    });
  });
}
