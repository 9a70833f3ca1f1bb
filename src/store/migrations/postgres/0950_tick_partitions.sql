-- Trades, quotes and minute bars partitioned by UTC day (declarative RANGE partitioning on the
-- time key: trades.sip_timestamp and quotes.ts in ns, minute_bars.t in ms), one partition per
-- day named <table>_dYYYYMMDD. A page or an aggregate over one day then reads one partition's
-- indexes, and old days can be dropped or moved whole.
--
-- - No DEFAULT partition: a day's partition could not be created while a default held rows of
--   that day. Writers create the partitions of a batch's days first (tb_day_partition, called
--   by store/postgres/partitions.ts under a per-table advisory lock).
-- - A partitioned table's primary and unique keys must contain the partition key: trades and
--   quotes are keyed (pk, time) (pk alone stays unique: it comes from one sequence), and the
--   natural keys already contain the time, so ON CONFLICT upserts work unchanged.
-- - A partition is created bare (LIKE, with the parent's defaults) and then attached: ATTACH
--   takes SHARE UPDATE EXCLUSIVE on the parent, which blocks neither reads nor writes, whereas
--   CREATE TABLE ... PARTITION OF would take ACCESS EXCLUSIVE and stall every reader until the
--   creating transaction ends. Attaching builds the parent's indexes on the new partition.
-- - Existing rows move in this migration's transaction; the pk sequences carry over, so pk
--   values (and cursors holding them) stay valid.

-- The first and last days of the BIGINT range reach past it (their bounds would overflow): they
-- are bounded by MINVALUE and MAXVALUE instead.
CREATE FUNCTION tb_day_partition(parent TEXT, day BIGINT, units_per_day BIGINT) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  part TEXT := parent || '_d' || to_char(DATE '1970-01-01' + day::int, 'YYYYMMDD');
  lo NUMERIC := day::numeric * units_per_day;
  hi NUMERIC := (day + 1)::numeric * units_per_day;
BEGIN
  IF to_regclass(quote_ident(part)) IS NOT NULL THEN
    RETURN;
  END IF;
  EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS)', part, parent);
  EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%s) TO (%s)', parent, part,
                 CASE WHEN lo < -9223372036854775808 THEN 'MINVALUE' ELSE lo::text END,
                 CASE WHEN hi > 9223372036854775807 THEN 'MAXVALUE' ELSE hi::text END);
END $$;

-- Each table is rebuilt from its old self: same columns, types, collations, NOT NULLs and
-- defaults (LIKE), a primary key holding the time, the day partitions of the rows present, the
-- rows (same column order), then the old table dropped and its pk sequence handed over.
DO $$
DECLARE
  r RECORD;
  old TEXT;
  seq TEXT;
BEGIN
  FOR r IN SELECT * FROM (VALUES
    ('trades', 'sip_timestamp', 'pk, sip_timestamp', 86400000000000),
    ('quotes', 'ts', 'pk, ts', 86400000000000),
    ('minute_bars', 't', 'ticker, t', 86400000)
  ) v(tab, time_col, pkey, units) LOOP
    old := r.tab || '_unpartitioned';
    seq := r.tab || '_pk_seq';
    EXECUTE format('ALTER TABLE %I RENAME TO %I', r.tab, old);
    EXECUTE format('ALTER INDEX %I RENAME TO %I', r.tab || '_pkey', old || '_pkey');
    IF to_regclass(r.tab || '_key') IS NOT NULL THEN
      EXECUTE format('ALTER INDEX %I RENAME TO %I', r.tab || '_key', old || '_key');
    END IF;
    IF to_regclass(seq) IS NOT NULL THEN
      EXECUTE format('ALTER SEQUENCE %I OWNED BY NONE', seq);
    END IF;
    EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS, PRIMARY KEY (%s)) PARTITION BY RANGE (%I)',
                   r.tab, old, r.pkey, r.time_col);
    EXECUTE format('SELECT tb_day_partition(%L, d, %s) FROM (SELECT DISTINCT floor(%I / %s.0)::bigint AS d FROM %I) days',
                   r.tab, r.units, r.time_col, r.units, old);
    EXECUTE format('INSERT INTO %I SELECT * FROM %I', r.tab, old);
    EXECUTE format('DROP TABLE %I', old);
    IF to_regclass(seq) IS NOT NULL THEN
      EXECUTE format('ALTER SEQUENCE %I OWNED BY %I.pk', seq, r.tab);
    END IF;
  END LOOP;
END $$;

-- The natural keys, built per partition after the rows are in.
CREATE UNIQUE INDEX trades_key ON trades (ticker, sip_timestamp, sequence_number, exchange, id, price, size);
CREATE UNIQUE INDEX quotes_key ON quotes (ticker, ts, sequence_number);
