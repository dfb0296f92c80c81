import type { Kysely } from 'kysely';

/**
 * Teams, second step (API.md §14):
 * - `workspace_invitations`: a pending invitation of an address to a workspace, its token kept
 *   only as a SHA-256 hash; at most one per workspace and address (inviting again replaces it);
 *   accepting or revoking deletes it, so a token works once.
 * - `audit_log`: every change by a member or a key, written in the change's transaction. No
 *   foreign key to the workspace: a deleted workspace's entries (its deletion among them) stay
 *   until the retention job removes them.
 * - `submission_notes.author_email`, `.key_id`: the author's address when the note was written,
 *   and the key it was written with. Notes written before have neither: their author is unknown.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('workspace_invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    // lowercased, like users.email_key
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('workspace_invitations_address', ['workspace_id', 'email'])
    .execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('actor_type', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('actor_email', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .execute();
  // the listing: a workspace's entries newest first, by (at, id)
  await db.schema
    .createIndex('audit_log_workspace_at')
    .on('audit_log')
    .columns(['workspace_id', 'at', 'id'])
    .execute();
  // the retention job: oldest first, whatever the workspace
  await db.schema.createIndex('audit_log_at').on('audit_log').column('at').execute();

  await db.schema.alterTable('submission_notes').addColumn('author_email', 'text').execute();
  await db.schema.alterTable('submission_notes').addColumn('key_id', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('submission_notes').dropColumn('key_id').execute();
  await db.schema.alterTable('submission_notes').dropColumn('author_email').execute();
  await db.schema.dropTable('audit_log').execute();
  await db.schema.dropTable('workspace_invitations').execute();
}
