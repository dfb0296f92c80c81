import { CompiledQuery, type Insertable, PostgresAdapter, sql } from 'kysely';
import { executeCached } from '../../platform/db/cached-statement.js';
import type { Db, Trx } from '../../platform/db/database.js';
import { toCount } from '../../platform/db/dialect.js';
import { boundRows } from '../../platform/db/insert.js';
import type { Schema } from '../../platform/db/schema.js';
import { noteRun } from '../../platform/db/statement-names.js';

import { FORWARDED_TYPES, type StoredEventType } from './schemas.js';
import type { StepRow } from './steps.js';

export interface FormEvent {
  formId: string;
  workspaceId: string;
  environment: string;
  type: StoredEventType;
  sessionId: string;
  createdAt: string;
}

/**
 * Stores the event unless this session already reported this type for this form; the
 * primary key decides, so concurrent duplicates count once on both engines.
 */
export async function recordEvent(trx: Trx, event: FormEvent): Promise<void> {
  await recordEvents(trx, [event]);
}

/** The columns of an event's row, in the order `recordEvents` binds them. */
const EVENT_COLUMNS = ['form_id', 'type', 'session_id', 'workspace_id', 'environment', 'created_at'];

/**
 * PostgreSQL: any number of events in one text, a column an array, so that one statement
 * prepared by name (statement-names.ts) serves batches of every size; a VALUES list per size was
 * parsed and planned for each batch (issue 24: the hosted page's views, thousands a second).
 */
const EVENTS_FROM_ARRAYS = `insert into form_events (${EVENT_COLUMNS.join(', ')})
  select form_id, type, session_id, workspace_id, environment, created_at
  from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
    as event(form_id, type, session_id, workspace_id, environment, created_at)
  on conflict (form_id, type, session_id) do nothing`;

/**
 * SQLite: the row counts a batch is cut into, largest first, so that five texts serve batches of
 * every size (the kept texts are shared with the submit path's: one per size up to 500 took half
 * of them).
 */
const SQLITE_CHUNKS = [256, 64, 16, 4, 1];

/**
 * Stores many events, each unless its session reported its type for its form already. On
 * SQLite a few VALUES statements (SQLITE_CHUNKS), each text built once (cached-statement.ts); on
 * PostgreSQL one statement of arrays. Either runs in a transaction or alone: each row stands by
 * itself.
 */
export async function recordEvents(db: Db | Trx, events: readonly FormEvent[]): Promise<void> {
  if (events.length === 0) return;
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const columns: string[][] = EVENT_COLUMNS.map(() => []);
    for (const event of events) {
      columns[0]?.push(event.formId);
      columns[1]?.push(event.type);
      columns[2]?.push(event.sessionId);
      columns[3]?.push(event.workspaceId);
      columns[4]?.push(event.environment);
      columns[5]?.push(event.createdAt);
    }
    noteRun(EVENTS_FROM_ARRAYS, columns.length);
    await db.executeQuery(CompiledQuery.raw(EVENTS_FROM_ARRAYS, columns));
    return;
  }
  for (let start = 0; start < events.length; ) {
    const size = SQLITE_CHUNKS.find((rows) => rows <= events.length - start) ?? 1;
    const chunk = events.slice(start, start + size);
    start += size;
    const values: unknown[] = [];
    for (const event of chunk)
      values.push(
        event.formId,
        event.type,
        event.sessionId,
        event.workspaceId,
        event.environment,
        event.createdAt,
      );
    await executeCached(db, `events: record ${chunk.length}`, values, (bound) =>
      db
        .insertInto('form_events')
        .values(boundRows(bound, EVENT_COLUMNS) as Insertable<Schema['form_events']>[])
        .onConflict((conflict) => conflict.columns(['form_id', 'type', 'session_id']).doNothing()),
    );
  }
}

/**
 * Stores what a page's post says of its session's steps (steps.ts), in one statement: a row per
 * question new to the session, `answered` raised to 1 on a row already there when this post
 * answered it, and nothing else changed (the first time reached stays). The primary key keeps a
 * session once per question on both engines, however often it goes Back and Next.
 */
export async function recordSteps(
  trx: Trx,
  formId: string,
  sessionId: string,
  rows: readonly StepRow[],
  at: string,
): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto('form_steps')
    .values(
      rows.map((row) => ({
        form_id: formId,
        session_id: sessionId,
        field_id: row.fieldId,
        answered: row.answered ? 1 : 0,
        reached_at: at,
      })),
    )
    .onConflict((conflict) =>
      conflict
        .columns(['form_id', 'session_id', 'field_id'])
        .doUpdateSet({ answered: 1 })
        .where('excluded.answered', '=', 1)
        .where('form_steps.answered', '=', 0),
    )
    .execute();
}

/** Whose data, and which part of it: one user's environment, optionally one form, within [from, to]. */
export interface AnalyticsScope {
  workspaceId: string;
  environment: string;
  formId: string | undefined;
  /** Inclusive bounds, ISO 8601 UTC with milliseconds (they compare as text). */
  from: string;
  to: string;
}

export interface ScopedForm {
  id: string;
  title: string;
}

/** Every form in the scope, whatever its status, newest first (the order of GET /forms). */
export async function formsInScope(db: Db, scope: AnalyticsScope): Promise<ScopedForm[]> {
  let query = db
    .selectFrom('forms')
    .select(['id', 'title'])
    .where('workspace_id', '=', scope.workspaceId)
    .where('environment', '=', scope.environment);
  if (scope.formId !== undefined) query = query.where('id', '=', scope.formId);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

/** Counters of one form on one UTC day (`YYYY-MM-DD`). */
export interface DayCounts {
  formId: string;
  day: string;
  views: number;
  starts: number;
  /** What reached the owner: accepted and flagged submissions. */
  submissions: number;
  flagged: number;
  quarantined: number;
}

// The UTC day of an ISO 8601 timestamp, on both engines (timestamps are text).
const DAY = sql<string>`substr(created_at, 1, 10)`;
const ZERO = sql<number>`0`;

/**
 * Events and submissions of the scope counted by the database, grouped by form and UTC
 * day. One statement (a UNION ALL of the two groupings), so both are read from the same
 * snapshot; a (form, day) may come back twice, once from each table.
 */
export async function countsByFormAndDay(db: Db, scope: AnalyticsScope): Promise<DayCounts[]> {
  let events = db
    .selectFrom('form_events')
    .select([
      'form_id',
      DAY.as('day'),
      sql<number>`sum(case when type = 'view' then 1 else 0 end)`.as('views'),
      sql<number>`sum(case when type = 'start' then 1 else 0 end)`.as('starts'),
      // a form that stores nothing: its submissions are counted from these rows alone
      sql<number>`sum(case when type in (${FORWARDED_TYPES.accepted}, ${FORWARDED_TYPES.flagged}) then 1 else 0 end)`.as(
        'submissions',
      ),
      sql<number>`sum(case when type = ${FORWARDED_TYPES.flagged} then 1 else 0 end)`.as('flagged'),
      sql<number>`sum(case when type = ${FORWARDED_TYPES.quarantined} then 1 else 0 end)`.as('quarantined'),
    ])
    .where('workspace_id', '=', scope.workspaceId)
    .where('environment', '=', scope.environment)
    .where('created_at', '>=', scope.from)
    .where('created_at', '<=', scope.to);
  if (scope.formId !== undefined) events = events.where('form_id', '=', scope.formId);

  // Through the scope's forms, so the inbox index (form_id, created_at) serves the range.
  let forms = db
    .selectFrom('forms')
    .select('id')
    .where('workspace_id', '=', scope.workspaceId)
    .where('environment', '=', scope.environment);
  if (scope.formId !== undefined) forms = forms.where('id', '=', scope.formId);
  const submissions = db
    .selectFrom('submissions')
    .select([
      'form_id',
      DAY.as('day'),
      ZERO.as('views'),
      ZERO.as('starts'),
      sql<number>`sum(case when status in ('accepted', 'flagged') then 1 else 0 end)`.as('submissions'),
      sql<number>`sum(case when status = 'flagged' then 1 else 0 end)`.as('flagged'),
      sql<number>`sum(case when status = 'quarantined' then 1 else 0 end)`.as('quarantined'),
    ])
    .where('form_id', 'in', forms)
    .where('workspace_id', '=', scope.workspaceId)
    .where('environment', '=', scope.environment)
    .where('created_at', '>=', scope.from)
    .where('created_at', '<=', scope.to)
    .groupBy(['form_id', DAY]);

  const rows = await events.groupBy(['form_id', DAY]).unionAll(submissions).execute();
  return rows.map((row) => ({
    formId: row.form_id,
    day: row.day,
    views: toCount(row.views),
    starts: toCount(row.starts),
    submissions: toCount(row.submissions),
    flagged: toCount(row.flagged),
    quarantined: toCount(row.quarantined),
  }));
}
