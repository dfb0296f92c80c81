import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { api, ok, type SignedOutReason } from './api/client.js';

/** Who is signed in, and the environment every view works in (the switcher's, remembered). */
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
