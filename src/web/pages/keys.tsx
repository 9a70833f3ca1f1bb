import { useEffect, useState } from 'preact/hooks';
import { call, type Key } from '../api';
import { Card, ConfirmButton, CopyButton, day, ErrorLine, message } from '../components';

// Keys: create one with a label (its secret is shown here once), list them by prefix, revoke.

export function KeysPage() {
  const [keys, setKeys] = useState<Key[]>([]);
  const [label, setLabel] = useState('');
  const [secret, setSecret] = useState<string>();
  const [error, setError] = useState<string>();

  const load = () => call<{ results: Key[] }>('GET', 'keys').then((r) => setKeys(r.results), (e) => setError(message(e)));
  useEffect(() => void load(), []);

  const create = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    try {
      const r = await call<{ key: string; results: Key }>('POST', 'keys', { label });
      setSecret(r.key);
      setLabel('');
      await load();
    } catch (err) {
      setError(message(err));
    }
  };

  const revoke = async (id: string) => {
    try {
      await call('DELETE', `keys/${encodeURIComponent(id)}`);
      await load();
    } catch (err) {
      setError(message(err));
    }
  };

  return (
    <>
      <Card title="Create a key">
        <form class="row" onSubmit={(e) => void create(e)}>
          <input placeholder="Label, e.g. laptop" maxLength={100} required data-testid="key-label" value={label} onInput={(e) => setLabel(e.currentTarget.value)} />
          <button type="submit" data-testid="key-create">
            Create key
          </button>
        </form>
        {secret && (
          <div class="secret">
            <p class="warning">Copy this key now: it is shown only once and cannot be shown again. Keep it secret.</p>
            <div class="row">
              <code data-testid="key-secret">{secret}</code>
              <CopyButton text={secret} />
              <button type="button" onClick={() => setSecret(undefined)}>
                Done
              </button>
            </div>
          </div>
        )}
        <ErrorLine error={error} />
      </Card>
      <Card title="Your keys">
        {keys.length === 0 ? (
          <p>No keys yet.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th>Label</th>
                <th>Key</th>
                <th>Plan</th>
                <th>Created</th>
                <th>Last used</th>
                <th>Requests today</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr data-testid="key-row" data-key-id={k.id} class={k.revoked_utc ? 'revoked' : ''}>
                  <td>{k.label ?? ''}</td>
                  <td>
                    <code>{k.prefix}…</code>
                  </td>
                  <td>{k.plan}</td>
                  <td>{day(k.created_utc)}</td>
                  <td>{day(k.last_used_day)}</td>
                  <td>{k.requests_today}</td>
                  <td>
                    {k.revoked_utc ? (
                      <span>revoked {day(k.revoked_utc)}</span>
                    ) : (
                      <ConfirmButton label="Revoke" danger testid="key-revoke" question={`Revoke the key ${k.prefix}… (${k.label ?? 'no label'})? Programs using it stop working at once.`} onConfirm={() => void revoke(k.id)} />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
    </>
  );
}
