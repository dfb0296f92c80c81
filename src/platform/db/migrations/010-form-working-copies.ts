import type { Kysely } from 'kysely';

/**
 * The working copy of a published form (API.md §5.5): at most one per form, edited while
 * respondents keep the live definition, and gone with its form (cascade). `draft_of` is the
 * form's version the copy was first made from. It has no status of its own: the status is the
 * form's, changed at once by PUT /forms/{id}.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('form_working_copies')
    .addColumn('form_id', 'text', (c) => c.primaryKey().references('forms.id').onDelete('cascade'))
    .addColumn('draft_of', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}
