// Identifiers of synthetic issuers: fresh ticker roots that avoid the reserved symbols, CIKs in a
// range no real filer uses, and well-formed FIGIs that no real demo instrument carries.

import { rootOf } from './facts/reserved-symbols.js';
import { BLOCKED_WORDS } from './facts/synthetic-words.js';
import { FIGI_ALPHABET, figiCheckDigit } from './figi.js';
import type { Rng } from './random.js';

export const LETTER_ARR: readonly string[] = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];

export class SymbolAllocator {
  private readonly taken = new Set<string>();

  constructor(private readonly reserved: ReadonlySet<string>) {}

  isFree(symbol: string): boolean {
    return !this.taken.has(symbol) && !this.reserved.has(symbol) && !this.reserved.has(rootOf(symbol));
  }

  claim(symbol: string): void {
    if (!this.isFree(symbol)) throw new Error(`symbol ${symbol} is not free`);
    this.taken.add(symbol);
  }

  /** A fresh 4-letter root derived from the name words when possible, random otherwise. */
  root(rng: Rng, words: readonly string[]): string {
    const w = words.map((x) => x.toUpperCase().replace(/[^A-Z]/g, '')).filter((x) => x.length > 0);
    const w1 = w[0] ?? '';
    const w2 = w[1] ?? '';
    const w3 = w[2] ?? '';
    const consonants = (s: string): string => (s.length === 0 ? '' : s.slice(0, 1) + s.slice(1).replace(/[AEIOU]/g, ''));
    const candidates = [
      w1.slice(0, 2) + w2.slice(0, 2),
      w1.slice(0, 3) + w2.slice(0, 1),
      w1.slice(0, 1) + w2.slice(0, 3),
      w1.slice(0, 1) + w2.slice(0, 1) + w3.slice(0, 2),
      consonants(w1).slice(0, 3) + w2.slice(0, 1),
      consonants(w1).slice(0, 4),
      w1.slice(0, 4),
      w1.slice(0, 2) + consonants(w2).slice(0, 2),
    ];
    for (const c of candidates) {
      if (c.length === 4 && /^[A-Z]{4}$/.test(c) && !BLOCKED_WORDS.has(c) && this.isFree(c)) return this.take(c);
    }
    const first = /^[A-Z]/.test(w1) ? w1.slice(0, 1) : rng.pick(LETTER_ARR);
    for (let i = 0; i < 40; i++) {
      const c = first + rng.pick(LETTER_ARR) + rng.pick(LETTER_ARR) + rng.pick(LETTER_ARR);
      if (!BLOCKED_WORDS.has(c) && this.isFree(c)) return this.take(c);
    }
    for (;;) {
      const c = rng.pick(LETTER_ARR) + rng.pick(LETTER_ARR) + rng.pick(LETTER_ARR) + rng.pick(LETTER_ARR);
      if (!BLOCKED_WORDS.has(c) && this.isFree(c)) return this.take(c);
    }
  }

  private take(symbol: string): string {
    this.taken.add(symbol);
    return symbol;
  }
}

const FIGI_CHARS: readonly string[] = [...FIGI_ALPHABET];

export class IdFactory {
  private cik = 9_000_000;
  private readonly figis = new Set<string>();

  constructor(private readonly rng: Rng, realFigis: Iterable<string>) {
    for (const f of realFigis) this.figis.add(f);
  }

  nextCik(): string {
    this.cik += this.rng.int(1, 97);
    return String(this.cik).padStart(10, '0');
  }

  figi(): string {
    for (;;) {
      let body = 'BBG00';
      for (let i = 0; i < 6; i++) body += this.rng.pick(FIGI_CHARS);
      const figi = body + figiCheckDigit(body);
      if (!this.figis.has(figi)) {
        this.figis.add(figi);
        return figi;
      }
    }
  }
}
