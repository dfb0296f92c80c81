import type { Principal } from '../../platform/auth.js';
import type { AppContext } from '../../platform/context.js';
import { isUniqueViolation } from '../../platform/db/dialect.js';
import { badRequest, conflict, type FieldError, notFound, Problem } from '../../platform/problem.js';
import { nowIso } from '../../platform/time.js';
import { enqueueWebhookEvents } from '../webhooks/events.js';
import { listWebhooksOfForms, type StoredWebhook } from '../webhooks/repo.js';
import type { WebhookInput } from '../webhooks/schemas.js';
import { auditForm, formNotFound, managedOrThrow } from './access.js';
import {
  checkImmutableMembers,
  type FormWritten,
  formEvent,
  immutableMismatch,
  matchesVersion,
  type UpdateOptions,
} from './commands.js';
import { parseUpdateInput } from './definition.js';
import { afterLostRace, inManagedFormTurn } from './form-turns.js';
import { presentForm } from './presenter.js';
import { findForm, type StoredForm, updateForm } from './repo.js';
import type { FormStatus } from './schemas.js';
import {
  deleteWorkingCopy,
  findWorkingCopy,
  type StoredWorkingCopy,
  saveWorkingCopy,
} from './working-copy-repo.js';

/**
 * The working copy of a published form (API.md §5.5): edits kept aside while respondents keep
 * the live definition, then published in one step (version + 1, `form.updated`) or discarded.
 * The copy holds what respondents see (title and definition); the status and the webhooks stay
 * the form's own, changed at once through PUT /forms/{id} and /webhooks (docs/decisions.md).
 */

type FormsContext = Pick<AppContext, 'config' | 'database' | 'envelope' | 'outbox' | 'passwords'>;

/** The statuses whose form respondents get: only these are worth a working copy. */
const PUBLISHED: readonly FormStatus[] = ['live', 'active'];

export type WorkingCopyView = ReturnType<typeof presentForm> & { draftOf: number };

function presentWorkingCopy(
  form: StoredForm,
  copy: StoredWorkingCopy,
  webhooks: readonly StoredWebhook[],
): WorkingCopyView {
  const asForm: StoredForm = {
    ...form,
    title: copy.title,
    definition: copy.definition,
    updatedAt: copy.updatedAt,
  };
  return { ...presentForm(asForm, webhooks, true), draftOf: copy.draftOf };
}

const noWorkingCopy = (id: string) =>
  notFound(`The form ${id} has no working copy: PUT /forms/${id}/draft makes one`);

/** `GET /forms/{id}/draft`. */
export async function readWorkingCopy(
  context: FormsContext,
  principal: Principal | null,
  id: string,
  environment?: string,
): Promise<WorkingCopyView> {
  const { database } = context;
  const form = managedOrThrow(principal, await findForm(database.db, id), id, 'read', environment);
  const copy = await findWorkingCopy(database.db, id);
  if (!copy) throw noWorkingCopy(id);
  return presentWorkingCopy(form, copy, await listWebhooksOfForms(database.db, [id]));
}

/**
 * `PUT /forms/{id}/draft`: members in the body replace the copy's (or, for a new copy, the live
 * form's), validated like a form. A new copy needs a published form (live or active): a draft
 * is nobody's yet and is changed with PUT directly (409 says so). An existing copy stays
 * editable whatever the form's status became since.
 */
export async function saveWorkingCopyOf(
  context: FormsContext,
  principal: Principal | null,
  id: string,
  body: unknown,
  environment?: string,
): Promise<WorkingCopyView> {
  const { database, envelope } = context;
  checkImmutableMembers(body, id);
  return inManagedFormTurn(database, principal, id, environment, async (readManaged) => {
    for (let attempt = 0; ; attempt++) {
      const form = await readManaged();
      immutableMismatch(body, form);
      const existing = await findWorkingCopy(database.db, id);
      if (!existing && !PUBLISHED.includes(form.status)) {
        throw conflict(
          `The form ${id} is ${form.status}: respondents do not get it, so change it with PUT /forms/${id}; a working copy is for a live or active form`,
        );
      }
      const base = existing ?? { title: form.title, definition: form.definition };
      const parsed = await parseUpdateInput(
        body,
        { title: base.title, status: form.status, definition: base.definition },
        (plaintext) => envelope.encrypt(plaintext),
        {
          fileMaxBytes: context.config.fileMaxBytes,
          hashPassword: (password) => context.passwords.hash(password),
        },
      );
      const webhooks = await listWebhooksOfForms(database.db, [id]);
      assertOwnMembersKept(parsed.status, form.status, parsed.webhooks, webhooks);
      const now = nowIso();
      const copy: StoredWorkingCopy = {
        formId: id,
        draftOf: existing?.draftOf ?? form.version,
        title: parsed.title,
        definition: parsed.definition,
        createdAt: existing?.createdAt ?? now,
        updatedAt: now,
      };
      try {
        await database.transaction(async (trx) => {
          // deleted meanwhile: the copy would have nothing to belong to
          if (!(await findForm(trx, id))) throw formNotFound(id);
          await saveWorkingCopy(trx, copy);
        });
      } catch (error) {
        // two first saves at once: the second finds the first's copy and writes over it
        if (isUniqueViolation(error) && attempt < 3) continue;
        throw error;
      }
      const saved = (await findWorkingCopy(database.db, id)) ?? copy;
      return presentWorkingCopy(form, saved, webhooks);
    }
  });
}

/**
 * The status and the webhooks are the form's own, not the copy's: a body may carry them as they
 * are (a working copy read with GET and sent back), never changed.
 */
function assertOwnMembersKept(
  status: FormStatus,
  formStatus: FormStatus,
  webhooks: WebhookInput[] | undefined,
  stored: readonly StoredWebhook[],
): void {
  const errors: FieldError[] = [];
  if (status !== formStatus) {
    errors.push({
      field: 'status',
      code: 'not_in_working_copy',
      message: `is the form's own (${formStatus}): change it with PUT /forms/{id}, where it takes effect at once`,
    });
  }
  if (webhooks && !sameWebhooks(webhooks, stored)) {
    errors.push({
      field: 'webhooks',
      code: 'not_in_working_copy',
      message:
        "are the form's own: change them with PUT /forms/{id} or /webhooks, where they take effect at once",
    });
  }
  const [first] = errors;
  if (!first) return;
  throw badRequest('invalid_form', `The working copy cannot hold this: ${first.field} ${first.message}`, {
    errors,
  });
}

/** The form's webhooks sent back as read: the same ids, nothing about them changed. */
function sameWebhooks(inputs: readonly WebhookInput[], stored: readonly StoredWebhook[]): boolean {
  if (inputs.length !== stored.length) return false;
  return inputs.every((input) => {
    const row = stored.find((webhook) => webhook.id === input.id);
    return (
      row !== undefined &&
      input.secret === undefined &&
      input.event === row.event &&
      input.url === row.url &&
      (input.format === undefined || input.format === row.format) &&
      (input.enabled === undefined || input.enabled === row.enabled)
    );
  });
}

/**
 * `POST /forms/{id}/draft/publish`: the copy becomes the form's title and definition (version
 * + 1, `form.updated`), and is gone. `If-Match` as for PUT: a stale version is 412.
 */
export async function publishWorkingCopy(
  context: FormsContext,
  principal: Principal | null,
  id: string,
  options: UpdateOptions = {},
): Promise<FormWritten> {
  const { database, envelope, outbox } = context;
  const { environment, ifMatch } = options;
  return inManagedFormTurn(database, principal, id, environment, async (readManaged) => {
    for (let attempt = 0; ; attempt++) {
      const stored = await readManaged();
      if (ifMatch !== undefined && !matchesVersion(ifMatch, stored.version)) {
        throw new Problem(
          412,
          'version_conflict',
          `The form is at version ${stored.version}, not the one in If-Match (${ifMatch}); read it again and retry`,
        );
      }
      const copy = await findWorkingCopy(database.db, id);
      if (!copy) throw noWorkingCopy(id);
      const next: StoredForm = {
        ...stored,
        title: copy.title,
        definition: copy.definition,
        version: stored.version + 1,
        updatedAt: nowIso(),
      };
      const published = await database.transaction(async (trx) => {
        if (!(await updateForm(trx, next, stored.version))) return undefined;
        // discarded meanwhile: the throw rolls the update back
        if (!(await deleteWorkingCopy(trx, id))) throw noWorkingCopy(id);
        await auditForm(trx, principal, 'form.working_copy_published', next);
        const view = presentForm(next, await listWebhooksOfForms(trx, [id]), false);
        const queued = await enqueueWebhookEvents(trx, envelope, [formEvent('form.updated', next, view)]);
        return { view, queued };
      });
      if (published) {
        if (published.queued > 0) outbox.nudge();
        return { form: next, view: published.view };
      }
      await afterLostRace(attempt, ifMatch);
    }
  });
}

/** `DELETE /forms/{id}/draft`: the copy discarded; the live form stays as it is. */
export async function discardWorkingCopy(
  context: FormsContext,
  principal: Principal | null,
  id: string,
  environment?: string,
): Promise<void> {
  const { database } = context;
  const form = managedOrThrow(principal, await findForm(database.db, id), id, 'manageForms', environment);
  const deleted = await database.transaction(async (trx) => {
    if (!(await deleteWorkingCopy(trx, id))) return false;
    await auditForm(trx, principal, 'form.working_copy_discarded', form);
    return true;
  });
  if (!deleted) throw noWorkingCopy(id);
}
