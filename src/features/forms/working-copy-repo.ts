import type { Db, Trx } from '../../platform/db/database.js';
import { decodeJson, encodeJson } from '../../platform/db/dialect.js';
import type { Schema } from '../../platform/db/schema.js';
import type { FormDefinition } from './schemas.js';

/** A published form's working copy (API.md §5.5), as stored: what respondents will get on publish. */
export interface StoredWorkingCopy {
  formId: string;
  /** The form's version the copy was first made from. */
  draftOf: number;
  title: string;
  definition: FormDefinition;
  createdAt: string;
  updatedAt: string;
}

type WorkingCopyRow = Schema['form_working_copies'];

const fromRow = (row: WorkingCopyRow): StoredWorkingCopy => ({
  formId: row.form_id,
  draftOf: Number(row.draft_of),
  title: row.title,
  definition: decodeJson<FormDefinition>(row.definition),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export async function findWorkingCopy(db: Db | Trx, formId: string): Promise<StoredWorkingCopy | undefined> {
  const row = await db
    .selectFrom('form_working_copies')
    .selectAll()
    .where('form_id', '=', formId)
    .executeTakeFirst();
  return row && fromRow(row);
}

/** Which of these forms have a working copy: one query for a whole list. */
export async function formsWithWorkingCopies(db: Db | Trx, formIds: readonly string[]): Promise<Set<string>> {
  if (formIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('form_working_copies')
    .select('form_id')
    .where('form_id', 'in', [...formIds])
    .execute();
  return new Set(rows.map((row) => row.form_id));
}

/** Writes the copy, in place of the form's previous one if any. */
export async function saveWorkingCopy(trx: Trx, copy: StoredWorkingCopy): Promise<void> {
  const changed = await trx
    .updateTable('form_working_copies')
    .set({ title: copy.title, definition: encodeJson(copy.definition), updated_at: copy.updatedAt })
    .where('form_id', '=', copy.formId)
    .executeTakeFirst();
  if (Number(changed.numUpdatedRows) === 1) return;
  await trx
    .insertInto('form_working_copies')
    .values({
      form_id: copy.formId,
      draft_of: copy.draftOf,
      title: copy.title,
      definition: encodeJson(copy.definition),
      created_at: copy.createdAt,
      updated_at: copy.updatedAt,
    })
    .execute();
}

/** True when there was a copy to delete. */
export async function deleteWorkingCopy(trx: Trx, formId: string): Promise<boolean> {
  const result = await trx.deleteFrom('form_working_copies').where('form_id', '=', formId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
