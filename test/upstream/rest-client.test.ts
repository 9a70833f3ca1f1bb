// The upstream REST client against a fake upstream on 127.0.0.1: the key goes only in the
// Authorization header, next_url is followed on the base it was given, 429 and Retry-After are
// honoured, 5xx and silence are retried within a cap and then reported, and an answer that is not
// the promised JSON is an error naming the URL (key redacted) and what was wrong.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseRate, RateBudget } from '../../src/upstream/rate-budget.js';
import { UpstreamRestClient } from '../../src/upstream/rest-client.js';
import { redactUpstreamUrl, UpstreamError } from '../../src/upstream/rest-errors.js';
import { FakeUpstream } from '../helpers/fake-upstream-rest.js';

const KEY = 'operator-upstream-key-123';
let fake: FakeUpstream;
const sleeps: number[] = [];
const noSleep = async (ms: number) => {
  sleeps.push(ms);
};

beforeEach(async () => {
  fake = await FakeUpstream.start();
  sleeps.length = 0;
  const items = Array.from({ length: 25 }, (_, i) => ({ id: i }));
  fake.paged(/^\/v3\/items$/, () => items, { maxLimit: 10 });
});
afterEach(async () => fake.close());

const client = (extra: Partial<ConstructorParameters<typeof UpstreamRestClient>[0]> = {}) =>
  new UpstreamRestClient({ baseUrl: fake.baseUrl, key: KEY, sleep: noSleep, ...extra });

async function failure(p: Promise<unknown>): Promise<UpstreamError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(UpstreamError);
  return err as UpstreamError;
}

describe('upstream REST client', () => {
  it('sends the key only in the Authorization header and follows next_url on its own base', async () => {
    const ids: number[] = [];
    for await (const page of client().pages('/v3/items?limit=50000')) ids.push(...(page.body.results as { id: number }[]).map((r) => r.id));
    expect(ids).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(fake.requests).toHaveLength(3);
    for (const r of fake.requests) {
      expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(r.url).not.toContain(KEY);
      expect(r.url.toLowerCase()).not.toContain('apikey');
    }
    // the page size asked for is kept on the next pages
    expect(fake.requests[1]!.query.get('cursor')).toBe('10');
  });

  it('waits what Retry-After says after a 429, then goes on', async () => {
    fake.fail({ kind: 'status', status: 429, retryAfter: '7' }, { times: 2 });
    const page = await client().get('/v3/items');
    expect(page.status).toBe(200);
    expect(fake.requests).toHaveLength(3);
    expect(sleeps).toEqual([7000, 7000]);
  });

  it('with a rate budget, a 429 pauses the budget for Retry-After', async () => {
    const now = { t: 0 };
    const waited: number[] = [];
    const budget = new RateBudget(parseRate('100/sec'), () => now.t, async (ms) => {
      waited.push(ms);
      now.t += ms;
    });
    fake.fail({ kind: 'status', status: 429, retryAfter: '3' });
    await client({ rate: budget }).get('/v3/items');
    expect(waited).toEqual([3000]);
  });

  it('reports a 429 as rate_limited with its Retry-After when no retry is allowed', async () => {
    fake.fail({ kind: 'status', status: 429, retryAfter: '12' });
    const err = await failure(client({ retries: 0 }).get('/v3/items'));
    expect(err.kind).toBe('rate_limited');
    expect(err.retryAfterS).toBe(12);
  });

  it('backs off on 5xx with a cap, and reports upstream unavailable after the retries', async () => {
    fake.fail({ kind: 'status', status: 502 }, { times: 10 });
    const err = await failure(client({ retries: 4, maxBackoffMs: 3000 }).get('/v3/items'));
    expect(err.kind).toBe('unavailable');
    expect(err.message).toContain(`${fake.baseUrl}/v3/items`);
    expect(err.message).toContain('HTTP 502');
    expect(sleeps).toEqual([1000, 2000, 3000, 3000]);
    expect(fake.requests).toHaveLength(5);
  });

  it('gives up on a silent upstream at the per-request deadline', async () => {
    fake.fail({ kind: 'silent' });
    const started = Date.now();
    const err = await failure(client({ retries: 0, timeoutMs: 200 }).get('/v3/items'));
    expect(err.kind).toBe('unavailable');
    expect(err.reason).toContain('no answer within 200 ms');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('refuses an HTML page, truncated JSON, and a body that is not an object, naming the URL', async () => {
    fake.fail({ kind: 'html' });
    let err = await failure(client().get('/v3/items?limit=5'));
    expect(err.kind).toBe('bad_answer');
    expect(err.message).toMatch(new RegExp(`^${fake.baseUrl}/v3/items\\?limit=5: not JSON but an HTML page`));
    fake.fail({ kind: 'truncated' });
    err = await failure(client().get('/v3/items'));
    expect(err.kind).toBe('bad_answer');
    expect(err.reason).toMatch(/not valid JSON/);
    fake.on(/^\/v3\/weird$/, () => ({ body: { status: 'OK', results: 'nope' } }));
    err = await failure(client().get('/v3/weird'));
    expect(err.reason).toBe('"results" is neither a list nor an object');
    // none of these is retried: the same bad answer would come again
    expect(fake.requests).toHaveLength(3);
  });

  it('tells a refused key (401) from data outside the plan (403), and hands a 404 back as an answer', async () => {
    fake.fail({ kind: 'status', status: 401 });
    expect((await failure(client().get('/v3/items'))).kind).toBe('unauthorized');
    fake.fail({ kind: 'status', status: 403 });
    expect((await failure(client().get('/v3/items'))).kind).toBe('forbidden');
    expect((await client().get('/v3/nothing-here')).status).toBe(404);
  });

  it('reads integers beyond 2^53 (ns times, sequence numbers) exactly, for every caller', async () => {
    fake.on(/^\/v3\/exact$/, () => ({ body: '{"status":"OK","results":[{"sip_timestamp":1765000000123456789,"sequence_number":9007199254740993,"price":12.5,"id":"1765000000123456789"}]}' }));
    const [r] = (await client().get('/v3/exact')).body.results as Record<string, unknown>[];
    // JSON.parse would give 1765000000123456800 and 9007199254740992
    expect(BigInt(r!.sip_timestamp as string)).toBe(1_765_000_000_123_456_789n);
    expect(BigInt(r!.sequence_number as string)).toBe(9_007_199_254_740_993n);
    expect(r!.price).toBe(12.5);
    expect(r!.id).toBe('1765000000123456789');
  });

  it('never shows the key in what it reports', () => {
    expect(redactUpstreamUrl(`https://api.massive.com/v3/x?apiKey=${KEY}&limit=5`)).toBe('https://api.massive.com/v3/x?apiKey=REDACTED&limit=5');
    expect(client().redact(`https://proxy/${KEY}/v3/x`)).toBe('https://proxy/REDACTED/v3/x');
  });
});

describe('rate budget', () => {
  it('parses N/sec, N/min and N/hour and refuses the rest naming the flag', () => {
    expect(parseRate('5/min')).toMatchObject({ count: 5, periodMs: 60_000 });
    expect(parseRate('100/sec')).toMatchObject({ count: 100, periodMs: 1000 });
    expect(parseRate('2/hour')).toMatchObject({ count: 2, periodMs: 3_600_000 });
    expect(() => parseRate('5 per minute')).toThrow(/--rate must be/);
    expect(() => parseRate('0/min')).toThrow(/--rate must be/);
  });

  it('lets 5 calls a minute out: a burst of five, then one as each leaves the window', async () => {
    const now = { t: 0 };
    const budget = new RateBudget(parseRate('5/min'), () => now.t, async (ms) => {
      now.t += ms;
    });
    const starts: number[] = [];
    for (let i = 0; i < 12; i++) {
      await budget.take();
      starts.push(now.t);
    }
    expect(starts).toEqual([0, 0, 0, 0, 0, 60_000, 60_000, 60_000, 60_000, 60_000, 120_000, 120_000]);
    // never more than five in any minute
    for (const s of starts) expect(starts.filter((x) => x >= s && x < s + 60_000).length).toBeLessThanOrEqual(5);
    expect(budget.secondsFor(12)).toBe(120);
  });

  it('refuses a call that would wait longer than asked, without taking it', async () => {
    const now = { t: 0 };
    const budget = new RateBudget(parseRate('1/min'), () => now.t, async () => {});
    expect(await budget.take(0)).toBe(0);
    expect(await budget.take(1000)).toBe(60_000);
    now.t = 60_000;
    expect(await budget.take(0)).toBe(0);
  });
});
