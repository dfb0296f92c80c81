import type { SubmissionFilter } from '../../src/features/submissions/repo.js';
import { newId } from '../../src/platform/ids.js';
import type { TestApp } from './app.js';
import { workspaceOfForm } from './factories.js';

/** What the export tests (src/features/submissions/export*.test.ts) share. */

/** Every response an export lists by default: accepted and flagged, no range, no flag. */
export const everyListed = (formId: string): SubmissionFilter => ({
  formId,
  statuses: ['accepted', 'flagged'],
  from: undefined,
  to: undefined,
  starred: undefined,
  read: undefined,
});

/**
 * Submissions written straight into the database, in multi-row inserts: for dates, statuses and
 * volumes the API does not let a test choose (created now unless given). Their ids, in order.
 */
export async function insertRows(
  t: TestApp,
  form: { id: string; environment: string; version: number },
  rows: Array<{ createdAt?: string; id?: string; status?: string; answers?: object }>,
): Promise<string[]> {
  const workspaceId = await workspaceOfForm(t, form.id);
  const values = rows.map((row) => ({
    id: row.id ?? newId('sub'),
    workspace_id: workspaceId,
    environment: form.environment,
    form_id: form.id,
    form_version: form.version,
    answers: JSON.stringify(row.answers ?? {}),
    session_id: null,
    status: (row.status ?? 'accepted') as 'accepted',
    read: 0,
    starred: 0,
    created_at: row.createdAt ?? new Date().toISOString(),
  }));
  for (let i = 0; i < values.length; i += 500) {
    await t.app.intake.database.db
      .insertInto('submissions')
      .values(values.slice(i, i + 500))
      .execute();
  }
  return values.map((value) => value.id);
}
