import { badRequest, notFound } from '../../platform/problem.js';

export const DEFAULT_ENVIRONMENTS = ['development', 'production'] as const;
const NAME = /^[a-z0-9_-]{1,50}$/;

const RULES =
  'An environment name is 1 to 50 characters of lowercase letters, digits, hyphens and underscores';

function invalid(detail: string) {
  return badRequest(
    'invalid_environment',
    `${detail}. ${RULES}; the defaults are development and production.`,
    {
      extensions: { suggestions: [...DEFAULT_ENVIRONMENTS] },
    },
  );
}

export function isDefaultEnvironment(name: string): boolean {
  return (DEFAULT_ENVIRONMENTS as readonly string[]).includes(name);
}

/** Checks a well-formed name; `undefined` passes only when the environment is optional. */
export function parseEnvironmentName(value: unknown, required: true, where?: string): string;
export function parseEnvironmentName(value: unknown, required: false, where?: string): string | undefined;
export function parseEnvironmentName(
  value: unknown,
  required: boolean,
  where = 'the query parameter ?environment=<name>',
): string | undefined {
  if (value === undefined || value === '') {
    if (required) throw invalid(`The environment is required (${where})`);
    return undefined;
  }
  if (typeof value !== 'string') throw invalid('The environment must be a string');
  if (!NAME.test(value)) throw invalid(`"${value.slice(0, 60)}" is not a valid environment name`);
  return value;
}

export function environmentNotFound(name: string) {
  return notFound(
    `Environment does not exist: "${name}" has not been created for this account; create the environment first (POST /environments)`,
    'environment_not_found',
  );
}
