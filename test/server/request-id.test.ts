// Request ids: each response's x-request-id and body request_id, 32 lowercase hex digits as
// upstream's, never repeated (ids are cut from a pool of random bytes refilled every 256 ids).
import { describe, expect, it } from 'vitest';
import { requestId } from '../../src/server/request-id.js';

describe('requestId', () => {
  it('gives 32 hex digits, different each time, across refills of its pool', () => {
    const ids = Array.from({ length: 2000 }, () => requestId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
