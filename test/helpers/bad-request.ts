import { expect } from 'vitest';
import type { TestApp } from './app.js';

/** A message equal to `expected` (a string) or matching it (a RegExp). */
export function expectMessage(actual: unknown, expected: string | RegExp): void {
  if (typeof expected === 'string') expect(actual).toBe(expected);
  else expect(actual).toMatch(expected);
}

/**
 * For an app in the wrapped envelope: a check that GET `url` answers 400 with the error code
 * (BAD_PARAMETER unless told) and the message. With `okFalse`, the body's `ok` must be false too.
 */
export function wrappedRejection(
  t: TestApp,
  opts: { okFalse?: boolean } = {},
): (url: string, message: string | RegExp, code?: string) => Promise<void> {
  return async (url, message, code = 'BAD_PARAMETER') => {
    const res = await t.get(url);
    expect(res.status, url).toBe(400);
    if (opts.okFalse) expect(res.body.ok).toBe(false);
    expect(res.body.data.code).toBe(code);
    expectMessage(res.body.data.message, message);
  };
}

/**
 * For an app in the native envelope: GET `url` answers 400 with status ERROR and an error that
 * is `message` (exact) or, with `contains`, includes it.
 */
export async function expectNativeRejection(t: TestApp, url: string, message: string, how: 'exact' | 'contains' = 'exact'): Promise<void> {
  const res = await t.get(url);
  expect(res.status).toBe(400);
  if (how === 'exact') {
    expect(res.body).toMatchObject({ status: 'ERROR', error: message });
  } else {
    expect(res.body.status).toBe('ERROR');
    expect(res.body.error).toContain(message);
  }
}
