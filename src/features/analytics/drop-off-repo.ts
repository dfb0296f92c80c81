import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import { toCount } from '../../platform/db/dialect.js';

/**
 * Drop-off's counts (API.md §15), each one statement grouped by the database: what is read back
 * grows with the form's questions, never with its sessions. A session's steps are `form_steps`'
 * rows (one per question reached), its view the `form_events` view row, and it completed the form
 * when a submission of the form stored its `session_id` (accepted, flagged or quarantined: a
 * partial one, once there are such, is no completion).
 */

/** One form's rows within [from, to] (inclusive ISO 8601 UTC bounds, compared as text). */
export interface StepScope {
  formId: string;
  from: string;
  to: string;
}

/** The statuses of a submission that ended its session's walk. */
const COMPLETED = ['accepted', 'flagged', 'quarantined'] as const;

/**
 * The sessions that completed the form since the range began, as rows `(session_id, 1)` to put
 * beside the range's own rows and group by session (UNION ALL, then GROUP BY): both engines sort
 * or hash that once, where a join or a lookup per session needed an index keyed by session (each
 * submission a random write: migration 018 dropped it) or, without one, read the submissions once
 * per session. A session's submission comes after its view and its steps, so none before `from`
 * can complete a session of the range; found through the inbox's index (form, time), each row read
 * for its session: the drop-off reads more, so that no submission writes more.
 */
const completedRows = (db: Db, scope: StepScope) =>
  db
    .selectFrom('submissions')
    .select(['session_id', sql<number | null>`null`.as('place'), sql<number>`1`.as('done')])
    .where('form_id', '=', scope.formId)
    .where('created_at', '>=', scope.from)
    .where('status', 'in', [...COMPLETED])
    .where('session_id', 'is not', null)
    .$narrowType<{ session_id: string }>();

export interface ReachedCount {
  fieldId: string;
  reached: number;
  answered: number;
}

/** Per question, the sessions that reached it within the range and those that answered it. */
export async function reachedPerQuestion(db: Db, scope: StepScope): Promise<ReachedCount[]> {
  const rows = await db
    .selectFrom('form_steps')
    .select(['field_id', sql<number>`count(*)`.as('reached'), sql<number>`sum(answered)`.as('answered')])
    .where('form_id', '=', scope.formId)
    .where('reached_at', '>=', scope.from)
    .where('reached_at', '<=', scope.to)
    .groupBy('field_id')
    .execute();
  return rows.map((row) => ({
    fieldId: row.field_id,
    reached: toCount(row.reached),
    answered: toCount(row.answered),
  }));
}

/** Sessions whose furthest question is one place: how many, and how many of them completed the form. */
export interface FurthestCount {
  sessions: number;
  completed: number;
}

/**
 * Sessions that reached something within the range, by the furthest question they reached: its
 * place in `order` (the form's questions in page order), with how many of them completed the
 * form. Questions no longer in the form have no place; a session that reached only such is left
 * out.
 */
export async function sessionsByFurthest(
  db: Db,
  scope: StepScope,
  order: readonly string[],
): Promise<Map<number, FurthestCount>> {
  if (order.length === 0) return new Map();
  // the place as a literal number (PostgreSQL would type bound parameters as text, and compare as text)
  const place = sql<number | null>`case field_id ${sql.join(
    order.map((fieldId, i) => sql`when ${fieldId} then ${sql.lit(i)}`),
    sql` `,
  )} end`;
  const perSession = db
    .selectFrom('form_steps')
    .select(['session_id', place.as('place'), sql<number>`0`.as('done')])
    .where('form_id', '=', scope.formId)
    .where('reached_at', '>=', scope.from)
    .where('reached_at', '<=', scope.to)
    .unionAll(completedRows(db, scope));
  const sessions = db
    .selectFrom(perSession.as('rows'))
    .select([
      'rows.session_id',
      sql<number | null>`max(rows.place)`.as('furthest'),
      sql<number>`max(rows.done)`.as('done'),
    ])
    .groupBy('rows.session_id');
  const rows = await db
    .selectFrom(sessions.as('steps'))
    .select([
      'steps.furthest',
      sql<number>`count(*)`.as('sessions'),
      sql<number>`sum(steps.done)`.as('completed'),
    ])
    // a session only in the submissions reached nothing in the range (nor did one of removed questions only)
    .where('steps.furthest', 'is not', null)
    .groupBy('steps.furthest')
    .execute();
  return new Map(
    rows.map((row) => [
      Number(row.furthest),
      { sessions: toCount(row.sessions), completed: toCount(row.completed) },
    ]),
  );
}

export interface ViewCount {
  /** Sessions with a view in the range. */
  views: number;
  /** Of them, those that completed the form. */
  completed: number;
}

/**
 * Views of the form within the range and how many of their sessions completed it; with
 * `withoutSteps`, only the sessions that never sent a page (a one-by-one form's visitors who left
 * its first page unsent). Looked up by the primary key (form, session): with the range in the
 * lookup, SQLite took the time index instead and read every step of the form for each view.
 */
export async function viewsOf(db: Db, scope: StepScope, withoutSteps: boolean): Promise<ViewCount> {
  let views = db
    .selectFrom('form_events')
    .select(['session_id', sql<number | null>`null`.as('place'), sql<number>`0`.as('done')])
    .where('form_events.form_id', '=', scope.formId)
    .where('form_events.type', '=', 'view')
    .where('form_events.created_at', '>=', scope.from)
    .where('form_events.created_at', '<=', scope.to);
  if (withoutSteps) {
    views = views.where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('form_steps')
            .select(sql`1`.as('one'))
            .whereRef('form_steps.form_id', '=', 'form_events.form_id')
            .whereRef('form_steps.session_id', '=', 'form_events.session_id'),
        ),
      ),
    );
  }
  // per session: whether it viewed within the range, whether it completed
  const perSession = db
    .selectFrom(
      views
        .select(sql<number>`1`.as('viewed'))
        .unionAll(completedRows(db, scope).select(sql<number>`0`.as('viewed')))
        .as('rows'),
    )
    .select([sql<number>`max(rows.viewed)`.as('viewed'), sql<number>`max(rows.done)`.as('done')])
    .groupBy('rows.session_id');
  const row = await db
    .selectFrom(perSession.as('sessions'))
    .select([sql<number>`count(*)`.as('views'), sql<number>`coalesce(sum(sessions.done), 0)`.as('completed')])
    .where('sessions.viewed', '=', 1)
    .executeTakeFirstOrThrow();
  return { views: toCount(row.views), completed: toCount(row.completed) };
}
