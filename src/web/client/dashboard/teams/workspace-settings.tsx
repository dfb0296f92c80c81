import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, ok } from '../api/client.js';
import { useSession } from '../session.js';
import { useAction } from '../ui/action.js';
import { ConfirmButton } from '../ui/confirm.js';
import { Notice, TextInput } from '../ui/controls.js';
import { refusalWords } from './model.js';
import { may, needs, type Workspace } from './roles.js';

/** The workspace itself: renamed and deleted by an owner (others are told why not); a new one by anyone. */
export function WorkspaceSettings({ workspace }: { workspace: Workspace }) {
  const { role, reloadWorkspaces, switchWorkspace, workspaces } = useSession();
  const { route } = useLocation();
  const [name, setName] = useState(workspace.name);
  const [news, setNews] = useState<string>();
  const action = useAction();
  const owns = may(role, 'own');

  const rename = (event: Event) => {
    event.preventDefault();
    setNews(undefined);
    void action.run(async () => {
      const renamed = await ok(
        api.PATCH('/workspaces/{id}', {
          params: { path: { id: workspace.id } },
          body: { name: name.trim() },
        }),
      );
      await reloadWorkspaces();
      setNews(`The workspace is now called ${renamed.name}.`);
    });
  };
  const remove = () =>
    action.run(async () => {
      await ok(api.DELETE('/workspaces/{id}', { params: { path: { id: workspace.id } } }));
      await reloadWorkspaces();
      const personal = workspaces.find((each) => each.personal);
      if (personal) switchWorkspace(personal.id);
      route('/app');
    });

  const nameError = action.error?.about('name');
  return (
    <>
      <h2>Workspace</h2>
      {news && <Notice kind="success">{news}</Notice>}
      {action.error && !nameError && (
        <Notice kind="error" announce={action.error}>
          {refusalWords(action.error)}
        </Notice>
      )}
      {owns ? (
        <>
          <form class="stack narrow" onSubmit={rename} noValidate>
            <TextInput
              id="workspace-name"
              label="Workspace name"
              required
              value={name}
              onInput={setName}
              error={nameError}
            />
            <button class="button" type="submit" disabled={action.busy}>
              Rename
            </button>
          </form>
          <p class="hint">A workspace is deleted once it holds no forms and no keys.</p>
          <p class="actions">
            <ConfirmButton
              label="Delete workspace"
              question={`Delete ${workspace.name} for everyone in it?`}
              confirmLabel={`Delete ${workspace.name}`}
              onConfirm={remove}
            />
          </p>
        </>
      ) : (
        <p class="hint">{needs(role, 'own')} Owners rename and delete the workspace.</p>
      )}
      <NewWorkspace />
    </>
  );
}

/** Makes a workspace (the caller its owner, with development and production) and switches to it. */
export function NewWorkspace() {
  const { reloadWorkspaces, switchWorkspace } = useSession();
  const [name, setName] = useState('');
  const action = useAction();
  const create = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const created = await ok(api.POST('/workspaces', { body: { name: name.trim() } }));
      await reloadWorkspaces();
      switchWorkspace(created.id);
    });
  };
  const nameError = action.error?.about('name');
  return (
    <>
      <h2>New workspace</h2>
      {action.error && !nameError && (
        <Notice kind="error" announce={action.error}>
          {refusalWords(action.error)}
        </Notice>
      )}
      <form class="stack narrow" onSubmit={create} noValidate>
        <TextInput
          id="new-workspace-name"
          label="Name of the new workspace"
          hint="Such as your team or company. You will be its owner, and can invite others."
          required
          value={name}
          onInput={setName}
          error={nameError}
        />
        <button class="button" type="submit" disabled={action.busy}>
          Create workspace
        </button>
      </form>
    </>
  );
}
