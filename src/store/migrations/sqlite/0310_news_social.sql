-- News articles and social posts keep their wire body as JSON text; what is filtered, sorted or
-- aggregated is copied into columns. One row per (record, ticker) in the *_tickers tables serves
-- the news ticker filter and the social rankings' mention counts; `sentiment` there is the
-- record's sentiment toward that ticker (news: insight mapped to 1/0/-1; posts: [-1, 1]).

CREATE TABLE news_articles (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  published_ms INTEGER NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX news_articles_published ON news_articles (published_ms, pk);
CREATE TABLE news_tickers (
  article_pk INTEGER NOT NULL REFERENCES news_articles (pk) ON DELETE CASCADE,
  ticker TEXT NOT NULL,
  published_ms INTEGER NOT NULL,
  sentiment INTEGER,
  PRIMARY KEY (article_pk, ticker)
);
CREATE INDEX news_tickers_ticker ON news_tickers (ticker, published_ms, article_pk);
CREATE INDEX news_tickers_published ON news_tickers (published_ms);
CREATE TABLE social_posts (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  created_ms INTEGER NOT NULL,
  body TEXT NOT NULL
);
CREATE TABLE social_post_tickers (
  post_pk INTEGER NOT NULL REFERENCES social_posts (pk) ON DELETE CASCADE,
  ticker TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  sentiment REAL,
  PRIMARY KEY (post_pk, ticker)
);
CREATE INDEX social_post_tickers_created ON social_post_tickers (created_ms);
