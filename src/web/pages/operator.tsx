import { useEffect, useState } from 'preact/hooks';
import { call, type Account, type Key, type Plan, type UsageDay } from '../api';
import { Card, ConfirmButton, CopyButton, day, ErrorLine, message, PageHeader } from '../components';
import { bytes, count } from '../lib/format';
import { historyText, rateText, timeframeText } from '../lib/plan-text';
import { UsageChart } from './usage-chart';
import { UpstreamStatusCard } from './upstream-status';

// The operator's page (admin accounts only; the server refuses the others): accounts, invitations,
// every key, the plans, the server's status and the requests of every key.

/** What the status card calls the store's tables. */
const TABLE_NAMES: Record<string, string> = {
  tickers: 'Tickers',
  day_bars: 'Day bars',
  minute_bars: 'Minute bars',
  trades: 'Trades',
  quotes: 'Quotes',
  accounts: 'Accounts',
  api_keys: 'API keys (as listed under All keys)',
};

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
            <th>
              <span class="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {accounts.map((a) => (
            <tr data-testid="account-row">
              <td>{a.email}</td>
              <td>
                <select aria-label={`Plan of ${a.email}`} value={a.plan} onChange={(e) => void act(call('PATCH', `admin/accounts/${a.id}`, { plan: e.currentTarget.value }))}>
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
        <input type="email" aria-label="Email of the new account" placeholder="email" required value={form.email} onInput={(e) => setForm({ ...form, email: e.currentTarget.value })} />
        <input type="password" aria-label="Initial password" placeholder="initial password" required minLength={8} value={form.password} onInput={(e) => setForm({ ...form, password: e.currentTarget.value })} />
        <select aria-label="Plan of the new account" value={form.plan} onChange={(e) => setForm({ ...form, plan: e.currentTarget.value })}>
          <option value="">default plan</option>
          {plans.map((p) => (
            <option value={p.name}>{p.name}</option>
          ))}
        </select>
        <label>
          <input type="checkbox" checked={form.admin} onChange={(e) => setForm({ ...form, admin: e.currentTarget.checked })} /> operator
        </label>
        <button type="submit" class="primary">Create</button>
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
        <input type="email" aria-label="Email to invite (optional)" placeholder="email (optional)" value={invite.email} onInput={(e) => setInvite({ ...invite, email: e.currentTarget.value })} />
        <select aria-label="Plan of the invitation" value={invite.plan} onChange={(e) => setInvite({ ...invite, plan: e.currentTarget.value })}>
          <option value="">default plan</option>
          {plans.map((p) => (
            <option value={p.name}>{p.name}</option>
          ))}
        </select>
        <button type="submit" class="primary">Create invitation link</button>
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
            <th class="num">Today</th>
            <th>
              <span class="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((k) => (
            <tr data-testid="admin-key-row" class={k.revoked_utc ? 'revoked' : ''}>
              <td>{k.label ?? ''}</td>
              <td>
                <code>{k.prefix}…</code>
              </td>
              <td>{k.account_id ? (owners.get(k.account_id) ?? k.account_id) : 'CLI / admin API'}</td>
              <td>{k.plan}</td>
              <td>{day(k.created_utc)}</td>
              <td>{day(k.last_used_day)}</td>
              <td class="num">{count(k.requests_today)}</td>
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
              <td>{timeframeText(p)}</td>
              <td>{historyText(p)}</td>
              <td>{rateText(p)}</td>
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
        Version {s.version} · {s.ready.ready ? 'ready' : 'NOT ready'} · sign-up {s.signup_mode} · store {s.store.engine}, {bytes(s.store.size_bytes)}
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
            <tr data-testid={`rows-${k}`}>
              <td>{TABLE_NAMES[k] ?? k}</td>
              <td class="num">{count(v)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}

/** Requests of every key of the server: the accounts', the demo key's and the CLI's. */
function ServerUsage() {
  const [days, setDays] = useState<UsageDay[]>();
  const [error, setError] = useState<string>();
  useEffect(() => void call<{ days: UsageDay[] }>('GET', 'admin/usage').then((r) => setDays(r.days), (e) => setError(message(e))), []);
  return (
    <Card title="Requests to this server per day (UTC), every key" testid="server-usage">
      <ErrorLine error={error} />
      {days ? <UsageChart days={days} label="Requests to this server per day, last 30 days" /> : !error && <p class="loading">Loading…</p>}
    </Card>
  );
}

export function OperatorPage({ self }: { self: Account }) {
  const [plans, setPlans] = useState<Plan[]>([]);
  const [owners, setOwners] = useState(new Map<string, string>());
  useEffect(() => void call<{ results: Plan[] }>('GET', 'plans').then((r) => setPlans(r.results), () => setPlans([])), []);
  return (
    <>
      <PageHeader title="Operator" lead="The server, its accounts and keys, and the plans they are on." />
      <ServerStatus />
      <ServerUsage />
      <UpstreamStatusCard />
      <Accounts self={self} plans={plans} onLoad={(list) => setOwners(new Map(list.map((a) => [a.id, a.email])))} />
      <AllKeys owners={owners} />
      <Plans plans={plans} />
    </>
  );
}
