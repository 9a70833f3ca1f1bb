import { describe, expect, it } from 'vitest';
import { banner, linkBase, type BannerInput } from '../../src/cli/banner.js';

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
});
