import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, ok } from '../api/client.js';
import { useSession } from '../session.js';
import { useAction } from '../ui/action.js';
import { ConfirmButton } from '../ui/confirm.js';
import { Notice, useTitle } from '../ui/controls.js';
import { when } from '../ui/format.js';
import { useResource } from '../ui/resource.js';
import { SettledSelect } from '../ui/settled-select.js';
import { Invitations } from './invitations.js';
import { type Member, refusalWords } from './model.js';
import { may, mayManageMember, needs, ROLE_WORDS, type Role, rolesGivenBy, type Workspace } from './roles.js';
import { NewWorkspace, WorkspaceSettings } from './workspace-settings.js';

/**
 * The members of the workspace in use (API.md §14): who they are, their role (changed by a
 * select where the caller's role allows it: a role reached by the arrow keys is saved on Enter or
 * on leaving the select, not at each step), removing and leaving; then the invitations and the
 * workspace itself. A control the caller's role does not allow is left out with the reason said
 * in its place; the server still decides, and its refusal is shown as it words it.
 */
export function Members() {
  useTitle('Members');
  const { workspace } = useSession();
  if (!workspace)
    return (
      <section class="view">
        <h1>Members</h1>
        <p role="status">Loading the workspace…</p>
      </section>
    );
  if (workspace.personal)
    return (
      <section class="view">
        <h1>Members</h1>
        <p>
          <strong>{workspace.name}</strong> is your personal workspace: yours alone. To share forms, responses
          and keys with others, create a workspace and invite them; each workspace has its own environments,
          forms and keys, and you switch between them at the top of every page.
        </p>
        <NewWorkspace />
      </section>
    );
  return <SharedMembers workspace={workspace} />;
}

function SharedMembers({ workspace }: { workspace: Workspace }) {
  const { role, user, reloadWorkspaces, switchWorkspace, workspaces } = useSession();
  const { route } = useLocation();
  const members = useResource(
    `members:${workspace.id}`,
    async () =>
      (await ok(api.GET('/workspaces/{id}/members', { params: { path: { id: workspace.id } } }))).data,
  );
  const action = useAction();
  const [news, setNews] = useState<string>();
  const path = (userId: string) => ({ params: { path: { id: workspace.id, userId } } });

  const changeRole = (member: Member, next: Role) => {
    setNews(undefined);
    void action.run(async () => {
      const changed = await ok(
        api.PATCH('/workspaces/{id}/members/{userId}', { ...path(member.userId), body: { role: next } }),
      );
      members.set((list) => (list ?? []).map((each) => (each.userId === changed.userId ? changed : each)));
      setNews(`${changed.email} is now ${changed.role}.`);
      if (changed.userId === user?.id) await reloadWorkspaces();
    });
  };
  const remove = (member: Member) => {
    setNews(undefined);
    return action.run(async () => {
      await ok(api.DELETE('/workspaces/{id}/members/{userId}', path(member.userId)));
      members.set((list) => (list ?? []).filter((each) => each.userId !== member.userId));
      setNews(`${member.email} is no longer a member.`);
    });
  };
  const leave = () =>
    action.run(async () => {
      await ok(api.DELETE('/workspaces/{id}/members/{userId}', path(user?.id ?? '')));
      await reloadWorkspaces();
      const personal = workspaces.find((each) => each.personal);
      if (personal) switchWorkspace(personal.id);
      route('/app');
    });

  const manages = may(role, 'manageAccess');
  const error = action.error ?? members.error;
  return (
    <section class="view">
      <h1>Members</h1>
      <p class="muted">
        Of the <strong>{workspace.name}</strong> workspace, where you are {ROLE_WORDS[role].toLowerCase()}.
        {manages && (
          <>
            {' '}
            What everyone changed is in the <a href="/app/audit">audit log</a>.
          </>
        )}
      </p>
      {news && <Notice kind="success">{news}</Notice>}
      {error && (
        <Notice kind="error" announce={error}>
          {refusalWords(error)}
        </Notice>
      )}
      {!manages && (
        <p class="hint">{needs(role, 'manageAccess')} Admins and owners change roles and remove members.</p>
      )}
      {role === 'admin' && <p class="hint">Only an owner changes or removes an owner.</p>}
      {members.data === undefined ? (
        !members.error && <p role="status">Loading members…</p>
      ) : (
        <ul class="list members">
          {members.data.map((member) => {
            const self = member.userId === user?.id;
            // an owner may step down (the server keeps the last one); anyone else is managed by rank
            const changeable = self ? role === 'owner' : mayManageMember(role, member.role);
            return (
              <li key={member.userId} class="list__item member">
                <span class="member__who">
                  <strong class="member__email">{member.email}</strong>
                  {self && <span class="badge badge--accent">you</span>}
                  <span class="muted member__joined">Joined {when(member.joinedAt)}</span>
                </span>
                <span class="member__actions">
                  {changeable ? (
                    <span class="switcher">
                      <label for={`role-${member.userId}`}>
                        Role<span class="visually-hidden"> of {member.email}</span>
                      </label>
                      <SettledSelect
                        id={`role-${member.userId}`}
                        value={member.role}
                        disabled={action.busy}
                        onCommit={(next) => changeRole(member, next as Role)}
                      >
                        {rolesGivenBy(role).map((each) => (
                          <option key={each} value={each} selected={each === member.role}>
                            {ROLE_WORDS[each]}
                          </option>
                        ))}
                      </SettledSelect>
                    </span>
                  ) : (
                    <span class="badge">{ROLE_WORDS[member.role]}</span>
                  )}
                  {self ? (
                    <ConfirmButton
                      small
                      label="Leave"
                      name={`Leave ${workspace.name}`}
                      question={`Leave ${workspace.name}? You lose access at once.`}
                      confirmLabel={`Leave ${workspace.name}`}
                      onConfirm={leave}
                    />
                  ) : (
                    changeable && (
                      <ConfirmButton
                        small
                        label="Remove"
                        name={`Remove ${member.email}`}
                        question={`Remove ${member.email}?`}
                        confirmLabel={`Remove ${member.email}`}
                        onConfirm={() => remove(member)}
                      />
                    )
                  )}
                </span>
              </li>
            );
          })}
        </ul>
      )}
      <Invitations workspace={workspace} />
      <WorkspaceSettings workspace={workspace} />
    </section>
  );
}
