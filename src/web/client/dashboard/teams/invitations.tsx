import { useState } from 'preact/hooks';
import { api, ok } from '../api/client.js';
import { useSession } from '../session.js';
import { useAction } from '../ui/action.js';
import { ConfirmButton } from '../ui/confirm.js';
import { Notice, TextInput } from '../ui/controls.js';
import { when } from '../ui/format.js';
import { useResource } from '../ui/resource.js';
import { type Invitation, refusalWords } from './model.js';
import { may, needs, ROLE_MEANS, ROLE_WORDS, type Role, rolesGivenBy, type Workspace } from './roles.js';

/**
 * Inviting someone by e-mail with a role, and the invitations not yet accepted (revocable).
 * Admins and owners only; others are told why the form is not there. The link itself is mailed by
 * the server and never shown here: it is the invited person's alone.
 */
export function Invitations({ workspace }: { workspace: Workspace }) {
  const { role } = useSession();
  if (!may(role, 'manageAccess'))
    return (
      <>
        <h2>Invitations</h2>
        <p class="hint">{needs(role, 'manageAccess')} Ask an admin or an owner to invite someone.</p>
      </>
    );
  return <InvitationsManaged workspace={workspace} role={role} />;
}

function InvitationsManaged({ workspace, role }: { workspace: Workspace; role: Role }) {
  const pending = useResource(
    `invitations:${workspace.id}`,
    async () =>
      (await ok(api.GET('/workspaces/{id}/invitations', { params: { path: { id: workspace.id } } }))).data,
  );
  const offered = rolesGivenBy(role);
  const [email, setEmail] = useState('');
  const [given, setGiven] = useState<Role>('editor');
  const [news, setNews] = useState<string>();
  const invite = useAction();
  const revoking = useAction();

  const send = (event: Event) => {
    event.preventDefault();
    setNews(undefined);
    void invite.run(async () => {
      const sent = await ok(
        api.POST('/workspaces/{id}/invitations', {
          params: { path: { id: workspace.id } },
          body: { email: email.trim(), role: given },
        }),
      );
      setEmail('');
      setNews(
        `An invitation to join as ${sent.role} is on its way to ${sent.email}. It works once, for 7 days.`,
      );
      await pending.reload();
    });
  };
  const revoke = (invitation: Invitation) => {
    setNews(undefined);
    return revoking.run(async () => {
      await ok(
        api.DELETE('/workspaces/{id}/invitations/{invitationId}', {
          params: { path: { id: workspace.id, invitationId: invitation.id } },
        }),
      );
      pending.set((list) => (list ?? []).filter((each) => each.id !== invitation.id));
      setNews(`The invitation to ${invitation.email} is revoked: its link no longer works.`);
    });
  };

  const emailError = invite.error?.about('email');
  const listError = revoking.error ?? pending.error;
  return (
    <>
      <h2>Invite someone</h2>
      {news && <Notice kind="success">{news}</Notice>}
      {invite.error && !emailError && (
        <Notice kind="error" announce={invite.error}>
          {refusalWords(invite.error)}
        </Notice>
      )}
      <form class="stack narrow" onSubmit={send} noValidate aria-label="Invite someone">
        <TextInput
          id="invite-email"
          label="Email"
          type="email"
          autocomplete="off"
          required
          value={email}
          onInput={setEmail}
          error={emailError}
        />
        <div class="control-row">
          <label for="invite-role">Role</label>
          <p class="hint" id="invite-role-hint">
            {ROLE_WORDS[given]}: {ROLE_MEANS[given]}.
          </p>
          <select
            id="invite-role"
            aria-describedby="invite-role-hint"
            value={given}
            onChange={(event) => setGiven(event.currentTarget.value as Role)}
          >
            {offered.map((each) => (
              <option key={each} value={each} selected={each === given}>
                {ROLE_WORDS[each]}
              </option>
            ))}
          </select>
        </div>
        <button class="button button--primary" type="submit" disabled={invite.busy}>
          Send invitation
        </button>
      </form>
      <h2>Pending invitations</h2>
      {listError && (
        <Notice kind="error" announce={listError}>
          {refusalWords(listError)}
        </Notice>
      )}
      {pending.data === undefined ? (
        !pending.error && <p role="status">Loading invitations…</p>
      ) : pending.data.length === 0 ? (
        <p class="empty">No invitation is waiting for an answer.</p>
      ) : (
        <ul class="list">
          {pending.data.map((invitation) => (
            <li key={invitation.id} class="list__item member">
              <span class="member__who">
                <strong class="member__email">{invitation.email}</strong>
                <span class="badge">{ROLE_WORDS[invitation.role]}</span>
                <span class="muted member__joined">Expires {when(invitation.expiresAt)}</span>
              </span>
              <ConfirmButton
                small
                label="Revoke"
                name={`Revoke the invitation to ${invitation.email}`}
                question="Revoke it? Its link stops working."
                confirmLabel={`Revoke the invitation to ${invitation.email}`}
                onConfirm={() => revoke(invitation)}
              />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
