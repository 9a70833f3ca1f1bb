import { describe, expect, it } from 'vitest';
import { engines } from '../helpers/engines.js';
import { MID, loadSnapshotFixture } from '../helpers/snapshot-fixture.js';
import { useSeededApp } from '../helpers/app-fixture.js';

const U = '/v3/snapshot';

for (const engine of engines()) {
  describe(`universal snapshot errors (${engine.name})`, () => {
    const { t } = useSeededApp(engine, loadSnapshotFixture, { envelope: 'native', now: () => MID });

    for (const limit of ['0', '251', 'abc', '-1', '2.5']) {
      it(`limit=${limit} is a 400 naming limit`, async () => {
        const res = await t.get(`${U}?limit=${limit}`);
        expect(res.status).toBe(400);
        expect(res.body.status).toBe('ERROR');
        expect(res.body.error).toMatch(/limit/);
      });
    }

    it('bad type, order and sort are 400s naming the parameter', async () => {
      for (const [param, value] of [['type', 'bonds'], ['order', 'up'], ['sort', 'name']]) {
        const res = await t.get(`${U}?${param}=${value}`);
        expect(res.status, param).toBe(400);
        expect(res.body.error).toContain(param);
      }
    });

    it('more than 250 tickers in ticker.any_of is a 400 naming it', async () => {
      const list = Array.from({ length: 251 }, (_, i) => `T${i}`).join(',');
      const res = await t.get(`${U}?ticker.any_of=${list}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toContain('ticker.any_of');
    });

    it('an empty ticker.any_of list is a 400', async () => {
      const res = await t.get(`${U}?ticker.any_of=,,`);
      expect(res.status).toBe(400);
      expect(res.body.error).toContain('ticker.any_of');
    });

    it('a forged cursor is a 400, not a 500', async () => {
      const res = await t.get(`${U}?cursor=bm90LWEtY3Vyc29y`);
      expect(res.status).toBe(400);
    });
  });
}
