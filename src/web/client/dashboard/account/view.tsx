import { useState } from 'preact/hooks';
import { api, ok } from '../api/client.js';
import { useSession } from '../session.js';
import { may } from '../teams/roles.js';
import { useAction } from '../ui/action.js';
import { Notice, TextInput, useTitle } from '../ui/controls.js';
import { AccessList } from './access.js';

/**
 * The signed-in person's account: their address, a new password (API.md §2), and the API keys
 * and webhooks of every environment, which a new password does not stop, to revoke.
 */
export function Account() {
  useTitle('Account');
  const { user, role } = useSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [done, setDone] = useState(false);
  const { busy, error, run } = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    setDone(false);
    void run(async () => {
      await ok(api.POST('/auth/password', { body: { currentPassword: current, newPassword: next } }));
      setDone(true);
      setCurrent('');
      setNext('');
    });
  };
  const wrongCurrent = error?.status === 401 ? 'This is not your current password.' : undefined;
  return (
    <section class="view">
      <h1>Account</h1>
      <p>
        Signed in as <strong>{user?.email}</strong>.
      </p>
      <h2>Change password</h2>
      {done && (
        <Notice kind="success">
          Your password is changed. Your other devices were signed out. API keys and webhooks go on working:
          they are listed below.
        </Notice>
      )}
      {error && !wrongCurrent && !error.about('newPassword') && (
        <Notice kind="error" announce={error}>
          {error.message}
        </Notice>
      )}
      <form class="stack narrow" onSubmit={submit} noValidate>
        <TextInput
          id="current-password"
          label="Current password"
          type="password"
          autocomplete="current-password"
          required
          value={current}
          onInput={setCurrent}
          error={wrongCurrent ?? error?.about('currentPassword')}
        />
        <TextInput
          id="new-password"
          label="New password"
          type="password"
          autocomplete="new-password"
          hint="At least 8 characters."
          required
          value={next}
          onInput={setNext}
          error={error?.about('newPassword')}
        />
        <button class="button button--primary" type="submit" disabled={busy}>
          Change password
        </button>
      </form>
      {may(role, 'manageAccess') ? (
        <AccessList />
      ) : (
        <>
          <h2>API keys and webhooks</h2>
          <p class="hint">
            The API keys and webhooks of this workspace are listed here for its admins and owners.
          </p>
        </>
      )}
    </section>
  );
}
