// Where upstream is and the operator's key: the flags `sync rest` and `serve --read-through` share.
import { Option } from 'commander';
import { DEFAULT_UPSTREAM_URL } from '../upstream/rest-client.js';

export function upstreamUrlOption(): Option {
  return new Option('--upstream-url <url>', "upstream's REST base URL").env('TICKERBASE_UPSTREAM_URL').default(DEFAULT_UPSTREAM_URL);
}

export function upstreamKeyOption(): Option {
  return new Option('--upstream-key <key>', 'your upstream API key (sent only to upstream, in the Authorization header)').env('TICKERBASE_UPSTREAM_KEY');
}
