import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { call, forgetExplorerToken, loadSession, type Session } from './api';
import { Brand } from './components';
import { SignIn, SignUp } from './pages/auth';
import { KeysPage } from './pages/keys';
import { OverviewPage } from './pages/overview';
import { QuickstartPage } from './pages/quickstart';
import { UsagePage } from './pages/usage';
import { lazy } from './lazy';
import './styles.css';

// The single-page app: hash routes (#/keys, #/usage, …) so the server serves one index.html. The
// explorer and operator pages load on first visit (the chart library is the bulk of the bundle).

const ExplorerPage = lazy(() => import('./pages/explorer').then((m) => m.ExplorerPage));
const OperatorPage = lazy(() => import('./pages/operator').then((m) => m.OperatorPage));

interface Where {
  page: string;
  query: URLSearchParams;
}

function route(): Where {
  const h = location.hash.replace(/^#\/?/, '');
  const [page = '', q = ''] = h.split('?');
  return { page, query: new URLSearchParams(q) };
}

/** Pages of the signed-out app: any other hash is a deep link, kept while the visitor signs in. */
const AUTH_PAGES = new Set(['', 'login', 'signup']);

function AuthScreen({ session, where, onDone }: { session: Session; where: Where; onDone: () => void }) {
  const signUp = where.page === 'signup';
  return (
    <div class="auth-screen">
      <main class="auth">
        <Brand />
        <p class="pitch">Upstream's market data API and WebSocket feed, served from your own data.</p>
        {signUp ? <SignUp session={session} invitation={where.query.get('invitation') ?? undefined} onDone={onDone} /> : <SignIn onDone={onDone} />}
        <p class="auth-switch">
          {signUp ? (
            <a href="#/login">I have an account: sign in</a>
          ) : session.signup_mode !== 'closed' ? (
            <>
              New here? <a href="#/signup">Create an account</a>
            </>
          ) : (
            'Accounts are created by the operator of this server.'
          )}
        </p>
      </main>
    </div>
  );
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
    const done = () => {
      // after signing in, a deep link (#/explorer…) opens where it pointed; otherwise the overview
      if (AUTH_PAGES.has(route().page)) location.hash = '#/overview';
      void refresh();
    };
    return <AuthScreen session={session} where={where} onDone={done} />;
  }

  const pages: [string, string][] = [
    ['overview', 'Overview'],
    ['keys', 'API keys'],
    ['usage', 'Usage'],
    ['quickstart', 'Quickstart'],
    ['explorer', 'Explorer'],
  ];
  if (account.is_admin) pages.push(['operator', 'Operator']);
  const page = pages.some(([p]) => p === where.page) ? where.page : 'overview';

  const signOut = async () => {
    await call('POST', 'logout');
    forgetExplorerToken();
    // the signed-out session first: a page still mounted would otherwise load with a dead session
    await refresh();
    location.hash = '#/login';
  };

  return (
    <div class="layout">
      <aside class="sidebar">
        <a href="#/overview" class="brand-link" aria-label="Tickerbase overview">
          <Brand />
        </a>
        <nav aria-label="Dashboard">
          {pages.map(([p, label]) => (
            <a href={`#/${p}`} class={p === page ? 'active' : ''} aria-current={p === page ? 'page' : undefined} data-testid={`nav-${p}`}>
              {label}
            </a>
          ))}
        </nav>
        <div class="account">
          <p class="who" title={account.email}>
            {account.email}
          </p>
          <p class="plan-badge">
            {account.plan} plan{account.is_admin ? ' · operator' : ''}
          </p>
          <button type="button" class="small" data-testid="logout" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </aside>
      <main class="content">
        {page === 'overview' && <OverviewPage session={session} />}
        {page === 'keys' && <KeysPage />}
        {page === 'usage' && <UsagePage />}
        {page === 'quickstart' && <QuickstartPage session={session} />}
        {page === 'explorer' && <ExplorerPage initialTicker={where.query.get('ticker') ?? undefined} />}
        {page === 'operator' && <OperatorPage self={account} />}
      </main>
    </div>
  );
}

render(<App />, document.getElementById('app')!);
