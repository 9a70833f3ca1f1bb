-- Keys are listed in the order they were made. created_utc has millisecond precision, so two keys
-- made in one millisecond tie on it; seq breaks the tie with a number taken from a sequence at insert.
ALTER TABLE api_keys ADD COLUMN seq BIGSERIAL;
