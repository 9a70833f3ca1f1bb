// Field-for-field fidelity with upstream's OpenAPI document. Every GET operation the server
// serves (read from its own /openapi.json, so routes added later are checked without editing this
// file) is matched by path shape with upstream's operations; each match is called in the native
// envelope on a slice of the demo data set, with a ticker of the market the upstream operation is
// for. Across its bodies, every field upstream declares must appear at least once (the demo has
// data for it), every value must have the declared JSON type (integer vs number vs string vs
// boolean, arrays, objects, recursively), and nothing undeclared may be sent unless it is listed in
// UPSTREAM_EXTENSIONS with its reason. Fields we cannot fill yet are listed, each with its reason,
// in KNOWN_GAPS, and counted in the log line.
import { describe, expect, it } from 'vitest';
import { useSeededApp } from '../helpers/app-fixture.js';
import type { TestApp } from '../helpers/app.js';
import { SAMPLE_AS_OF, SAMPLE_MARKET_TICKERS, loadDemoSample, tradedOptionContract } from '../helpers/demo-sample.js';
import { engines } from '../helpers/engines.js';
import { checkBody, loadUpstreamDoc, missingFields, pathShape, upstreamOperations, UPSTREAM_OPENAPI, type BodyCheck, type UpstreamOperation } from '../helpers/upstream-schema.js';
import { KNOWN_GAPS, UPSTREAM_EXTENSIONS, listedFor } from './fidelity-lists.js';

/**
 * 18:30 ET on the demo's last session (23:30 UTC): every market has a day so far (forex's is the
 * UTC day), and completed minutes. Later ticks are cut (a `notice` says so), so a list's first
 * page at limit=1 is asked oldest first, where a next page exists.
 */
const CLOCK = Date.parse(`${SAMPLE_AS_OF}T23:30:00Z`);
const PREVIOUS_SESSION = '2026-11-19';

type Market = keyof typeof SAMPLE_MARKET_TICKERS | 'options';

/** The market an upstream operation is for, from its ticker parameter's name or its path. */
function marketOf(up: UpstreamOperation): Market {
  const hint = `${up.params.join(' ')} ${up.path}`.toLowerCase();
  if (/options|optioncontract/.test(hint)) return 'options';
  if (/crypto/.test(hint)) return 'crypto';
  if (/\bfx|forex|currencies/.test(hint)) return 'forex';
  if (/indices/.test(hint)) return 'indices';
  if (/^\/futures\//.test(up.path)) return 'futures';
  return 'stocks';
}

/** The value of one of upstream's path parameters for a request with data in the demo slice. */
function sample(up: UpstreamOperation, name: string, option: string): string | undefined {
  const market = marketOf(up);
  const tickerOf = (m: Market) => (m === 'options' ? option : SAMPLE_MARKET_TICKERS[m][0]);
  if (/ticker$|^id$/i.test(name)) return tickerOf(name === 'ticker' || name === 'id' ? market : marketOf({ ...up, path: '', params: [name] }));
  if (name === 'underlyingAsset') return SAMPLE_MARKET_TICKERS.stocks[0];
  if (name === 'optionContract') return option;
  if (name === 'date') return PREVIOUS_SESSION;
  if (name === 'multiplier') return '1';
  if (name === 'timespan') return 'day';
  if (name === 'direction') return 'gainers';
  if (name === 'from' || name === 'to') {
    if (up.path.startsWith('/v2/aggs/')) return name === 'from' ? '2026-11-02' : SAMPLE_AS_OF;
    const pair = tickerOf(market === 'crypto' ? 'crypto' : 'forex').slice(2);
    return name === 'from' ? pair.slice(0, 3) : pair.slice(3);
  }
  return undefined;
}

/**
 * Query parameters that make an operation return all it can: indicators with their underlying
 * bars, over minute bars and short windows (a demo option contract trades a few times a session on
 * two sessions: too few day bars for any window); summaries, which need their tickers, for one
 * ticker of every market, the traded option contract and a ticker that does not exist (its error item).
 */
const QUERY: Record<string, (option: string) => string> = {
  '/v1/indicators/': () => 'expand_underlying=true&timespan=minute&window=2&short_window=2&long_window=3&signal_window=2',
  '/v1/summaries': (option) => `ticker.any_of=${[...Object.values(SAMPLE_MARKET_TICKERS).map((tickers) => tickers[0]), option, 'NOSUCHTICKER'].join(',')}`,
};
const queryOf = (path: string, option: string) => Object.entries(QUERY).find(([prefix]) => path.startsWith(prefix))?.[1](option);

interface OperationResult {
  ours: string;
  upstream: string;
  url: string;
  check: BodyCheck;
  error?: string;
}

/**
 * Checks one upstream operation on our path: the body of a sample request (a list at its largest
 * limit) and, for a list, the body of its first page at limit=1 (where a next page exists).
 */
async function checkOperation(t: TestApp, ours: string, list: { maxLimit?: number; ordered: boolean }, up: UpstreamOperation, option: string): Promise<OperationResult> {
  const { maxLimit } = list;
  const values = up.params.map((p) => sample(up, p, option));
  const unknown = up.params.filter((_, i) => values[i] === undefined);
  const check: BodyCheck = { present: new Set(), values: 0, typeErrors: [], extras: new Set() };
  if (unknown.length) return { ours, upstream: up.path, url: '', check, error: `no sample value for {${unknown.join('}, {')}}` };
  let i = 0;
  const path = ours.replace(/\{[^}]+\}/g, () => encodeURIComponent(values[i++]!).replace(/%3A/g, ':'));
  const query = [queryOf(ours, option), maxLimit && `limit=${maxLimit}`].filter(Boolean).join('&');
  const url = query ? `${path}?${query}` : path;
  const res = await t.get(url);
  if (res.status !== 200) return { ours, upstream: up.path, url, check, error: `HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 200)}` };
  checkBody(res.body, up.schema, check);
  if (maxLimit) {
    const first = await t.get(`${url.replace(/limit=\d+/, 'limit=1')}${list.ordered ? '&order=asc' : ''}`);
    if (first.status !== 200) return { ours, upstream: up.path, url, check, error: `limit=1: HTTP ${first.status} ${JSON.stringify(first.body).slice(0, 200)}` };
    checkBody(first.body, up.schema, check);
  }
  return { ours, upstream: up.path, url, check };
}

const doc = loadUpstreamDoc();

for (const engine of engines()) {
  describe(`every served operation against upstream's response schema (${engine.name})`, () => {
    const { t } = useSeededApp(engine, loadDemoSample, { envelope: 'native', now: () => CLOCK });

    it('has every declared field with data, of the declared JSON type, and nothing undeclared but the documented extensions', async () => {
      if (!doc) return console.log(`fidelity check skipped: no upstream OpenAPI document at ${UPSTREAM_OPENAPI}`);
      const upstream = upstreamOperations(doc);
      const served = ((await t.app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, { get?: { parameters?: { name: string; in: string; schema?: unknown }[] } }> }).paths;
      const ours = Object.keys(served).filter((path) => served[path]!.get);
      const query = (path: string, name: string) => served[path]!.get!.parameters?.find((p) => p.name === name && p.in === 'query');
      const listOf = (path: string) => ({ maxLimit: (query(path, 'limit')?.schema as { maximum?: number } | undefined)?.maximum, ordered: !!query(path, 'order') });
      const option = await tradedOptionContract(t);

      const failures: string[] = [];
      const unmatched: string[] = [];
      let fields = 0;
      let values = 0;
      let gaps = 0;
      let operations = 0;
      for (const path of ours) {
        const matches = upstream.get(pathShape(path));
        if (!matches) {
          unmatched.push(path);
          continue;
        }
        for (const up of matches) {
          operations++;
          const r = await checkOperation(t, path, listOf(path), up, option);
          const where = `${r.upstream} (${r.url || path})`;
          if (r.error) {
            failures.push(`${where}: ${r.error}`);
            continue;
          }
          values += r.check.values;
          fields += r.check.present.size;
          for (const e of r.check.typeErrors) {
            if (listedFor(KNOWN_GAPS, up.path, e.slice(0, e.indexOf(':')))) gaps++;
            else failures.push(`${where}: ${e}`);
          }
          for (const extra of r.check.extras) if (!listedFor(UPSTREAM_EXTENSIONS, up.path, extra)) failures.push(`${where}: ${extra}: sent, upstream does not declare it`);
          for (const missing of missingFields(up.schema, r.check.present)) {
            if (listedFor(KNOWN_GAPS, up.path, missing)) gaps++;
            else failures.push(`${where}: ${missing}: declared upstream, absent from our body`);
          }
        }
      }
      console.log(`${engine.name}: ${operations} upstream operations checked on ${ours.length - unmatched.length} served paths, `
        + `${fields} declared fields present, ${values} values type-checked, ${gaps} known gaps; `
        + `${unmatched.length} served paths have no upstream operation: ${unmatched.join(', ')}`);
      expect(failures).toEqual([]);
    }, 600_000);
  });
}
