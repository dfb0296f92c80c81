import type { Kysely } from 'kysely';

/**
 * Form events for analytics (API.md §8): one row per form, event type and visitor
 * session, the first time that session reported it. The primary key is what makes a
 * repeated (or concurrent) report count once: inserts skip a row that is already there.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('form_events')
    .addColumn('form_id', 'text', (c) => c.notNull().references('forms.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('form_events_pk', ['form_id', 'type', 'session_id'])
    .execute();
  // GET /analytics counts an environment's events by form and UTC day within a time range:
  // this index alone answers it, without reading the rows.
  await db.schema
    .createIndex('form_events_environment_day')
    .on('form_events')
    .columns(['user_id', 'environment', 'created_at', 'form_id', 'type'])
    .execute();
}
