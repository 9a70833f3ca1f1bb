import { useEffect, useState } from 'preact/hooks';
import { call, type Account, type Key, type Plan } from '../api';
import { Card, ConfirmButton, CopyButton, day, ErrorLine, message } from '../components';
import { UpstreamStatusCard } from './upstream-status';

// The operator's page (admin accounts only; the server refuses the others): accounts, invitations,
// every key, the plans and the server's status.

interface Status {
  version: string;
  ready: { ready: boolean; checks: Record<string, string> };
  store: { engine: string; size_bytes: number; rows: Record<string, number>; demo_loaded_utc?: string };
  signup_mode: string;
}

function Accounts({ self, plans, onLoad }: { self: Account; plans: Plan[]; onLoad: (accounts: Account[]) => void }) {
  const [accounts, setAccounts] = useState<Account[]>([]);
  const [form, setForm] = useState({ email: '', password: '', plan: '', admin: false });
  const [invite, setInvite] = useState({ email: '', plan: '' });
  const [link, setLink] = useState<string>();
  const [error, setError] = useState<string>();
  const load = () =>
    call<{ results: Account[] }>('GET', 'admin/accounts').then(
      (r) => {
        setAccounts(r.results);
        onLoad(r.results);
      },
      (e) => setError(message(e)),
    );
  useEffect(() => void load(), []);
  const act = (p: Promise<unknown>) =>
    p.then(
      () => {
        setError(undefined);
        return load();
      },
      (e) => setError(message(e)),
    );

  return (
    <Card title="Accounts">
      <table>
        <thead>
          <tr>
            <th>Email</th>
            <th>Plan</th>
            <th>Role</th>
            <th>Created</th>
            <th>State</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {accounts.map((a) => (
            <tr data-testid="account-row">
              <td>{a.email}</td>
              <td>
                <select value={a.plan} onChange={(e) => void act(call('PATCH', `admin/accounts/${a.id}`, { plan: e.currentTarget.value }))}>
                  {plans.map((p) => (
                    <option value={p.name}>{p.name}</option>
                  ))}
                </select>
              </td>
              <td>{a.is_admin ? 'operator' : 'user'}</td>
              <td>{day(a.created_utc)}</td>
              <td>{a.disabled_utc ? `disabled ${day(a.disabled_utc)}` : 'active'}</td>
              <td>
                {a.id !== self.id &&
                  (a.disabled_utc ? (
                    <button type="button" onClick={() => void act(call('PATCH', `admin/accounts/${a.id}`, { disabled: false }))}>
                      Enable
                    </button>
                  ) : (
                    <ConfirmButton label="Disable" danger question={`Disable ${a.email}? Their sessions end and their keys are revoked.`} onConfirm={() => void act(call('PATCH', `admin/accounts/${a.id}`, { disabled: true }))} />
                  ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Create an account</h3>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          void act(call('POST', 'admin/accounts', { email: form.email, password: form.password, ...(form.plan ? { plan: form.plan } : {}), admin: form.admin })).then(() => setForm({ email: '', password: '', plan: '', admin: false }));
        }}
      >
        <input type="email" placeholder="email" required value={form.email} onInput={(e) => setForm({ ...form, email: e.currentTarget.value })} />
        <input type="password" placeholder="initial password" required minLength={8} value={form.password} onInput={(e) => setForm({ ...form, password: e.currentTarget.value })} />
        <select value={form.plan} onChange={(e) => setForm({ ...form, plan: e.currentTarget.value })}>
          <option value="">default plan</option>
          {plans.map((p) => (
            <option value={p.name}>{p.name}</option>
          ))}
        </select>
        <label>
          <input type="checkbox" checked={form.admin} onChange={(e) => setForm({ ...form, admin: e.currentTarget.checked })} /> operator
        </label>
        <button type="submit">Create</button>
      </form>
      <h3>Invite</h3>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          call<{ url: string }>('POST', 'admin/invitations', { ...(invite.email ? { email: invite.email } : {}), ...(invite.plan ? { plan: invite.plan } : {}) }).then(
            (r) => setLink(r.url),
            (err) => setError(message(err)),
          );
        }}
      >
        <input type="email" placeholder="email (optional)" value={invite.email} onInput={(e) => setInvite({ ...invite, email: e.currentTarget.value })} />
        <select value={invite.plan} onChange={(e) => setInvite({ ...invite, plan: e.currentTarget.value })}>
          <option value="">default plan</option>
          {plans.map((p) => (
            <option value={p.name}>{p.name}</option>
          ))}
        </select>
        <button type="submit">Create invitation link</button>
      </form>
      {link && (
        <p class="secret">
          One-time link, valid 7 days, shown once: <code>{link}</code> <CopyButton text={link} />
        </p>
      )}
      <ErrorLine error={error} />
    </Card>
  );
}

function AllKeys({ owners }: { owners: Map<string, string> }) {
  const [keys, setKeys] = useState<Key[]>([]);
  const [error, setError] = useState<string>();
  const load = () => call<{ results: Key[] }>('GET', 'admin/keys').then((r) => setKeys(r.results), (e) => setError(message(e)));
  useEffect(() => void load(), []);
  return (
    <Card title="All keys">
      <table>
        <thead>
          <tr>
            <th>Label</th>
            <th>Key</th>
            <th>Owner</th>
            <th>Plan</th>
            <th>Created</th>
            <th>Last used</th>
            <th>Today</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {keys.map((k) => (
            <tr class={k.revoked_utc ? 'revoked' : ''}>
              <td>{k.label ?? ''}</td>
              <td>
                <code>{k.prefix}…</code>
              </td>
              <td>{k.account_id ? (owners.get(k.account_id) ?? k.account_id) : 'CLI / admin API'}</td>
              <td>{k.plan}</td>
              <td>{day(k.created_utc)}</td>
              <td>{day(k.last_used_day)}</td>
              <td>{k.requests_today}</td>
              <td>
                {k.revoked_utc ? (
                  'revoked'
                ) : (
                  <ConfirmButton label="Revoke" danger question={`Revoke ${k.prefix}…?`} onConfirm={() => void call('DELETE', `admin/keys/${k.id}`).then(load, (e) => setError(message(e)))} />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ErrorLine error={error} />
    </Card>
  );
}

function Plans({ plans }: { plans: Plan[] }) {
  return (
    <Card title="Plans">
      <table>
        <thead>
          <tr>
            <th>Plan</th>
            <th>Data sets</th>
            <th>Timeframe</th>
            <th>History</th>
            <th>Rate limit</th>
          </tr>
        </thead>
        <tbody>
          {plans.map((p) => (
            <tr>
              <td>{p.name}</td>
              <td>{p.entitlements.filter((e) => Object.values(e.markets).some(Boolean)).map((e) => e.dataset).join(', ')}</td>
              <td>{p.timeframe === 'delayed' ? `delayed ${p.delay_minutes} min` : p.timeframe}</td>
              <td>{p.history_years === null ? 'unlimited' : `${p.history_years} y`}</td>
              <td>{p.rate_limit ? `${p.rate_limit.requests} / ${p.rate_limit.per_seconds} s` : 'none'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}

function ServerStatus() {
  const [s, setS] = useState<Status>();
  const [error, setError] = useState<string>();
  useEffect(() => void call<Status>('GET', 'admin/status').then(setS, (e) => setError(message(e))), []);
  if (error) return <ErrorLine error={error} />;
  if (!s) return null;
  return (
    <Card title="Server status">
      <p data-testid="server-status">
        Version {s.version} · {s.ready.ready ? 'ready' : 'NOT ready'} · sign-up {s.signup_mode} · store {s.store.engine}, {(s.store.size_bytes / 1_048_576).toFixed(1)} MB
        {s.store.demo_loaded_utc ? ` · demo data loaded ${day(s.store.demo_loaded_utc)}` : ''}
      </p>
      <table>
        <tbody>
          {Object.entries(s.ready.checks).map(([k, v]) => (
            <tr>
              <td>{k}</td>
              <td>{v}</td>
            </tr>
          ))}
          {Object.entries(s.store.rows).map(([k, v]) => (
            <tr>
              <td>{k} rows</td>
              <td>{v.toLocaleString()}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}

export function OperatorPage({ self }: { self: Account }) {
  const [plans, setPlans] = useState<Plan[]>([]);
  const [owners, setOwners] = useState(new Map<string, string>());
  useEffect(() => void call<{ results: Plan[] }>('GET', 'plans').then((r) => setPlans(r.results), () => setPlans([])), []);
  return (
    <>
      <ServerStatus />
      <UpstreamStatusCard />
      <Accounts self={self} plans={plans} onLoad={(list) => setOwners(new Map(list.map((a) => [a.id, a.email])))} />
      <AllKeys owners={owners} />
      <Plans plans={plans} />
    </>
  );
}
