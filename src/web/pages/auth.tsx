import { useState } from 'preact/hooks';
import { call, type Session } from '../api';
import { ErrorLine, message } from '../components';

// Sign-in and sign-up forms. The server sets the session cookie; the page only reloads the session
// (and the app decides where to go: the deep link the visitor came with, or the overview).

export function SignIn({ onDone }: { onDone: () => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await call('POST', 'login', { email, password });
      onDone();
    } catch (err) {
      setError(message(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} class="card auth-card">
      <h1>Sign in</h1>
      <label>
        Email
        <input type="email" autocomplete="username" required data-testid="login-email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
      </label>
      <label>
        Password
        <input type="password" autocomplete="current-password" required data-testid="login-password" value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
      </label>
      <button type="submit" class="primary wide" data-testid="login-submit" disabled={busy}>
        Sign in
      </button>
      <ErrorLine error={error} />
    </form>
  );
}

export function SignUp({ session, invitation, onDone }: { session: Session; invitation?: string; onDone: () => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await call('POST', 'signup', { email, password, ...(invitation ? { invitation } : {}) });
      onDone();
    } catch (err) {
      setError(message(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} class="card auth-card">
      <h1>Create an account</h1>
      {session.signup_mode === 'invite' && !invitation && <p class="hint">This server creates accounts by invitation: open the link the operator sent you.</p>}
      <label>
        Email
        <input type="email" autocomplete="username" required data-testid="signup-email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
      </label>
      <label>
        Password (at least 8 characters)
        <input type="password" autocomplete="new-password" required minLength={8} data-testid="signup-password" value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
      </label>
      <button type="submit" class="primary wide" data-testid="signup-submit" disabled={busy}>
        Create account
      </button>
      <ErrorLine error={error} />
    </form>
  );
}
