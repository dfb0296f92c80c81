import { ApiError, api, ok } from '../api/client.js';
import type { paths } from '../api/schema.js';
import { type Resource, useResource } from '../ui/resource.js';

/**
 * A form as its owner reads it (GET /forms/{id}), shared by the views that show one: the
 * builder, the inbox, its webhooks and analytics read it under one key, so going from one to
 * the next shows its title at once, and a save in the builder is what the others show.
 */

type FormAnswer = paths['/forms/{id}']['get']['responses'][200]['content']['application/json'];
/** The owner's view (GET /forms/{id} answers the owner with it; anyone else gets the public view). */
export type StoredForm = Extract<FormAnswer, { userId: string }>;

export const formKey = (id: string): string => `form:${id}`;

/** The owner's view of a form; another user's live form (its public view) is refused in words. */
export async function loadStoredForm(id: string): Promise<StoredForm> {
  const form = await ok(api.GET('/forms/{id}', { params: { path: { id } } }));
  if (!('userId' in form))
    throw new ApiError(404, 'not_found', 'There is no form of yours with this address.');
  return form;
}

export const useStoredForm = (id: string, options?: { fresh?: boolean }): Resource<StoredForm> =>
  useResource(formKey(id), () => loadStoredForm(id), options);
