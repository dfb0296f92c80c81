import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { api, ok, type SignedOutReason } from './api/client.js';
import type { Role, Workspace } from './teams/roles.js';

/** Who is signed in, and the workspace and environment every view works in (the switchers', remembered). */
export interface User {
  id: string;
  email: string;
  createdAt: string;
}

export interface Session {
  user: User | undefined;
  /** Why the person was signed out by the app itself (said on the log-in page), if it was. */
  signedOutWhy: SignedOutReason | undefined;
  /** After log-in, sign-up or log-out (undefined). */
  signedIn(user: User | undefined, csrfToken?: string): void;
  environment: string;
  setEnvironment(name: string): void;
  /** The user's environments (the switcher's choices). */
  environments: string[];
  /** Reads them again (after one is created or deleted). */
  reloadEnvironments(): Promise<void>;
  /** The workspaces the user is a member of (the switcher's choices; only the personal one for most). */
  workspaces: Workspace[];
  /** The one every call acts in; undefined until the list is read. */
  workspace: Workspace | undefined;
  /** The user's role there (owner in their personal workspace, which is theirs alone). */
  role: Role;
  /** Whether the workspace chosen last is still being checked (nothing is read meanwhile). */
  workspacePending: boolean;
  /** The name of a workspace the user was removed from while using it (said once they are moved out of it). */
  lostWorkspace: string | undefined;
  /** Acts in another workspace from now on: what was read in the last one is forgotten. */
  switchWorkspace(id: string): void;
  /** Reads the list again (after one is created, renamed, deleted, joined or left). */
  reloadWorkspaces(): Promise<void>;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside the app');
  return session;
}

/** The user's environments, under one key for the switcher and the environments view. */
export const ENVIRONMENTS_KEY = 'environments';
export const loadEnvironments = async () => (await ok(api.GET('/environments'))).data;

const ENVIRONMENT_KEY = 'intake.environment';
export const rememberedEnvironment = (): string => {
  try {
    return localStorage.getItem(ENVIRONMENT_KEY) ?? 'development';
  } catch {
    return 'development';
  }
};
export const rememberEnvironment = (name: string): void => {
  try {
    localStorage.setItem(ENVIRONMENT_KEY, name);
  } catch {
    // private browsing without storage: remembered for this visit only
  }
};

/** The user's workspaces, under one key for the switcher and the members view. */
export const WORKSPACES_KEY = 'workspaces';
export const loadWorkspaces = async () => (await ok(api.GET('/workspaces'))).data;

const WORKSPACE_KEY = 'intake.workspace';
/** The workspace chosen last in this browser (none: the personal one, as the server's default). */
export const rememberedWorkspace = (): string | undefined => {
  try {
    return localStorage.getItem(WORKSPACE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
};
export const rememberWorkspace = (id: string): void => {
  try {
    localStorage.setItem(WORKSPACE_KEY, id);
  } catch {
    // private browsing without storage: remembered for this visit only
  }
};
