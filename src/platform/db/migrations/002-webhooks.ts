import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('form_id', 'text', (c) => c.notNull().references('forms.id').onDelete('cascade'))
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    // envelope-encrypted (platform/crypto/envelope.ts): the secret signs deliveries, so it cannot be hashed
    .addColumn('secret_ciphertext', 'text')
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhooks_form').on('webhooks').columns(['form_id', 'created_at']).execute();
  await db.schema
    .createIndex('webhooks_owner')
    .on('webhooks')
    .columns(['user_id', 'environment', 'created_at'])
    .execute();
}
