import { useEffect, useState } from 'preact/hooks';
import { call, type Key } from '../api';
import { Card, ConfirmButton, CopyButton, day, EmptyState, ErrorLine, message, PageHeader } from '../components';
import { count } from '../lib/format';

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
      <PageHeader title="API keys" lead="A key lets a program call this server's REST API and WebSocket feed on your plan. Its secret is shown once, when you create it." />
      <Card title="Create a key">
        <form class="row" onSubmit={(e) => void create(e)}>
          <label class="grow">
            <span class="sr-only">Label</span>
            <input placeholder="Label, e.g. laptop" maxLength={100} required data-testid="key-label" value={label} onInput={(e) => setLabel(e.currentTarget.value)} />
          </label>
          <button type="submit" class="primary" data-testid="key-create">
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
          <EmptyState title="No keys yet">
            Give your first key a label above (where it will be used, e.g. <em>laptop</em>) and press <strong>Create key</strong>; then try it with the examples on the <a href="#/quickstart">Quickstart</a> page.
          </EmptyState>
        ) : (
          <table>
            <thead>
              <tr>
                <th>Label</th>
                <th>Key</th>
                <th>Plan</th>
                <th>Created</th>
                <th>Last used</th>
                <th class="num">Requests today</th>
                <th>
                  <span class="sr-only">Actions</span>
                </th>
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
                  <td class="num">{count(k.requests_today)}</td>
                  <td>
                    {k.revoked_utc ? (
                      <span class="badge muted">revoked {day(k.revoked_utc)}</span>
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
