// FIGI structure: the alphabet (digits and consonants) and the check digit.

export const FIGI_ALPHABET = '0123456789BCDFGHJKLMNPQRSTVWXYZ';

function figiCharValue(ch: string): number {
  const code = ch.charCodeAt(0);
  if (code >= 48 && code <= 57) return code - 48;
  return code - 65 + 10; // A=10 ... Z=35
}

/** FIGI check digit (modified Luhn over the first 11 characters, as CUSIP). */
export function figiCheckDigit(first11: string): string {
  let sum = 0;
  for (let i = 0; i < 11; i++) {
    let v = figiCharValue(first11[i] as string);
    if (i % 2 === 1) v *= 2;
    sum += Math.floor(v / 10) + (v % 10);
  }
  return String((10 - (sum % 10)) % 10);
}

/** Structural FIGI validity: 12 chars, 'G' third, no vowels, valid check digit. */
export function isValidFigi(figi: string): boolean {
  if (!/^[B-DF-HJ-NP-TV-Z]{2}G[0-9B-DF-HJ-NP-TV-Z]{8}[0-9]$/.test(figi)) return false;
  return figiCheckDigit(figi.slice(0, 11)) === figi[11];
}
