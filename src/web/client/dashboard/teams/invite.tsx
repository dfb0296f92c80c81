import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { AuthFrame } from '../account/sign-in.js';
import { ApiError, api, ok } from '../api/client.js';
import { useSession } from '../session.js';
import { useAction } from '../ui/action.js';
import { Notice, useTitle } from '../ui/controls.js';
import { ROLE_WORDS, type Role } from './roles.js';

/**
 * The link of an invitation's mail, /app/invite?token=… (API.md §14). The token is taken out of
 * the address at once (kept in this tab's sessionStorage): it is then in no later Referer, no
 * history entry and no `next=` of the log-in, and it survives the log-in or sign-up that a person
 * without a session goes through first. Accepting needs a session of the invited address; the
 * server says when it is another one (403) or when the link is used, revoked or expired (400).
 */

const TOKEN_KEY = 'intake.invitation';
const TITLE = 'Join a workspace';

const keptToken = (): string | undefined => {
  try {
    return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
  } catch {
    return undefined;
  }
};
const keepToken = (token: string | undefined): void => {
  try {
    if (token) sessionStorage.setItem(TOKEN_KEY, token);
    else sessionStorage.removeItem(TOKEN_KEY);
  } catch {
    // without storage the token lives as long as the page: a log-in in between needs the link again
  }
};

/** The workspace just joined: accepting switches to it, which mounts this view afresh. */
let joinedNow: { name: string; role: Role } | undefined;

export function Invite() {
  useTitle(TITLE);
  const { user } = useSession();
  const { query, route } = useLocation();
  const [token, setToken] = useState(() => query.token ?? keptToken());
  const [joined] = useState(() => {
    const news = joinedNow;
    joinedNow = undefined;
    return news;
  });
  useEffect(() => {
    if (!query.token) return;
    keepToken(query.token);
    setToken(query.token);
    route('/app/invite', true);
  }, [query.token, route]);

  if (!user)
    return (
      <AuthFrame title={TITLE}>
        {token ? (
          <>
            <p>
              You are invited to a workspace on Intake. Log in, or sign up with the address the invitation was
              sent to; you come back here to accept it.
            </p>
            <p class="actions">
              <a class="button button--primary" href="/app/login?next=%2Fapp%2Finvite">
                Log in to accept
              </a>
              <a class="button" href="/app/signup?next=%2Fapp%2Finvite">
                Sign up to accept
              </a>
            </p>
          </>
        ) : (
          <NoToken />
        )}
      </AuthFrame>
    );
  return (
    <section class="view narrow">
      <h1>{TITLE}</h1>
      {joined ? (
        <>
          <Notice kind="success">
            You joined {joined.name} as {ROLE_WORDS[joined.role].toLowerCase()}: you are working in it now.
          </Notice>
          <p class="actions">
            <a class="button button--primary" href="/app">
              See its forms
            </a>
            <a class="button" href="/app/members">
              See its members
            </a>
          </p>
        </>
      ) : token ? (
        <Accept token={token} />
      ) : (
        <NoToken />
      )}
    </section>
  );
}

function NoToken() {
  return (
    <Notice kind="error">
      This page needs the link of an invitation mail: open that link again, whole. If it still does not work,
      ask whoever invited you to send a new invitation.
    </Notice>
  );
}

function Accept({ token }: { token: string }) {
  const { user, signedIn, reloadWorkspaces, switchWorkspace } = useSession();
  const { error, busy, run } = useAction();
  const accept = () =>
    run(async () => {
      const accepted = await ok(api.POST('/invitations/accept', { body: { token } })).catch(
        (caught: unknown) => {
          // a link that will never work is not kept (a refusal for the account is: the right one may log in)
          if (caught instanceof ApiError && caught.code === 'invalid_token') keepToken(undefined);
          throw caught;
        },
      );
      keepToken(undefined);
      joinedNow = { name: accepted.workspace.name, role: accepted.role };
      await reloadWorkspaces();
      switchWorkspace(accepted.workspace.id);
    });
  const logOut = async () => {
    await ok(api.POST('/auth/logout')).catch(() => undefined);
    // the token stays kept: the right account logs in and comes back here
    signedIn(undefined);
  };
  if (error?.code === 'invalid_token')
    return (
      <Notice kind="error" announce={error}>
        This invitation link is used already, revoked or expired (an invitation works once, for 7 days). Ask
        whoever invited you to send a new one.
      </Notice>
    );
  return (
    <>
      {error?.status === 403 ? (
        <Notice kind="error" announce={error}>
          This invitation was sent to another address than yours ({user?.email}). Log out, then open the link
          again and log in or sign up with the invited address.
        </Notice>
      ) : (
        error && (
          <Notice kind="error" announce={error}>
            {error.message}
          </Notice>
        )
      )}
      <p>
        You are signed in as <strong>{user?.email}</strong>. Accept the invitation to join its workspace with
        the role it gives you (the mail names both).
      </p>
      <p class="actions">
        <button class="button button--primary" type="button" disabled={busy} onClick={accept}>
          Accept the invitation
        </button>
        {error?.status === 403 && (
          <button class="button" type="button" onClick={logOut}>
            Log out
          </button>
        )}
      </p>
    </>
  );
}
