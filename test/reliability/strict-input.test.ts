import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { openStore, type Store } from '../../src/store/index.js';
import { operationsOf, plausibleValues, type Param } from '../fuzz/openapi-cases.js';
import { FIXTURE_TICKERS } from '../helpers/reference-fixture.js';

// Inputs are read strictly: an integer parameter is decimal digits, a number plain decimal
// notation, a single-valued parameter is given once; each bad form is a 400 naming the
// parameter. A key in a form the server does not take gets a 401 that lists the forms it
// does; headers too large for the parser get a 431 in the JSON envelope.

type App = Awaited<ReturnType<typeof buildApp>>;
let store: Store;
let app: App;
let key: string;

beforeAll(async () => {
  store = await openStore({ sqliteFile: ':memory:' });
  await store.reference.upsertTickers(FIXTURE_TICKERS);
  app = await buildApp({ store, config: { envelope: 'wrapped' }, production: { usage: false } });
  key = (await store.keys.create({ plan: 'demo' })).key;
});
afterAll(async () => {
  await app?.close();
  await store?.close();
});

async function get(url: string, headers: Record<string, string> = { 'x-api-key': key }) {
  const res = await app.inject({ method: 'GET', url, headers });
  return { status: res.statusCode, data: (res.json() as { data: { code: string; error: string } }).data };
}

function numericKind(p: Param): 'integer' | 'number' | undefined {
  const s = p.schema;
  const types = [s.type, ...(s.anyOf ?? []).map((a) => a.type)].flat().filter(Boolean);
  if (types.includes('string')) return undefined; // takes dates or text too: its own rules
  if (types.includes('integer')) return 'integer';
  if (types.includes('number')) return 'number';
  return undefined;
}

const BAD_INTEGERS = ['0x10', '1e3', '5.0', '%205', '5%20', '+5', '0b11', '1_000', '٣'];
const BAD_NUMBERS = ['0x10', '1e3', '%205', '5.', '.5', '+5', 'Infinity', '1,5'];

describe('every integer and number parameter of the OpenAPI document', () => {
  it('refuses each loosely written number with a 400 naming the parameter', async () => {
    const doc = (await app.inject('/openapi.json')).json();
    const failures: string[] = [];
    let checked = 0;
    for (const op of operationsOf(doc)) {
      const pathValues = Object.fromEntries(op.params.filter((p) => p.in === 'path').map((p) => [p.name, plausibleValues(p)[0] ?? 'AAPL']));
      for (const p of op.params) {
        const kind = numericKind(p);
        if (!kind) continue;
        checked++;
        for (const bad of kind === 'integer' ? BAD_INTEGERS : BAD_NUMBERS) {
          const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => (name === p.name ? bad : encodeURIComponent(pathValues[name]!)));
          const url = p.in === 'path' ? path : `${path}?${encodeURIComponent(p.name)}=${bad}`;
          const res = await get(url);
          if (res.status !== 400 || !res.data.error.includes(p.name)) failures.push(`${url} → ${res.status} ${res.data.error}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(failures).toEqual([]);
  });

  it('still takes plain decimal forms', async () => {
    expect((await get('/v3/reference/tickers?limit=5')).status).toBe(200);
    expect((await get('/v3/reference/tickers?limit=05')).status).toBe(200);
  });
});

describe('misleading errors', () => {
  it('a repeated parameter is a 400 naming it', async () => {
    const res = await get('/v3/reference/tickers?limit=5&limit=6');
    expect(res.status).toBe(400);
    expect(res.data.error).toBe('limit is given 2 times; give it once');
    const text = await get('/v3/reference/tickers?ticker=AAPL&ticker=MSFT');
    expect(text.status).toBe(400);
    expect(text.data.error).toBe('ticker is given 2 times; give it once');
  });

  it('Authorization: Basic is a 401 listing the accepted forms, without echoing the credentials', async () => {
    const basic = Buffer.from(`user:${key}`).toString('base64');
    const res = await get('/v3/reference/tickers/AAPL', { authorization: `Basic ${basic}` });
    expect(res.status).toBe(401);
    expect(res.data.error).toBe(
      'Authorization: Basic is not accepted; send the API key as the apiKey (or api_key) query parameter, an X-API-Key header, or an Authorization: Bearer <key> header',
    );
    const bare = await get('/v3/reference/tickers/AAPL', { authorization: key });
    expect(bare.status).toBe(401);
    expect(bare.data.error).toMatch(/^This Authorization header is not accepted; send the API key as the apiKey/);
    expect(bare.data.error).not.toContain(key);
    // a usable key elsewhere still wins
    expect((await get(`/v3/reference/tickers/AAPL?apiKey=${key}`, { authorization: `Basic ${basic}` })).status).toBe(200);
    expect((await get('/v3/reference/tickers/AAPL', { authorization: `Bearer ${key}` })).status).toBe(200);
  });

  it('headers over the limit get 431 in the JSON error envelope', async () => {
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    expect(address).toContain(String(port));
    const raw = await new Promise<string>((resolve, reject) => {
      const s = connect(port, '127.0.0.1');
      let out = '';
      s.on('data', (d) => (out += d.toString()));
      s.on('end', () => resolve(out));
      s.on('close', () => resolve(out));
      s.on('error', reject);
      s.write(`GET /v3/reference/tickers/AAPL HTTP/1.1\r\nHost: localhost\r\nX-Api-Key: ${key}\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`);
    });
    const [head, body] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 431 /);
    expect(head).toMatch(/content-type: application\/json/i);
    const parsed = JSON.parse(body!);
    expect(parsed).toMatchObject({ ok: false, data: { status: 'ERROR', code: 'HEADERS_TOO_LARGE', error: 'The request line and headers are larger than 16384 bytes' } });
    expect(parsed.data.request_id).toMatch(/^[0-9a-f]{32}$/);
  });
});
