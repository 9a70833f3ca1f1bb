// One event of every channel per market with every field the wire contract lists (values made up).
import type { WireEvent } from '../../src/stream/json.js';

const T = 1749825067412;
const NS = 1749825067412345678n;

export const SAMPLES: Record<string, WireEvent[]> = {
  stocks: [
    { ev: 'T', sym: 'AAPL', x: 4, i: '71675577320245', z: 3, p: 196.4301, s: 300, c: [14, 41], t: T, q: 3681328, trfi: 202, trft: T - 3 },
    { ev: 'Q', sym: 'AAPL', bx: 12, bp: 196.42, bs: 3, ax: 11, ap: 196.44, as: 2, c: 1, i: [604], t: T + 5, q: 50385480, z: 3 },
    { ev: 'A', sym: 'TCEHY', v: 400, av: 1203311, op: 66.21, vw: 66.4825, o: 66.48, c: 66.49, h: 66.49, l: 66.48, a: 66.3517, z: 200, s: 1749825066000, e: 1749825067000, otc: true },
    { ev: 'AM', sym: 'AAPL', v: 402118, av: 18121877, op: 195.94, vw: 196.3871, o: 196.31, c: 196.41, h: 196.52, l: 196.22, a: 196.1042, z: 91, s: 1749825000000, e: 1749825060000 },
    { ev: 'LULD', T: 'GME', h: 25.81, l: 21.13, i: [21], z: 1, t: T, q: 290317 },
    { ev: 'NOI', T: 'AAPL', t: T, at: 1600, a: 'C', i: 44, x: 12, o: 152300, p: 1885400, b: 196.52 },
    { ev: 'FMV', fmv: 196.4318, sym: 'AAPL', t: NS },
    { ev: 'LV', val: 196.4318, sym: 'AAPL', t: NS },
  ],
  options: [
    { ev: 'T', sym: 'O:AAPL250620C00200000', x: 303, p: 1.87, s: 5, c: [209], t: T, q: 651921857 },
    { ev: 'Q', sym: 'O:AAPL250620C00200000', bx: 302, ax: 309, bp: 1.85, ap: 1.89, bs: 41, as: 27, t: T, q: 844090872 },
    { ev: 'AM', sym: 'O:AAPL250620C00200000', v: 212, av: 18232, op: 1.52, vw: 1.8623, o: 1.84, c: 1.87, h: 1.9, l: 1.83, a: 1.7342, z: 6, s: 1749825000000, e: 1749825060000 },
  ],
  forex: [
    { ev: 'C', p: 'EUR/USD', x: 48, a: 1.15472, b: 1.15468, t: T },
    { ev: 'CA', pair: 'EUR/USD', o: 1.15431, c: 1.15468, h: 1.15479, l: 1.15425, v: 214, s: 1749825000000, e: 1749825060000 },
    { ev: 'CAS', pair: 'EUR/USD', o: 1.15466, c: 1.15468, h: 1.1547, l: 1.15466, v: 6, s: 1749825066000, e: 1749825067000 },
  ],
  crypto: [
    { ev: 'XT', pair: 'BTC-USD', p: 105342.17, t: T, s: 0.00215, c: [2], i: '612837461', x: 1, r: T + 41 },
    { ev: 'XQ', pair: 'BTC-USD', bp: 105341.5, bs: 0.48, ap: 105342.9, as: 0.125, t: T, x: 1, r: T + 19 },
    { ev: 'XL2', pair: 'BTC-USD', t: T, r: T + 19, x: 1, b: [[105341.5, 0.48], [105340, 1.2]], a: [[105342.9, 0.125]] },
    { ev: 'XA', pair: 'BTC-USD', v: 12.48731265, vw: 105330.1842, z: 0, o: 105301, c: 105342.17, h: 105358.9, l: 105296.33, s: 1749825000000, e: 1749825060000 },
  ],
  indices: [
    { ev: 'AM', sym: 'I:SPX', op: 6000.56, o: 6021.88, c: 6025.37, h: 6026.02, l: 6021.54, s: 1749825000000, e: 1749825060000 },
    { ev: 'V', val: 6025.37, T: 'I:SPX', t: T },
  ],
  futures: [
    { ev: 'T', sym: 'ESU5', p: 6058.25, s: 2, t: T, q: 19872245 },
    { ev: 'Q', sym: 'ESU5', bp: 6058, bs: 14, bt: T - 1, ap: 6058.25, as: 9, at: T, t: T },
    { ev: 'AM', sym: 'ESU5', v: 4821, dv: 1460365312.5, o: 6056.5, c: 6058.25, h: 6059.75, l: 6055.25, n: 1934, s: 1749825000000, e: 1749825060000 },
  ],
};

/** The events as a client parses them (JSON numbers; ns values here fit a double's rounding the same way on both sides). */
export function asParsed(events: WireEvent[]): unknown[] {
  return events.map((e) => JSON.parse(JSON.stringify(e, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v))));
}
