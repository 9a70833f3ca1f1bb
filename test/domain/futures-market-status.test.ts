import { describe, expect, it } from 'vitest';
import { globexStateAt } from '../../src/domain/futures-market-status.js';

const at = (iso: string) => {
  const s = globexStateAt(Date.parse(iso));
  return `${s.event} ${s.sessionEndDate} ${new Date(s.at).toISOString()}`;
};

describe('where the Globex calendar stands at an instant', () => {
  it('counts an event from its own instant on', () => {
    expect(at('2026-11-23T22:59:59.999Z')).toBe('pre_open 2026-11-24 2026-11-23T22:00:00.000Z');
    expect(at('2026-11-23T23:00:00Z')).toBe('open 2026-11-24 2026-11-23T23:00:00.000Z');
  });

  it('gives the next pre-open, not the close, when a weekday session ends at 17:00 ET', () => {
    expect(at('2026-11-23T22:00:00Z')).toBe('pre_open 2026-11-24 2026-11-23T22:00:00.000Z');
    expect(at('2026-11-20T22:00:00Z')).toBe('close 2026-11-20 2026-11-20T22:00:00.000Z'); // a Friday
  });

  it('reaches back over a long closure: New Year\'s Day on a Friday, then the weekend', () => {
    // 2027-01-01 is a Friday: Thursday 31 December closes at 17:00 ET and nothing trades until Sunday evening
    expect(at('2027-01-03T12:00:00Z')).toBe('close 2026-12-31 2026-12-31T22:00:00.000Z');
    expect(at('2027-01-03T22:00:00Z')).toBe('pre_open 2027-01-04 2027-01-03T22:00:00.000Z');
  });
});
