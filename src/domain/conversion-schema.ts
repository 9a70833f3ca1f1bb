import { Type, type Static } from '@sinclair/typebox';
import { ForexLast } from './tick-schemas.js';

/** Wire shape of a currency conversion (the body adds `status` and `request_id` before these keys). */
export const Conversion = Type.Object({
  from: Type.String(),
  to: Type.String(),
  initialAmount: Type.Number(),
  converted: Type.Number(),
  symbol: Type.String(),
  last: ForexLast,
});
export type Conversion = Static<typeof Conversion>;
