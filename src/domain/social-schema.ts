import { Type, type Static } from '@sinclair/typebox';

// Wire shape of one ticker of the social rankings (a product-specific endpoint, no upstream twin).

export const Ranking = Type.Object({
  rank: Type.Integer({ description: '1-based position in this ordering' }),
  ticker: Type.String(),
  mentions: Type.Integer({ description: 'news_mentions + post_mentions in the window' }),
  news_mentions: Type.Integer({ description: 'articles listing the ticker in `tickers`' }),
  post_mentions: Type.Integer({ description: 'social posts listing the ticker in `tickers`' }),
  sentiment: Type.Optional(Type.Number({ description: 'mean sentiment in [-1, 1] of the mentions that carry one (news insights: positive 1, neutral 0, negative -1; posts: their `sentiment`); absent when none does' })),
  sentiment_mentions: Type.Integer({ description: 'how many mentions carry a sentiment' }),
  previous_mentions: Type.Integer({ description: 'mentions in the window of the same length just before' }),
  mentions_change: Type.Integer({ description: 'mentions − previous_mentions' }),
  mentions_change_percent: Type.Optional(Type.Number({ description: '100 × mentions_change / previous_mentions; absent when previous_mentions is 0' })),
});
export type Ranking = Static<typeof Ranking>;

