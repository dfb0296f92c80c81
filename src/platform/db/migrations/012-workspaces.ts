import { type Kysely, SqliteAdapter, sql } from 'kysely';
import { newId } from '../../ids.js';

/**
 * Teams (API.md §14): a workspace owns what a user owned until now. Every user gets a personal
 * workspace (owner), and every row owned by `user_id` moves to it as `workspace_id`:
 * environments, api_keys, forms, webhooks, submissions, usage, webhook_deliveries, form_events
 * and files. `forms.user_id` stays and names the form's creator, `api_keys.user_id` the key's
 * creator, `submission_notes.user_id` the note's author.
 *
 * Tables whose `user_id` was only a column (with its indexes) have it renamed and its values
 * replaced, on both engines. `environments` (its key and its reference to `users`), `api_keys`
 * and `forms` (their reference to an environment) change constraints: PostgreSQL alters them in
 * place; SQLite, which cannot alter a constraint, rebuilds those three tables with foreign keys
 * off for the duration, in one transaction, checked by `foreign_key_check` before it commits.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  if (sqlite) {
    await sql`PRAGMA foreign_keys = OFF`.execute(db);
    await sql`BEGIN IMMEDIATE`.execute(db);
  }
  try {
    await createWorkspaces(db);
    if (sqlite) await moveConstrainedSqlite(db);
    else await moveConstrainedPostgres(db);
    for (const table of RENAMED) {
      await sql`ALTER TABLE ${sql.table(table)} RENAME COLUMN user_id TO workspace_id`.execute(db);
      await sql`UPDATE ${sql.table(table)} SET workspace_id = (SELECT p.workspace_id FROM personal_workspaces p WHERE p.user_id = ${sql.ref(`${table}.workspace_id`)})`.execute(
        db,
      );
    }
    await db.schema.dropTable('personal_workspaces').execute();
    if (sqlite) {
      const broken = await sql`PRAGMA foreign_key_check`.execute(db);
      if (broken.rows.length > 0) throw new Error(`foreign keys broken: ${JSON.stringify(broken.rows[0])}`);
      await sql`COMMIT`.execute(db);
    }
  } catch (error) {
    if (sqlite) await sql`ROLLBACK`.execute(db).catch(() => undefined);
    throw error;
  } finally {
    if (sqlite) await sql`PRAGMA foreign_keys = ON`.execute(db);
  }
}

/** Tables whose owner column only changes its name and values. */
const RENAMED = ['webhooks', 'submissions', 'usage', 'webhook_deliveries', 'form_events', 'files'] as const;

const BATCH = 200;

async function createWorkspaces(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('workspaces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    // 1 for a user's personal workspace (never deleted, never shared), else 0
    .addColumn('personal', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('workspace_members')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('joined_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('workspace_members_pk', ['workspace_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('workspace_members_user')
    .on('workspace_members')
    .columns(['user_id', 'workspace_id'])
    .execute();

  // The migration's own map from a user to their personal workspace, dropped at the end.
  await db.schema
    .createTable('personal_workspaces')
    .addColumn('user_id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .execute();
  const users = await sql<{
    id: string;
    created_at: string;
  }>`SELECT id, created_at FROM users ORDER BY created_at, id`.execute(db);
  for (let start = 0; start < users.rows.length; start += BATCH) {
    const batch = users.rows.slice(start, start + BATCH).map((user) => ({ user, workspaceId: newId('wsp') }));
    await db
      .insertInto('workspaces' as never)
      .values(
        batch.map(({ user, workspaceId }) => ({
          id: workspaceId,
          name: 'Personal',
          personal: 1,
          created_at: user.created_at,
        })) as never,
      )
      .execute();
    await db
      .insertInto('workspace_members' as never)
      .values(
        batch.map(({ user, workspaceId }) => ({
          workspace_id: workspaceId,
          user_id: user.id,
          role: 'owner',
          joined_at: user.created_at,
        })) as never,
      )
      .execute();
    await db
      .insertInto('personal_workspaces' as never)
      .values(
        batch.map(({ user, workspaceId }) => ({ user_id: user.id, workspace_id: workspaceId })) as never,
      )
      .execute();
  }
}

async function moveConstrainedPostgres(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE api_keys DROP CONSTRAINT api_keys_environment_fk`.execute(db);
  await sql`ALTER TABLE forms DROP CONSTRAINT forms_environment_fk`.execute(db);

  await sql`ALTER TABLE environments ADD COLUMN workspace_id text`.execute(db);
  await sql`UPDATE environments SET workspace_id = p.workspace_id FROM personal_workspaces p WHERE p.user_id = environments.user_id`.execute(
    db,
  );
  await sql`ALTER TABLE environments ALTER COLUMN workspace_id SET NOT NULL`.execute(db);
  await sql`ALTER TABLE environments DROP CONSTRAINT environments_pk`.execute(db);
  await sql`ALTER TABLE environments DROP COLUMN user_id`.execute(db);
  await sql`ALTER TABLE environments ADD CONSTRAINT environments_pk PRIMARY KEY (workspace_id, name)`.execute(
    db,
  );
  await sql`ALTER TABLE environments ADD CONSTRAINT environments_workspace_fk FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE CASCADE`.execute(
    db,
  );

  for (const table of ['api_keys', 'forms'] as const) {
    await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN workspace_id text`.execute(db);
    await sql`UPDATE ${sql.table(table)} SET workspace_id = p.workspace_id FROM personal_workspaces p WHERE p.user_id = ${sql.ref(`${table}.user_id`)}`.execute(
      db,
    );
    await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN workspace_id SET NOT NULL`.execute(db);
    await sql`ALTER TABLE ${sql.table(table)} ADD CONSTRAINT ${sql.raw(`${table}_environment_fk`)} FOREIGN KEY (workspace_id, environment) REFERENCES environments (workspace_id, name)`.execute(
      db,
    );
  }
  await ownerIndexes(db);
}

async function moveConstrainedSqlite(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('environments_next')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('environments_pk', ['workspace_id', 'name'])
    .execute();
  await sql`INSERT INTO environments_next (workspace_id, name, created_at)
    SELECT p.workspace_id, e.name, e.created_at FROM environments e JOIN personal_workspaces p ON p.user_id = e.user_id`.execute(
    db,
  );

  await db.schema
    .createTable('api_keys_next')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addForeignKeyConstraint('api_keys_environment_fk', ['workspace_id', 'environment'], 'environments', [
      'workspace_id',
      'name',
    ])
    .execute();
  await sql`INSERT INTO api_keys_next (id, workspace_id, user_id, environment, kind, key_hash, last4, created_at, last_used_at)
    SELECT k.id, p.workspace_id, k.user_id, k.environment, k.kind, k.key_hash, k.last4, k.created_at, k.last_used_at
    FROM api_keys k JOIN personal_workspaces p ON p.user_id = k.user_id`.execute(db);

  await db.schema
    .createTable('forms_next')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addForeignKeyConstraint('forms_environment_fk', ['workspace_id', 'environment'], 'environments', [
      'workspace_id',
      'name',
    ])
    .execute();
  await sql`INSERT INTO forms_next (id, workspace_id, user_id, environment, title, status, version, definition, created_at, updated_at)
    SELECT f.id, p.workspace_id, f.user_id, f.environment, f.title, f.status, f.version, f.definition, f.created_at, f.updated_at
    FROM forms f JOIN personal_workspaces p ON p.user_id = f.user_id`.execute(db);

  // Children first: no reference is left naming a dropped table's columns.
  for (const table of ['forms', 'api_keys', 'environments'] as const) {
    await db.schema.dropTable(table).execute();
  }
  for (const table of ['environments', 'api_keys', 'forms'] as const) {
    await db.schema.alterTable(`${table}_next`).renameTo(table).execute();
  }
  await db.schema
    .createIndex('forms_public_list')
    .on('forms')
    .columns(['environment', 'status', 'created_at', 'id'])
    .execute();
  await ownerIndexes(db);
}

/** The owners' indexes, on `workspace_id` now (SQLite dropped the old ones with their tables). */
async function ownerIndexes(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('api_keys_user_environment').ifExists().execute();
  await db.schema.dropIndex('forms_owner_list').ifExists().execute();
  await db.schema
    .createIndex('api_keys_workspace_environment')
    .on('api_keys')
    .columns(['workspace_id', 'environment', 'created_at'])
    .execute();
  // the keys a user made, for the notice after a password change
  await db.schema.createIndex('api_keys_user').on('api_keys').column('user_id').execute();
  // Owner lists: newest first within (workspace, environment), keyset on (created_at, id).
  await db.schema
    .createIndex('forms_owner_list')
    .on('forms')
    .columns(['workspace_id', 'environment', 'created_at', 'id'])
    .execute();
}
