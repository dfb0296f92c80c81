import type { Kysely } from 'kysely';

// Migrations are forward-only and shared by SQLite and PostgreSQL: they use only
// portable types (text, integer) so that no feature needs a dialect branch.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_key', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('environments')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('environments_pk', ['user_id', 'name'])
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addForeignKeyConstraint('api_keys_environment_fk', ['user_id', 'environment'], 'environments', [
      'user_id',
      'name',
    ])
    .execute();
  await db.schema
    .createIndex('api_keys_user_environment')
    .on('api_keys')
    .columns(['user_id', 'environment', 'created_at'])
    .execute();

  await db.schema
    .createTable('forms')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addForeignKeyConstraint('forms_environment_fk', ['user_id', 'environment'], 'environments', [
      'user_id',
      'name',
    ])
    .execute();
  // Owner lists: newest first within (user, environment), keyset on (created_at, id).
  await db.schema
    .createIndex('forms_owner_list')
    .on('forms')
    .columns(['user_id', 'environment', 'created_at', 'id'])
    .execute();
  // Anonymous lists of live forms by environment name.
  await db.schema
    .createIndex('forms_public_list')
    .on('forms')
    .columns(['environment', 'status', 'created_at', 'id'])
    .execute();
}
