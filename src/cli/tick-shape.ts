import { AsyncResource } from 'node:async_hooks';

// Imported first by the CLI, before any other module runs. Every process.nextTick() builds an
// object { [async id]: n, [trigger id]: n, callback, args }, and V8's optimized code of Node's
// stream functions (onwrite, endReadable, resume, ...) builds it inline while the literal's
// feedback names one hidden class per step. Feedback holds hidden classes weakly, and a hidden
// class no live object uses is collected: a full collection at a moment when no tick object was
// alive (an idle turn of a start-up that allocates a lot) made V8 build them anew, the feedback saw
// a second class, turned megamorphic for good, and from then on every nextTick took V8's generic
// runtime path. It happened in most server processes measured, at random, never in a bare Node
// server: Node's stream functions then cost 5-7 % more CPU and a bare answer ran at two thirds of a
// bare server's rate. One object of that shape, kept for the life of the process, keeps those
// hidden classes alive.

/** The object of that shape (undefined on a Node whose tick objects carry no such ids). */
export const TICK_SHAPE: object | undefined = tickShaped();

function tickShaped(): object | undefined {
  const ids = Object.getOwnPropertySymbols(new AsyncResource('tickerbase.tick-shape'));
  const asyncId = ids.find((s) => s.description === 'async_id_symbol');
  const triggerId = ids.find((s) => s.description === 'trigger_async_id_symbol');
  if (asyncId === undefined || triggerId === undefined) return undefined; // another Node: nothing to do
  // as nextTick writes it: the two ids (computed keys) first, then callback and args; the ids are
  // numbers, as nextTick's are
  return { [asyncId]: 0.5, [triggerId]: 0.5, callback: () => {}, args: undefined };
}
