import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('submissions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('form_id', 'text', (c) => c.notNull().references('forms.id').onDelete('cascade'))
    .addColumn('form_version', 'integer', (c) => c.notNull())
    // JSON of the answers after PII handling: hashed and encrypted values are stored as such, dropped ones not at all
    .addColumn('answers', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('read', 'integer', (c) => c.notNull())
    .addColumn('starred', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // The inbox: newest first within a form, keyset on (created_at, id); also serves retention.
  await db.schema
    .createIndex('submissions_form_list')
    .on('submissions')
    .columns(['form_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('submission_notes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('submission_id', 'text', (c) => c.notNull().references('submissions.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('submission_notes_submission')
    .on('submission_notes')
    .columns(['submission_id', 'created_at'])
    .execute();

  // Idempotency-Key: the first answer to a (form, key) pair, kept 24 hours.
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('form_id', 'text', (c) => c.notNull().references('forms.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('response', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['form_id', 'key'])
    .execute();
  await db.schema
    .createIndex('idempotency_keys_created')
    .on('idempotency_keys')
    .column('created_at')
    .execute();

  // Accepted submissions per user, environment and calendar month (UTC): the quota counter.
  await db.schema
    .createTable('usage')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('submissions', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_pk', ['user_id', 'environment', 'month'])
    .execute();

  // The outbox: side effects (e-mail now, webhooks next) written in the transaction of the
  // change that causes them, and carried out after commit by a worker that survives restarts.
  await db.schema
    .createTable('outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('lease_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('done_at', 'text')
    .execute();
  await db.schema.createIndex('outbox_due').on('outbox').columns(['status', 'next_attempt_at']).execute();
}
