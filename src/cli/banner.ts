import type { EnvelopeMode } from '../server/context.js';
import { API_BASES, CLIENT_BASE_PATH } from '../server/api-bases.js';

// What `serve` prints once it listens: where it listens, the REST API's base URLs in each form,
// and one ready-to-paste line each for curl and the official Python and JavaScript clients.

export interface BannerInput {
  /** What the server answered to listen(), e.g. http://0.0.0.0:8080 or http://[::]:8080. */
  address: string;
  /** --public-url, without a trailing slash. */
  publicUrl?: string;
  /** Facts shown after the address: engine, envelope, workers, Redis. */
  details: string[];
  rootEnvelope: EnvelopeMode;
  /** What to say about keys (where the demo key is, or the key just created), ending in a newline. */
  keyNotice: string;
  /** The key to put in the lines: the demo key's secret on the start that created it, else a placeholder. */
  key: string;
  /** The dashboard's sign-up mode, when the dashboard is on. */
  dashboardSignup?: string;
  /** The demo operator's credentials, on the start that created them (ends in a newline). */
  operatorNote?: string;
}

const WILDCARD = new Set(['0.0.0.0', '[::]', '::']);

/**
 * The absolute base of links in the server's answers as a local client sees them: --public-url,
 * else the listening address, with 127.0.0.1 for a wildcard one. The server writes next_url from
 * the address a connection reached (never the Host header), and the Python client follows a
 * next_url only when it starts with its own base, so the base printed is that same address:
 * "localhost" would not match it.
 */
export function linkBase(address: string, publicUrl?: string): string {
  if (publicUrl) return publicUrl;
  const url = new URL(address);
  if (WILDCARD.has(url.hostname)) url.hostname = '127.0.0.1';
  return url.origin;
}

const FORM_TEXT: Record<EnvelopeMode, string> = {
  native: "upstream's bodies, for the official clients",
  wrapped: '{"ok":true,"data":…}',
};

export function banner(b: BannerInput): string {
  const base = linkBase(b.address, b.publicUrl);
  const client = `${base}${CLIENT_BASE_PATH}`;
  const width = Math.max(base.length, ...API_BASES.map((a) => base.length + a.path.length)) + 2;
  const bases = [
    ...API_BASES.map((a) => `  ${`${base}${a.path}`.padEnd(width)}${FORM_TEXT[a.envelope]}`),
    `  ${base.padEnd(width)}${FORM_TEXT[b.rootEnvelope]} (--envelope ${b.rootEnvelope})`,
  ];
  const tryLines = [
    `  curl:    curl -H "Authorization: Bearer ${b.key}" "${client}/v2/aggs/ticker/AAPL/prev"`,
    `  Python:  from massive import RESTClient; client = RESTClient(api_key="${b.key}", base="${client}"); print(client.get_previous_close_agg("AAPL"))`,
    `  Node.js: import { restClient } from '@massive.com/client-js'; const rest = restClient('${b.key}', '${client}'); console.log(await rest.getPreviousStocksAggregates({ stocksTicker: 'AAPL' }));`,
  ];
  let text = `Tickerbase listening on ${b.address} (${b.details.filter(Boolean).join(', ')})\nREST API base URLs:\n${bases.join('\n')}\n${b.keyNotice}Try it:\n${tryLines.join('\n')}\n`;
  if (b.dashboardSignup !== undefined) text += `Dashboard: ${base}/dashboard/ (sign-up ${b.dashboardSignup})\n${b.operatorNote ?? ''}`;
  return text;
}

/**
 * What the banner says of the demo operator created on this start. The password goes to a
 * terminal only: where the output is a pipe or a file (a service manager's log, `> serve.log`)
 * the line says which owner-only file holds it instead.
 */
export function operatorNote(operator: { email: string; password: string; file: string }, terminal: boolean): string {
  if (terminal) return `Dashboard operator (shown once, only now; also saved, owner-only, in ${operator.file}): ${operator.email} / ${operator.password}\n`;
  return `Dashboard operator: ${operator.email}; the password is in ${operator.file} (owner-only; printed only when the output is a terminal)\n`;
}
