// The example response bodies of upstream's OpenAPI document (../shared/spec), for tests that
// load them as an operator would and expect the API to give them back.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED_DIR } from './conformance.js';

export const OPENAPI_FILE = join(SHARED_DIR, 'spec', 'upstream-openapi.json');

let doc: { paths: Record<string, { get?: { responses?: Record<string, { content?: Record<string, { example?: unknown }> }> } }> } | undefined;

/** The example 200 body of a GET path template, or undefined when the document (or the example) is absent. */
export function openapiExample(path: string): { results: Record<string, unknown>[] } | undefined {
  if (!existsSync(OPENAPI_FILE)) return undefined;
  doc ??= JSON.parse(readFileSync(OPENAPI_FILE, 'utf8'));
  return doc!.paths[path]?.get?.responses?.['200']?.content?.['application/json']?.example as { results: Record<string, unknown>[] } | undefined;
}
