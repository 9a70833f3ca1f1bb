import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { call, forgetExplorerToken, loadSession, type Session } from './api';
import { SignIn, SignUp } from './pages/auth';
import { KeysPage } from './pages/keys';
import { QuickstartPage } from './pages/quickstart';
import { UsagePage } from './pages/usage';
import { lazy } from './lazy';
import './styles.css';

// The single-page app: hash routes (#/keys, #/usage, …) so the server serves one index.html. The
// explorer and operator pages load on first visit (the chart library is the bulk of the bundle).

const ExplorerPage = lazy(() => import('./pages/explorer').then((m) => m.ExplorerPage));
const OperatorPage = lazy(() => import('./pages/operator').then((m) => m.OperatorPage));

function route(): { page: string; query: URLSearchParams } {
  const h = location.hash.replace(/^#\/?/, '');
  const [page = '', q = ''] = h.split('?');
  return { page, query: new URLSearchParams(q) };
}

function App() {
  const [session, setSession] = useState<Session | undefined>();
  const [where, setWhere] = useState(route());
  const refresh = () => loadSession().then(setSession, () => setSession(undefined));

  useEffect(() => {
    void refresh();
    const onHash = () => setWhere(route());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);

  if (!session) return <p class="loading">Loading…</p>;
  const account = session.account;

  if (!account) {
    const signUp = where.page === 'signup';
    return (
      <main class="auth">
        <h1>Tickerbase</h1>
        {signUp ? <SignUp session={session} invitation={where.query.get('invitation') ?? undefined} onDone={refresh} /> : <SignIn onDone={refresh} />}
        <p>
          {signUp ? <a href="#/login">I have an account: sign in</a> : session.signup_mode !== 'closed' ? <a href="#/signup">Create an account</a> : 'Accounts are created by the operator of this server.'}
        </p>
      </main>
    );
  }

  const pages: [string, string][] = [
    ['keys', 'Keys'],
    ['usage', 'Usage'],
    ['quickstart', 'Quickstart'],
    ['explorer', 'Explorer'],
  ];
  if (account.is_admin) pages.push(['operator', 'Operator']);
  const page = pages.some(([p]) => p === where.page) ? where.page : 'keys';

  const signOut = async () => {
    await call('POST', 'logout');
    forgetExplorerToken();
    location.hash = '#/login';
    await refresh();
  };

  return (
    <div class="layout">
      <header>
        <strong>Tickerbase</strong>
        <nav>
          {pages.map(([p, label]) => (
            <a href={`#/${p}`} class={p === page ? 'active' : ''} data-testid={`nav-${p}`}>
              {label}
            </a>
          ))}
        </nav>
        <span class="who">
          {account.email} · {account.plan}
          {account.is_admin ? ' · operator' : ''}
        </span>
        <button type="button" data-testid="logout" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <main>
        {page === 'keys' && <KeysPage />}
        {page === 'usage' && <UsagePage />}
        {page === 'quickstart' && <QuickstartPage session={session} />}
        {page === 'explorer' && <ExplorerPage />}
        {page === 'operator' && <OperatorPage self={account} />}
      </main>
    </div>
  );
}

render(<App />, document.getElementById('app')!);
