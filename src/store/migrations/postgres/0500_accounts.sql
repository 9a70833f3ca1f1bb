-- Dashboard accounts, their sessions and invitations; API keys gain an owning account (NULL for
-- keys made by the CLI or the admin API) and a kind ('key', or 'explorer' for the short-lived
-- tokens the dashboard's explorer calls the REST API with). Emails are unique by their lower-case
-- form (email_lower); the spelling the person typed is kept in email. Session ids and invitation
-- tokens are stored only as SHA-256 hashes.
CREATE TABLE accounts (
  id TEXT COLLATE "C" PRIMARY KEY,
  email TEXT COLLATE "C" NOT NULL,
  email_lower TEXT COLLATE "C" NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  is_admin INTEGER NOT NULL,
  plan TEXT COLLATE "C" NOT NULL,
  created_utc TEXT COLLATE "C" NOT NULL,
  disabled_utc TEXT COLLATE "C",
  failed_logins INTEGER NOT NULL DEFAULT 0,
  locked_until_utc TEXT COLLATE "C"
);
CREATE TABLE sessions (
  id_hash TEXT COLLATE "C" PRIMARY KEY,
  account_id TEXT COLLATE "C" NOT NULL,
  created_utc TEXT COLLATE "C" NOT NULL,
  expires_utc TEXT COLLATE "C" NOT NULL
);
CREATE INDEX sessions_account ON sessions (account_id);
CREATE TABLE invitations (
  token_hash TEXT COLLATE "C" PRIMARY KEY,
  email TEXT COLLATE "C",
  plan TEXT COLLATE "C" NOT NULL,
  created_by TEXT COLLATE "C" NOT NULL,
  created_utc TEXT COLLATE "C" NOT NULL,
  expires_utc TEXT COLLATE "C" NOT NULL,
  used_utc TEXT COLLATE "C"
);
ALTER TABLE api_keys ADD COLUMN account_id TEXT COLLATE "C";
ALTER TABLE api_keys ADD COLUMN kind TEXT COLLATE "C" NOT NULL DEFAULT 'key';
CREATE INDEX api_keys_account ON api_keys (account_id);
