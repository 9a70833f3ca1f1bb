import { Type, type Static } from '@sinclair/typebox';

/** One value of SMA, EMA or RSI: the start (ms) of the bar that ends its window, and the value. */
export const LineValue = Type.Object({ timestamp: Type.Integer(), value: Type.Number() });

/** One MACD value: the MACD line, its signal line and their difference. */
export const MacdValue = Type.Object({ timestamp: Type.Integer(), value: Type.Number(), signal: Type.Number(), histogram: Type.Number() });

/** A value of any indicator (signal and histogram only for MACD). */
export type IndicatorValue = Static<typeof LineValue> & Partial<Static<typeof MacdValue>>;
