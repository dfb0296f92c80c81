import type { ApiError } from '../api/client.js';
import type { paths } from '../api/schema.js';

/** How the teams views word what the server answered: refusals, and the audit log's entries. */

export type AuditEntry =
  paths['/workspaces/{id}/audit']['get']['responses'][200]['content']['application/json']['data'][number];
export type Member =
  paths['/workspaces/{id}/members']['get']['responses'][200]['content']['application/json']['data'][number];
export type Invitation =
  paths['/workspaces/{id}/invitations']['get']['responses'][200]['content']['application/json']['data'][number];

/**
 * A refusal in words a person acts on: the server's own, but for the ones whose cause is a rule
 * of the workspace rather than the request (the server words those for any client).
 */
export function refusalWords(error: Pick<ApiError, 'code' | 'message'>): string {
  if (error.code === 'last_owner')
    return 'A workspace always keeps an owner: make another member an owner first, then try again.';
  return error.message;
}

export const ACTION_KINDS_ALL = 'Every change';

/** The kinds of target the log's filter offers (the server takes a kind for all its actions). */
export const AUDIT_KINDS = [
  { value: 'form', label: 'Forms' },
  { value: 'response', label: 'Responses and notes' },
  { value: 'webhook', label: 'Webhooks' },
  { value: 'key', label: 'API keys' },
  { value: 'environment', label: 'Environments' },
  { value: 'member', label: 'Members' },
  { value: 'invitation', label: 'Invitations' },
  { value: 'workspace', label: 'The workspace' },
] as const;

/** What each action did, as a verb and the kind of thing it was done to. */
const ACTION_WORDS: Record<string, string> = {
  'workspace.created': 'created the workspace',
  'workspace.renamed': 'renamed the workspace',
  'workspace.deleted': 'deleted the workspace',
  'member.role_changed': 'changed the role of',
  'member.removed': 'removed',
  'member.left': 'left the workspace',
  'invitation.created': 'sent an invitation',
  'invitation.revoked': 'revoked an invitation',
  'invitation.accepted': 'accepted an invitation and joined',
  'environment.created': 'created environment',
  'environment.deleted': 'deleted environment',
  'key.created': 'created API key',
  'key.deleted': 'deleted API key',
  'form.created': 'created form',
  'form.updated': 'updated form',
  'form.published': 'published form',
  'form.deleted': 'deleted form',
  'form.working_copy_published': 'published the edits of form',
  'form.working_copy_discarded': 'discarded the edits of form',
  'webhook.created': 'added a webhook',
  'webhook.updated': 'changed a webhook',
  'webhook.deleted': 'deleted a webhook',
  'response.deleted': 'deleted response',
  'response.note_added': 'wrote a note on response',
  'response.read': 'marked read response',
  'response.unread': 'marked unread response',
  'response.starred': 'starred response',
  'response.unstarred': 'unstarred response',
};

/** Actions whose target is said by the verb itself ("left the workspace"). */
const SAID_BY_VERB = new Set([
  'workspace.created',
  'workspace.renamed',
  'workspace.deleted',
  'member.left',
  // the log keeps no invited address, and an invitation's id tells a person nothing
  'invitation.created',
  'invitation.revoked',
  'invitation.accepted',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
]);

/** Names the log's ids stand for, where the view knows them: members' addresses, forms' titles. */
export interface KnownNames {
  members: ReadonlyMap<string, string>;
  forms: ReadonlyMap<string, string>;
}

/**
 * The names the log's ids stand for: members' addresses (also of members who have left, from
 * entries where they acted, which keep the address they had) and the titles of forms still there.
 */
export function knownNames(
  members: readonly Pick<Member, 'userId' | 'email'>[],
  entries: readonly Pick<AuditEntry, 'actor'>[],
  forms: Iterable<readonly [string, string]>,
): KnownNames {
  const addresses = new Map<string, string>();
  for (const { actor } of entries)
    if (actor.type === 'user' && actor.email) addresses.set(actor.id, actor.email);
  for (const member of members) addresses.set(member.userId, member.email);
  return { members: addresses, forms: new Map(forms) };
}

/** Who acted: a person's address as it was then, or the key by its id. */
export const actorWords = (actor: AuditEntry['actor'], names?: KnownNames): string =>
  actor.type === 'key' ? `API key ${actor.id}` : (actor.email ?? names?.members.get(actor.id) ?? actor.id);

/** What was done, in words: "updated form Contact", "changed the role of bob@example.com". */
export function actionWords(entry: Pick<AuditEntry, 'action' | 'target'>, names?: KnownNames): string {
  const verb = ACTION_WORDS[entry.action] ?? entry.action.replace('.', ' ').replaceAll('_', ' ');
  if (SAID_BY_VERB.has(entry.action)) return verb;
  const { type, id } = entry.target;
  const name =
    (type === 'form' && names?.forms.get(id)) || (type === 'member' && names?.members.get(id)) || id;
  return `${verb} ${name}`;
}

/** The log's filter as a person sets it: kind of action, who, and the dates ('' for any). */
export interface AuditFilter {
  action: string;
  actor: string;
  from: string;
  to: string;
}
export const NO_AUDIT_FILTER: AuditFilter = { action: '', actor: '', from: '', to: '' };
export const filtered = (filter: AuditFilter): boolean => Object.values(filter).some((value) => value !== '');

/** The query of GET /workspaces/{id}/audit for a filter and page: only what is set. */
export function auditQuery(filter: AuditFilter, cursor?: string) {
  return {
    limit: 50,
    ...(cursor ? { cursor } : {}),
    ...(filter.action ? { action: filter.action } : {}),
    ...(filter.actor ? { actor: filter.actor } : {}),
    ...(filter.from ? { from: filter.from } : {}),
    ...(filter.to ? { to: filter.to } : {}),
  };
}
