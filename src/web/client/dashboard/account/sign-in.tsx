import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { type ApiError, api, ok, type SignedOutReason } from '../api/client.js';
import { useSession } from '../session.js';
import { useAction } from '../ui/action.js';
import { Notice, TextInput, useTitle } from '../ui/controls.js';

/**
 * Signing up, logging in, and a forgotten password (API.md §2, §11.3): fields named "Email"
 * and "Password", buttons "Sign up" and "Log in"; the reset link of the mail opens
 * /app/reset?token=…. Every refusal is shown by what caused it.
 */

export function AuthFrame({ title, children }: { title: string; children: ComponentChildren }) {
  useTitle(title);
  return (
    <main class="auth" id="main">
      <div class="auth__card">
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}

/** What Intake is, for someone who has just arrived. */
const INTAKE_IN_ONE_LINE =
  'Intake collects the answers to your forms on your own server: build a form, share its link, read the responses.';

/** Where to go after log-in: a path of the dashboard only (never another site). */
const nextPath = (next: string | undefined): string =>
  next?.startsWith('/app') && !next.startsWith('//') ? next : '/app';

/**
 * What went wrong, above the form: the problem itself, or, when it names fields, a pointer to
 * them (each field says its own error): read out and focused either way.
 */
const general = (error: ApiError | undefined, fields: string[]) => {
  if (!error) return null;
  const named = fields.some((field) => error.about(field));
  return (
    <Notice kind="error" announce={error}>
      {named ? 'Please correct what is marked below.' : error.message}
    </Notice>
  );
};

/** Why the app itself signed the person out, in words for the log-in page. */
const SIGNED_OUT_WORDS: Record<SignedOutReason, string> = {
  'another-user':
    'This browser signed in to another account in another tab, so this tab changed nothing more. Log in to go on.',
  ended: 'Your session has ended (a log-out or a new password elsewhere). Log in to go on.',
};

function Credentials({ mode }: { mode: 'login' | 'signup' }) {
  const { signedIn, signedOutWhy } = useSession();
  const { route, query } = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { error, busy, run } = useAction();
  const login = mode === 'login';
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const body = { email, password, cookie: true };
      const grant = login
        ? await ok(api.POST('/auth/login', { body }))
        : await ok(api.POST('/auth/signup', { body }));
      signedIn(grant.user, 'csrfToken' in grant ? grant.csrfToken : undefined);
      route(nextPath(query.next));
    });
  };
  return (
    <AuthFrame title={login ? 'Log in' : 'Sign up'}>
      <p class="auth__intro">{INTAKE_IN_ONE_LINE}</p>
      {/* a newcomer has no account yet: the way to make one comes first, not under the form */}
      {login ? (
        <p class="auth__other">
          New to Intake?{' '}
          <a class="button button--small" href="/app/signup">
            Sign up
          </a>
        </p>
      ) : (
        <p class="auth__other">
          Have an account? <a href="/app/login">Log in</a>
        </p>
      )}
      {query.reset === 'done' && <Notice kind="success">Your new password is set: log in with it.</Notice>}
      {login && signedOutWhy && <Notice kind="info">{SIGNED_OUT_WORDS[signedOutWhy]}</Notice>}
      {general(error, ['email', 'password'])}
      <form class="stack" onSubmit={submit} noValidate>
        <TextInput
          id="email"
          label="Email"
          type="email"
          autocomplete="email"
          required
          value={email}
          onInput={setEmail}
          error={error?.about('email')}
        />
        <TextInput
          id="password"
          label="Password"
          type="password"
          autocomplete={login ? 'current-password' : 'new-password'}
          hint={login ? undefined : 'At least 8 characters.'}
          required
          value={password}
          onInput={setPassword}
          error={error?.about('password')}
        />
        <button class="button button--primary" type="submit" disabled={busy}>
          {login ? 'Log in' : 'Sign up'}
        </button>
      </form>
      {login && (
        <p>
          <a href="/app/forgot">Forgot password?</a>
        </p>
      )}
    </AuthFrame>
  );
}

export const Login = () => <Credentials mode="login" />;
export const Signup = () => <Credentials mode="signup" />;

export function Forgot() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string>();
  const { error, busy, run } = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      await ok(api.POST('/auth/password-reset', { body: { email } }));
      setSent(email);
    });
  };
  return (
    <AuthFrame title="Forgot password">
      {sent ? (
        <Notice kind="success">
          If an account uses {sent}, a link to set a new password is on its way there. It works once, for one
          hour.
        </Notice>
      ) : (
        <p>We will mail you a link to set a new password.</p>
      )}
      {general(error, ['email'])}
      <form class="stack" onSubmit={submit} noValidate>
        <TextInput
          id="email"
          label="Email"
          type="email"
          autocomplete="email"
          required
          value={email}
          onInput={setEmail}
          error={error?.about('email')}
        />
        <button class="button button--primary" type="submit" disabled={busy}>
          Send the link
        </button>
      </form>
      <p>
        <a href="/app/login">Back to log in</a>
      </p>
    </AuthFrame>
  );
}

export function Reset() {
  const { route, query } = useLocation();
  const { signedIn } = useSession();
  const [password, setPassword] = useState('');
  const { error, busy, run } = useAction();
  const token = query.token ?? '';
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      await ok(api.POST('/auth/password-reset/confirm', { body: { token, password } }));
      // every session ends with a reset, this browser's too
      signedIn(undefined);
      route('/app/login?reset=done');
    });
  };
  return (
    <AuthFrame title="Set a new password">
      {!token && <Notice kind="error">This link has no token: open the link of the mail again.</Notice>}
      {error?.code === 'invalid_token' ? (
        <Notice kind="error">
          This link is used already or expired. <a href="/app/forgot">Ask for a new one</a>.
        </Notice>
      ) : (
        general(error, ['password'])
      )}
      <form class="stack" onSubmit={submit} noValidate>
        <TextInput
          id="password"
          label="New password"
          type="password"
          autocomplete="new-password"
          hint="At least 8 characters. Every device signed in to your account will be signed out."
          required
          value={password}
          onInput={setPassword}
          error={error?.about('password')}
        />
        <button class="button button--primary" type="submit" disabled={busy || !token}>
          Set password
        </button>
      </form>
    </AuthFrame>
  );
}
