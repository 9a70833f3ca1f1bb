-- Keys are listed in the order they were made. created_utc has millisecond precision, so two keys
-- made in one millisecond tie on it; seq breaks the tie with the row's insertion number. The
-- trigger fills it so that inserts need not name it (PostgreSQL fills it from a sequence).
ALTER TABLE api_keys ADD COLUMN seq INTEGER;
UPDATE api_keys SET seq = rowid;
CREATE TRIGGER api_keys_seq AFTER INSERT ON api_keys FOR EACH ROW WHEN NEW.seq IS NULL
BEGIN
  UPDATE api_keys SET seq = NEW.rowid WHERE rowid = NEW.rowid;
END;
