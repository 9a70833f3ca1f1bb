-- Splits are unique per ticker and execution date: two ratios on one day would
-- compound in the aggregates' adjustment. Keeps the latest row of any existing duplicates.

DELETE FROM splits WHERE pk NOT IN (SELECT MAX(pk) FROM splits GROUP BY ticker, execution_date);
DROP INDEX splits_ticker;
CREATE UNIQUE INDEX splits_ticker_day ON splits (ticker, execution_date);
