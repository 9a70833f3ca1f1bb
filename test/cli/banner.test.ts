import { describe, expect, it } from 'vitest';
import { banner, linkBase, operatorNote, type BannerInput } from '../../src/cli/banner.js';
import { cliLine } from '../../src/cli/options.js';
import { exposureWarning } from '../../src/cli/serve.js';

// The banner `serve` prints once it listens: both prefixed base URLs and the root, and one line
// each for curl, the Python client and the JavaScript client, pointed at /upstream.

const input: BannerInput = {
  address: 'http://0.0.0.0:8080',
  details: ['sqlite', 'wrapped envelope at the root'],
  rootEnvelope: 'wrapped',
  keyNotice: 'The demo key (tb_AbCd…) is in data/demo-key.\n',
  key: 'tb_AbCd…',
};

describe('the serve banner', () => {
  it('lists /upstream, /envelope and the root with the form each answers in', () => {
    const text = banner(input);
    expect(text).toMatch(/^Tickerbase listening on http:\/\/0\.0\.0\.0:8080 \(sqlite, wrapped envelope at the root\)\n/);
    expect(text).toMatch(/^ {2}http:\/\/127\.0\.0\.1:8080\/upstream +upstream's bodies, for the official clients$/m);
    expect(text).toMatch(/^ {2}http:\/\/127\.0\.0\.1:8080\/envelope +\{"ok":true,"data":…\}$/m);
    expect(text).toMatch(/^ {2}http:\/\/127\.0\.0\.1:8080 +\{"ok":true,"data":…\} \(--envelope wrapped\)$/m);
    expect(banner({ ...input, rootEnvelope: 'native' })).toMatch(/^ {2}http:\/\/127\.0\.0\.1:8080 +upstream's bodies, for the official clients \(--envelope native\)$/m);
  });

  it('gives a curl, a Python and a JavaScript line on the /upstream base with the key placeholder', () => {
    const text = banner(input);
    expect(text).toContain(`curl -H "Authorization: Bearer tb_AbCd…" "http://127.0.0.1:8080/upstream/v2/aggs/ticker/AAPL/prev"`);
    expect(text).toContain(`from massive import RESTClient; client = RESTClient(api_key="tb_AbCd…", base="http://127.0.0.1:8080/upstream")`);
    expect(text).toContain(`import { restClient } from '@massive.com/client-js'; const rest = restClient('tb_AbCd…', 'http://127.0.0.1:8080/upstream');`);
  });

  it('uses the public URL when one is set, and the dashboard line only when the dashboard is on', () => {
    const text = banner({ ...input, publicUrl: 'https://md.example.com', dashboardSignup: 'invite' });
    expect(text).toContain('RESTClient(api_key="tb_AbCd…", base="https://md.example.com/upstream")');
    expect(text).toContain('Dashboard: https://md.example.com/dashboard/ (sign-up invite)\n');
    expect(banner(input)).not.toContain('Dashboard:');
  });

  it("prints the base the server's next_url links start with, so the Python client can follow them", () => {
    expect(linkBase('http://0.0.0.0:8080')).toBe('http://127.0.0.1:8080');
    expect(linkBase('http://[::]:8080')).toBe('http://127.0.0.1:8080');
    expect(linkBase('http://192.168.1.5:9000')).toBe('http://192.168.1.5:9000');
    expect(linkBase('http://[::1]:8080')).toBe('http://[::1]:8080');
    expect(linkBase('http://0.0.0.0:8080', 'https://md.example.com')).toBe('https://md.example.com');
  });

  it("prints the demo operator's password to a terminal only, else where its file is", () => {
    const operator = { email: 'operator@tickerbase.local', password: 'S3cret-password-1234', file: 'data/operator-password' };
    expect(operatorNote(operator, true)).toContain('operator@tickerbase.local / S3cret-password-1234');
    const piped = operatorNote(operator, false);
    expect(piped).not.toContain(operator.password);
    expect(piped).toContain('the password is in data/operator-password');
  });

  it('warns of open sign-up on any address but loopback', () => {
    expect(exposureWarning({ host: '0.0.0.0', dashboard: true, signup: 'open' })).toMatch(/open sign-up/);
    expect(exposureWarning({ host: '192.168.1.5', dashboard: true, signup: 'open' })).toMatch(/open sign-up/);
    for (const host of ['127.0.0.1', 'localhost', '::1', '127.1.2.3']) expect(exposureWarning({ host, dashboard: true, signup: 'open' })).toBeUndefined();
    expect(exposureWarning({ host: '0.0.0.0', dashboard: true, signup: 'invite' })).toBeUndefined();
    expect(exposureWarning({ host: '0.0.0.0', dashboard: false, signup: 'open' })).toBeUndefined();
  });

  it('prints CLI lines with the data directory, quoted for the shell, and never a database URL', () => {
    expect(cliLine({ dataDir: './data' }, 'keys list')).toBe('npx tickerbase keys list --data-dir ./data');
    expect(cliLine({ dataDir: "/tmp/my data's" }, 'keys list')).toBe(`npx tickerbase keys list --data-dir '/tmp/my data'\\''s'`);
    const url = 'postgres://u:pw@db/tb';
    expect(cliLine({ dataDir: './data', databaseUrl: url }, 'keys list', { DATABASE_URL: url })).toBe('npx tickerbase keys list');
    expect(cliLine({ dataDir: './data', databaseUrl: url }, 'keys list', {})).not.toContain('pw');
  });
});
