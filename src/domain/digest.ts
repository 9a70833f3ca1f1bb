// Digests of short texts (API keys, ETag inputs), computed on the request path.
import * as crypto from 'node:crypto';
import { createHash } from 'node:crypto';

type Encoding = 'hex' | 'base64url';

// crypto.hash (Node 20.12 and later) is the one-shot form: a third of the cost of a Hash object's
// create, update and digest.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: Encoding) => string }).hash;

/** The `algorithm` digest of `text` (UTF-8) in `encoding`. */
export function digest(algorithm: 'sha1' | 'sha256', text: string, encoding: Encoding): string {
  return oneShot ? oneShot(algorithm, text, encoding) : createHash(algorithm).update(text, 'utf8').digest(encoding);
}
