// Authentication of feed connections with the REST API keys, and what the key's plan allows:
// the market, the feed (a delayed plan reads /delayed/<market>), each channel's data set, and
// how many connections the key may hold.
import type { KeyAuthenticator } from '../server/auth.js';
import type { Plan, PlanCatalog } from '../server/plans.js';
import { CHANNEL_DATASET, DELAYED_CHANNELS, planMarketOf, type FeedPath } from './markets.js';
import type { AuthOutcome } from './session.js';
import { MESSAGES } from './status.js';
import type { Topic } from './topics.js';

export interface StreamAuthOptions {
  auth: KeyAuthenticator;
  plans: PlanCatalog;
  /** Connections per key, feed and market for plans that set no `stream_connections` (default 1). */
  connectionLimit: number;
}

/** The plan's connection limit; 0 means the plan has no feed access. */
function connectionLimitOf(plan: Plan, fallback: number): number {
  return plan.stream_connections ?? fallback;
}

export async function authenticateFeedKey(key: string, feed: FeedPath, opts: StreamAuthOptions): Promise<AuthOutcome> {
  let plan: Plan | undefined;
  let keyId: string;
  try {
    const record = await opts.auth.authenticate(key);
    keyId = record.id;
    plan = opts.plans.get(record.plan);
  } catch {
    return { ok: false, message: MESSAGES.authFailed };
  }
  if (!plan) return { ok: false, message: MESSAGES.authFailed };
  const limit = connectionLimitOf(plan, opts.connectionLimit);
  if (limit <= 0) return { ok: false, message: "Your plan doesn't include websocket access. Visit https://polygon.io/pricing to upgrade." };
  const market = planMarketOf(feed.market);
  if (plan.markets !== '*' && !plan.markets.includes(market)) {
    return { ok: false, message: `Your plan (${plan.name}) doesn't include the ${feed.market} market.` };
  }
  if (feed.feed === 'realtime' && plan.timeframe !== 'realtime') {
    const delayedPath = `/delayed${feed.path}`;
    return { ok: false, message: `Your plan (${plan.name}) doesn't include real-time data: connect to ${delayedPath} for the delayed feed.` };
  }
  const p = plan;
  return {
    ok: true,
    identity: {
      keyId,
      planName: p.name,
      connectionLimit: limit,
      refuse(topic: Topic): string | undefined {
        if (feed.feed === 'delayed' && !DELAYED_CHANNELS[feed.market].has(topic.ev)) {
          return `not available on the delayed feed: ${topic.text}`;
        }
        const dataset = CHANNEL_DATASET[topic.ev];
        if (dataset && !opts.plans.entitled(p, dataset, market)) {
          return `not authorized: ${topic.text} (plan ${p.name} does not include ${dataset})`;
        }
        return undefined;
      },
    },
  };
}
