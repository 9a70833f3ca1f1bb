import { describe, it } from 'vitest';
import { expectSameShape, haveUpstream, skipConformance, upstreamBody } from '../helpers/conformance.js';
import { engines } from '../helpers/engines.js';
import { DAY, loadSnapshotFixture } from '../helpers/snapshot-fixture.js';
import { useSeededApp } from '../helpers/app-fixture.js';

// Documented differences: the conversion body also names the quote used (`symbol`, as upstream's
// documentation sample does) and carries `request_id`; market status adds `indicesGroups` (in
// upstream's OpenAPI document, not in this older recording).

for (const engine of engines()) {
  describe(`conversion and market status conformance with recorded upstream bodies (${engine.name})`, () => {
    let clock = Date.parse(`${DAY}T16:00:00Z`);
    const { t } = useSeededApp(engine, loadSnapshotFixture, { envelope: 'native', now: () => clock });

    const check = (what: string, file: string, url: string, at: number, opts: Parameters<typeof expectSameShape>[2] = {}) =>
      it(what, async () => {
        const upstream = upstreamBody(file);
        if (!haveUpstream || upstream === undefined) return skipConformance(what);
        clock = at;
        expectSameShape((await t.get(url)).body, upstream, opts);
      });

    const noon = Date.parse(`${DAY}T16:00:00Z`);
    check('conversion, direct', 'v1/conversion/USD/GBP.json', '/v1/conversion/EUR/USD?amount=100', noon, { allowExtra: ['symbol', 'request_id'] });
    check('conversion, through USD', 'v1/conversion/USD/GBP.json', '/v1/conversion/GBP/JPY?amount=100', noon, { allowExtra: ['symbol', 'request_id'] });
    check('market status', 'v1/marketstatus/now.json', '/v1/marketstatus/now', Date.parse('2026-11-19T22:26:06Z'), { allowExtra: ['indicesGroups'] });
    // the recording's last entries are early closes with open/close, as ours has in late November
    check('market holidays', 'v1/marketstatus/upcoming.json', '/v1/marketstatus/upcoming', Date.parse('2026-11-01T12:00:00Z'));
    check('market holidays (second recording)', 'v1/marketstatus/upcoming~2.json', '/v1/marketstatus/upcoming', Date.parse('2026-11-01T12:00:00Z'));
  });
}
