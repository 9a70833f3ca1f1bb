import { describe, expect, it } from 'vitest';
import { engines } from '../helpers/engines.js';
import { useSeededApps } from '../helpers/app-fixture.js';

// Market status touches no market data: one engine is enough.
const engine = engines()[0]!;

describe('market status', () => {
  let clock = 0;
  const { apps: [t, native] } = useSeededApps(engine, async () => {}, { now: () => clock }, { envelope: 'native', now: () => clock });

  async function statusAt(iso: string) {
    clock = Date.parse(iso);
    const res = await native.get('/v1/marketstatus/now');
    expect(res.status).toBe(200);
    return res.body;
  }

  it('is a bare body in native mode and {ok,data} in wrapped mode, with no status or request_id', async () => {
    const nativeBody = await statusAt('2026-11-20T15:00:00Z');
    expect(nativeBody.status).toBeUndefined();
    expect(nativeBody.request_id).toBeUndefined();
    expect(nativeBody.market).toBe('open');
    const wrapped = await t.get('/v1/marketstatus/now');
    expect(wrapped.body.ok).toBe(true);
    expect(wrapped.body.data).toEqual(nativeBody);
  });

  it("serves the seed's /v1/marketstatus/ path as an alias", async () => {
    clock = Date.parse('2026-11-20T15:00:00Z');
    const a = await native.get('/v1/marketstatus/');
    const b = await native.get('/v1/marketstatus');
    expect(a.status).toBe(200);
    expect(a.body).toEqual((await native.get('/v1/marketstatus/now')).body);
    expect(b.body).toEqual(a.body);
  });

  it('regular session on a normal Friday: open everywhere, serverTime in ET with its offset', async () => {
    const s = await statusAt('2026-11-20T15:00:00Z'); // 10:00 EST
    expect(s).toMatchObject({
      market: 'open',
      serverTime: '2026-11-20T10:00:00-05:00',
      earlyHours: false,
      afterHours: false,
      exchanges: { nyse: 'open', nasdaq: 'open', otc: 'open' },
      currencies: { fx: 'open', crypto: 'open' },
    });
    expect(s.indicesGroups.s_and_p).toBe('open');
  });

  it('pre-market is extended-hours with earlyHours; after the close afterHours', async () => {
    const pre = await statusAt('2026-11-20T13:00:00Z'); // 08:00 EST
    expect(pre).toMatchObject({ market: 'extended-hours', earlyHours: true, afterHours: false });
    expect(pre.indicesGroups.dow_jones).toBe('closed');
    const post = await statusAt('2026-11-20T22:00:00Z'); // 17:00 EST
    expect(post).toMatchObject({ market: 'extended-hours', earlyHours: false, afterHours: true });
    const night = await statusAt('2026-11-21T01:30:00Z'); // 20:30 EST
    expect(night).toMatchObject({ market: 'closed', earlyHours: false, afterHours: false });
  });

  it('weekend: equities closed, fx closed from Friday 17:00 ET to Sunday 17:00 ET, crypto open', async () => {
    const sat = await statusAt('2026-11-21T17:00:00Z');
    expect(sat).toMatchObject({ market: 'closed', currencies: { fx: 'closed', crypto: 'open' } });
    expect((await statusAt('2026-11-22T21:59:00Z')).currencies.fx).toBe('closed'); // Sun 16:59 EST
    expect((await statusAt('2026-11-22T22:00:00Z')).currencies.fx).toBe('open'); // Sun 17:00 EST
    expect((await statusAt('2026-11-20T21:59:00Z')).currencies.fx).toBe('open'); // Fri 16:59 EST
    expect((await statusAt('2026-11-20T22:00:00Z')).currencies.fx).toBe('closed');
  });

  it('holiday: Thanksgiving is closed all day, fx stays open', async () => {
    const s = await statusAt('2026-11-26T16:00:00Z'); // Thu 11:00 EST
    expect(s).toMatchObject({ market: 'closed', earlyHours: false, exchanges: { nyse: 'closed' }, currencies: { fx: 'open' } });
    expect((await statusAt('2026-11-26T12:00:00Z')).market).toBe('closed'); // would be pre-market on a normal day
  });

  it('early close: the day after Thanksgiving closes at 13:00 ET and after-hours end at 17:00 ET', async () => {
    expect((await statusAt('2026-11-27T17:59:00Z')).market).toBe('open'); // 12:59 EST
    expect(await statusAt('2026-11-27T18:00:00Z')).toMatchObject({ market: 'extended-hours', afterHours: true }); // 13:00
    expect(await statusAt('2026-11-27T22:30:00Z')).toMatchObject({ market: 'closed', afterHours: false }); // 17:30
  });

  it('DST change days: the session follows New York wall time, not a fixed offset', async () => {
    // 2026-11-01 (Sunday) ends DST: on Monday 11-02, 13:45Z is 08:45 EST (pre-market), not 09:45 EDT.
    const nov = await statusAt('2026-11-02T13:45:00Z');
    expect(nov).toMatchObject({ market: 'extended-hours', earlyHours: true, serverTime: '2026-11-02T08:45:00-05:00' });
    expect((await statusAt('2026-11-02T14:30:00Z')).market).toBe('open');
    // 2026-03-08 (Sunday) starts DST: on Monday 03-09, 13:30Z is 09:30 EDT (open).
    const mar = await statusAt('2026-03-09T13:30:00Z');
    expect(mar).toMatchObject({ market: 'open', serverTime: '2026-03-09T09:30:00-04:00' });
    expect((await statusAt('2026-03-09T13:29:00Z')).market).toBe('extended-hours');
  });

  it('upcoming holidays: a bare array of future dates, one entry per exchange, early closes with UTC open/close', async () => {
    clock = Date.parse('2026-11-20T15:00:00Z');
    const res = await native.get('/v1/marketstatus/upcoming');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body.slice(0, 6)).toEqual([
      { exchange: 'NYSE', name: 'Thanksgiving', date: '2026-11-26', status: 'closed' },
      { exchange: 'NASDAQ', name: 'Thanksgiving', date: '2026-11-26', status: 'closed' },
      { exchange: 'NYSE', name: 'Thanksgiving', date: '2026-11-27', status: 'early-close', open: '2026-11-27T14:30:00.000Z', close: '2026-11-27T18:00:00.000Z' },
      { exchange: 'NASDAQ', name: 'Thanksgiving', date: '2026-11-27', status: 'early-close', open: '2026-11-27T14:30:00.000Z', close: '2026-11-27T18:00:00.000Z' },
      { exchange: 'NYSE', name: 'Christmas', date: '2026-12-24', status: 'early-close', open: '2026-12-24T14:30:00.000Z', close: '2026-12-24T18:00:00.000Z' },
      { exchange: 'NASDAQ', name: 'Christmas', date: '2026-12-24', status: 'early-close', open: '2026-12-24T14:30:00.000Z', close: '2026-12-24T18:00:00.000Z' },
    ]);
    const dates = res.body.map((h: { date: string }) => h.date);
    expect(dates).toEqual([...dates].sort());
    expect(dates.every((d: string) => d > '2026-11-20')).toBe(true);
    const wrapped = await t.get('/v1/marketstatus/upcoming');
    expect(wrapped.body).toEqual({ ok: true, data: res.body });
  });

  it('upcoming holidays move with the clock: on Thanksgiving itself it is no longer listed', async () => {
    clock = Date.parse('2026-11-26T15:00:00Z');
    const res = await native.get('/v1/marketstatus/upcoming');
    expect(res.body[0]).toMatchObject({ date: '2026-11-27', status: 'early-close' });
  });

  it('still requires a key', async () => {
    const res = await native.get('/v1/marketstatus/now', { 'x-api-key': '' });
    expect(res.status).toBe(401);
  });
});
