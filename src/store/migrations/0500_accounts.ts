import type { Migration } from './index.js';

// Dashboard accounts, their sessions and invitations; API keys gain an owning account (NULL for
// keys made by the CLI or the admin API) and a kind ('key', or 'explorer' for the short-lived
// tokens the dashboard's explorer calls the REST API with). Emails are unique by their lower-case
// form (email_lower); the spelling the person typed is kept in email. Session ids and invitation
// tokens are stored only as SHA-256 hashes.
const common = (text: string) => `
    CREATE TABLE accounts (
      id ${text} PRIMARY KEY,
      email ${text} NOT NULL,
      email_lower ${text} NOT NULL UNIQUE,
      password_hash TEXT NOT NULL,
      is_admin INTEGER NOT NULL,
      plan ${text} NOT NULL,
      created_utc ${text} NOT NULL,
      disabled_utc ${text},
      failed_logins INTEGER NOT NULL DEFAULT 0,
      locked_until_utc ${text}
    );
    CREATE TABLE sessions (
      id_hash ${text} PRIMARY KEY,
      account_id ${text} NOT NULL,
      created_utc ${text} NOT NULL,
      expires_utc ${text} NOT NULL
    );
    CREATE INDEX sessions_account ON sessions (account_id);
    CREATE TABLE invitations (
      token_hash ${text} PRIMARY KEY,
      email ${text},
      plan ${text} NOT NULL,
      created_by ${text} NOT NULL,
      created_utc ${text} NOT NULL,
      expires_utc ${text} NOT NULL,
      used_utc ${text}
    );
    ALTER TABLE api_keys ADD COLUMN account_id ${text};
    ALTER TABLE api_keys ADD COLUMN kind ${text} NOT NULL DEFAULT 'key';
    CREATE INDEX api_keys_account ON api_keys (account_id);
`;

export const accounts: Migration = {
  id: '0500_accounts',
  sqlite: common('TEXT'),
  postgres: common('TEXT COLLATE "C"'),
};
