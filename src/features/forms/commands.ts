import { sessionDenial } from '../../platform/access.js';
import type { Principal } from '../../platform/auth.js';
import type { AppContext } from '../../platform/context.js';
import { isUniqueViolation } from '../../platform/db/dialect.js';
import { badRequest, conflict, forbidden, Problem } from '../../platform/problem.js';
import { nowIso } from '../../platform/time.js';
import { environmentNotFound, parseEnvironmentName } from '../environments/names.js';
import { holdEnvironment } from '../environments/repo.js';
import { enqueueWebhookEvents, type WebhookEvent } from '../webhooks/events.js';
import { listWebhooksOfForms, replaceFormWebhooks, type StoredWebhook } from '../webhooks/repo.js';
import { ssrfGuardOn } from '../webhooks/ssrf.js';
import { auditForm, formNotFound, managedOrThrow } from './access.js';
import { parseCreateInput, parseUpdateInput } from './definition.js';
import { afterLostRace, inManagedFormTurn } from './form-turns.js';
import { type FormView, presentForm } from './presenter.js';
import { readableFormId } from './readable-id.js';
import { deleteForm, findForm, insertForm, type StoredForm, updateForm } from './repo.js';
import { assertWebhookMember, webhookRowsFor } from './webhooks-member.js';
import { findWorkingCopy } from './working-copy-repo.js';

/**
 * Creating, changing and deleting a form (API.md §5.3): the multi-step work behind the routes,
 * callable by the pages too. Each command checks who may act, validates the definition (every
 * problem at once), writes in one transaction with the webhook events it raises, and nudges the
 * outbox after commit.
 */

type FormsContext = Pick<AppContext, 'config' | 'database' | 'envelope' | 'outbox' | 'passwords'>;

/** A stored form and its owner's view (GET /forms/{id}). */
export interface FormWritten {
  form: StoredForm;
  view: FormView;
}

export const etagOf = (version: number) => `"${version}"`;
/** The owner's view of a form whose working copy waits (API.md §5.5): the same version, another representation. */
export const etagWithDraft = (version: number) => `"${version}-draft"`;

const tagsOf = (header: string) => header.split(',').map((tag) => tag.trim().replace(/^W\//, ''));

/**
 * `If-Match`: `*`, or a list of entity tags of which one must name the current version (with
 * or without the `-draft` of an owner's view read while a working copy waited).
 */
export function matchesVersion(header: string, version: number): boolean {
  if (header.trim() === '*') return true;
  return tagsOf(header).some(
    (tag) => tag === etagOf(version) || tag === String(version) || tag === etagWithDraft(version),
  );
}

/** `If-None-Match`: the representation the client holds is this one (`*`, or its very tag). */
export function matchesTag(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  return tagsOf(header).some((tag) => tag === etag || `"${tag}"` === etag);
}

/** `POST /forms`: a new form in one of the caller's environments (a secret key: its own). */
export async function createForm(
  context: FormsContext,
  principal: Principal,
  body: unknown,
): Promise<FormWritten> {
  const { config, database, envelope, outbox } = context;
  // A missing environment is invalid_environment, like an invalid name (with the suggestions).
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    parseEnvironmentName(
      (body as { environment?: unknown }).environment,
      true,
      'the body member environment',
    );
  }
  const input = await parseCreateInput(body, (plaintext) => envelope.encrypt(plaintext), {
    fileMaxBytes: config.fileMaxBytes,
    hashPassword: (password) => context.passwords.hash(password),
  });
  if (principal.kind === 'session') {
    const denial = sessionDenial(principal, 'manageForms');
    if (denial) throw denial;
  }
  if (principal.kind === 'secret' && principal.environment !== input.environment) {
    throw forbidden(
      `This secret key belongs to the environment "${principal.environment}", not "${input.environment}"`,
    );
  }
  const now = nowIso();
  const form: StoredForm = {
    id: input.id ?? readableFormId(input.title),
    workspaceId: principal.workspaceId,
    userId: principal.userId,
    environment: input.environment,
    title: input.title,
    status: input.status,
    version: 1,
    definition: input.definition,
    createdAt: now,
    updatedAt: now,
  };
  await assertWebhookMember(input.webhooks ?? [], [], ssrfGuardOn(config));
  const webhooks = await webhookRowsFor(form, input.webhooks ?? [], [], envelope, now);
  const view = presentForm(form, webhooks);
  let queued = 0;
  try {
    await database.transaction(async (trx) => {
      if (!(await holdEnvironment(trx, database.engine, principal.workspaceId, form.environment))) {
        throw environmentNotFound(form.environment);
      }
      await insertForm(trx, form);
      await auditForm(trx, principal, 'form.created', form);
      if (webhooks.length === 0) return;
      await replaceFormWebhooks(trx, form.id, webhooks);
      // only the webhooks created with the form can have subscribed to its creation
      queued = await enqueueWebhookEvents(trx, envelope, [formEvent('form.created', form, view)]);
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw conflict(`The form id "${form.id}" is taken; choose another or leave id out`);
    throw error;
  }
  if (queued > 0) outbox.nudge();
  return { form, view };
}

export interface UpdateOptions {
  /** The environment the caller named (path or query): the form must live there. */
  environment?: string;
  /** `If-Match`: the version the caller read; a stale one is 412 `version_conflict`. */
  ifMatch?: string;
}

/**
 * `PUT /forms/{id}`: members in the body replace the stored ones. Without `If-Match`, a
 * concurrent update that wins the race is read again and the change applied on top of it;
 * with it, the caller is told (412).
 */
export async function updateFormById(
  context: FormsContext,
  principal: Principal | null,
  id: string,
  body: unknown,
  options: UpdateOptions = {},
): Promise<FormWritten> {
  const { config, database, envelope, outbox } = context;
  const { environment, ifMatch } = options;
  checkImmutableMembers(body, id);
  return inManagedFormTurn(database, principal, id, environment, async (readManaged) => {
    for (let attempt = 0; ; attempt++) {
      const stored = await readManaged();
      immutableMismatch(body, stored);
      if (ifMatch !== undefined && !matchesVersion(ifMatch, stored.version)) {
        throw new Problem(
          412,
          'version_conflict',
          `The form is at version ${stored.version}, not the one in If-Match (${ifMatch}); read it again and retry`,
        );
      }
      const draft = await parseUpdateInput(body, stored, (plaintext) => envelope.encrypt(plaintext), {
        fileMaxBytes: config.fileMaxBytes,
        hashPassword: (password) => context.passwords.hash(password),
      });
      const next: StoredForm = {
        ...stored,
        title: draft.title,
        status: draft.status,
        definition: draft.definition,
        version: stored.version + 1,
        updatedAt: nowIso(),
      };
      let webhooks: StoredWebhook[] | undefined;
      if (draft.webhooks) {
        const existing = await listWebhooksOfForms(database.db, [next.id]);
        await assertWebhookMember(draft.webhooks, existing, ssrfGuardOn(config));
        webhooks = await webhookRowsFor(next, draft.webhooks, existing, envelope, next.updatedAt);
      }
      const updated = await database.transaction(async (trx) => {
        if (!(await updateForm(trx, next, stored.version))) return undefined;
        if (webhooks) await replaceFormWebhooks(trx, next.id, webhooks);
        await auditForm(trx, principal, publishes(stored, next) ? 'form.published' : 'form.updated', next);
        const view = presentForm(
          next,
          webhooks ?? (await listWebhooksOfForms(trx, [next.id])),
          (await findWorkingCopy(trx, next.id)) !== undefined,
        );
        const queued = await enqueueWebhookEvents(trx, envelope, [formEvent('form.updated', next, view)]);
        return { view, queued };
      });
      if (updated) {
        if (updated.queued > 0) outbox.nudge();
        return { form: next, view: updated.view };
      }
      await afterLostRace(attempt, ifMatch);
    }
  });
}

/** `DELETE /forms/{id}`: the form with its submissions and webhooks; `form.deleted` still reaches them. */
export async function deleteFormById(
  context: FormsContext,
  principal: Principal | null,
  id: string,
  environment?: string,
): Promise<void> {
  const { database, envelope, outbox } = context;
  const form = managedOrThrow(principal, await findForm(database.db, id), id, 'manageForms', environment);
  const queued = await database.transaction(async (trx) => {
    // the form as it is now (a PUT may have landed since it was read), and still there
    const current = await findForm(trx, form.id);
    if (!current) throw formNotFound(form.id);
    const view = presentForm(current, await listWebhooksOfForms(trx, [form.id]));
    // before the delete: its webhooks go with the form, the queued deliveries do not
    const count = await enqueueWebhookEvents(trx, envelope, [formEvent('form.deleted', current, view)]);
    await deleteForm(trx, form.id);
    await auditForm(trx, principal, 'form.deleted', current);
    return count;
  });
  if (queued > 0) outbox.nudge();
}

/** The statuses in which a form takes submissions: a change into one of them publishes it. */
const OPEN_STATUSES: ReadonlySet<string> = new Set(['live', 'active']);

function publishes(before: StoredForm, after: StoredForm): boolean {
  return !OPEN_STATUSES.has(before.status) && OPEN_STATUSES.has(after.status);
}

/**
 * A form.* event: its data is the form as its owner reads it (GET /forms/{id}), without its
 * `webhooks` member: a receiver is a third party, and other webhooks' URLs often carry
 * tokens (chat and automation services put them in the path).
 */
export function formEvent(
  event: 'form.created' | 'form.updated' | 'form.deleted',
  form: StoredForm,
  view: FormView,
): WebhookEvent {
  return {
    event,
    formId: form.id,
    workspaceId: form.workspaceId,
    environment: form.environment,
    occurredAt: event === 'form.deleted' ? nowIso() : form.updatedAt,
    data: withoutWebhooks(view),
  };
}

function withoutWebhooks(view: FormView): Record<string, unknown> {
  const { webhooks: _webhooks, ...data } = view;
  return data;
}

/** `id` in a PUT body must name the form being updated. */
export function checkImmutableMembers(body: unknown, id: string): void {
  if (typeof body !== 'object' || body === null) return;
  const given = (body as { id?: unknown }).id;
  if (given !== undefined && given !== id) {
    throw immutable(
      'id',
      `The id of a form cannot change (body says ${JSON.stringify(given)}, path says "${id}")`,
    );
  }
}

/** `environment` and `userId` may be sent back as they are, never changed. */
export function immutableMismatch(body: unknown, stored: StoredForm): void {
  if (typeof body !== 'object' || body === null) return;
  const { environment, userId } = body as { environment?: unknown; userId?: unknown };
  if (environment !== undefined && environment !== stored.environment) {
    throw immutable(
      'environment',
      `A form's environment cannot change (it is "${stored.environment}"); to migrate, create a copy in the other environment`,
    );
  }
  if (userId !== undefined && userId !== stored.userId) {
    throw immutable('userId', "A form's owner cannot change");
  }
}

const immutable = (field: string, detail: string) =>
  badRequest('immutable_member', detail, {
    errors: [{ field, code: 'immutable', message: 'cannot be changed' }],
  });
