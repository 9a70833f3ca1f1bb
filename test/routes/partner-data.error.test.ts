import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import '../../src/ingest/datasets.js';
import { importFile } from '../../src/ingest/load.js';
import { BENZINGA_NEWS } from '../../src/store/repos/partner-catalog.js';
import { useSeededApp } from '../helpers/app-fixture.js';
import { wrappedRejection } from '../helpers/bad-request.js';
import { engines } from '../helpers/engines.js';
import { seedPartner } from '../helpers/partner-fixture.js';

for (const engine of engines()) {
  describe(`partner data sets, bad requests and files (${engine.name})`, () => {
    const { t, store } = useSeededApp(engine, seedPartner);
    const rejects = wrappedRejection(t);
    const dir = mkdtempSync(join(tmpdir(), 'tb-partner-bad-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('names the parameter of a bad value, list, sort or limit', async () => {
      await rejects('/benzinga/v2/news?published.gte=yesterday', 'published.gte must be a date (YYYY-MM-DD) or an RFC 3339 timestamp');
      await rejects('/benzinga/v2/news?published=2025-02-30T10:00:00Z', 'published must be a date (YYYY-MM-DD) or an RFC 3339 timestamp');
      await rejects('/benzinga/v2/news?tickers.all_of=AAPL,,MSFT', /^tickers\.all_of must be a comma-separated list of at most 1000 values/);
      await rejects('/benzinga/v2/news?sort=stocks', /^sort must be .*'stocks' is not one of: author, benzinga_id, body, last_updated, published, teaser, title, url$/);
      await rejects('/benzinga/v1/ratings?importance.gte=high', /importance\.gte/);
      await rejects('/benzinga/v1/bulls-bears-say?limit=5002', 'limit must be an integer from 1 to 5001');
      await rejects('/etf-global/v1/constituents?effective_date=2025-13-01', /effective_date/);
    });

    it('refuses a file with a bad timestamp or a list item with a comma, naming file, line and field, and keeps none of it', async () => {
      const before = await store.datasets.count(BENZINGA_NEWS);
      const good = { author: 'X', benzinga_id: 90, last_updated: '2025-06-01T00:00:00Z', published: '2025-06-01T00:00:00Z', title: 't', url: 'u' };
      const file = join(dir, 'news.ndjson');
      writeFileSync(file, [good, { ...good, benzinga_id: 91, published: '2025-06-01 10:00' }, { ...good, benzinga_id: 92, channels: ['a,b'] }].map((r) => JSON.stringify(r)).join('\n'));
      await expect(importFile(store, file, { dataset: 'benzinga-news' })).rejects.toThrow(
        `${file}:2: published: must be an RFC 3339 timestamp such as 2025-05-22T13:42:30Z\n${file}:3: channels: must be a list of labels (1 to 256 characters, no commas or line breaks)`,
      );
      expect(await store.datasets.count(BENZINGA_NEWS)).toBe(before);
    });
  });
}
