import type { Db, Trx } from '../../platform/db/database.js';
import type { FilesTable } from '../../platform/db/schema.js';

/** A file as Intake keeps it (camelCase over `files`, migration 011). */
export interface StoredFile {
  id: string;
  uploadId: string;
  workspaceId: string;
  environment: string;
  formId: string;
  fieldId: string;
  submissionId: string | null;
  state: FilesTable['state'];
  name: string;
  type: string;
  size: number;
  sha256: string;
  storageKey: string | null;
  /** The bytes are stored encrypted: their key (envelope-encrypted), IV and tag. */
  encryption: FileEncryption | null;
  createdAt: string;
  expiresAt: string | null;
}

export interface FileEncryption {
  key: string;
  iv: string;
  tag: string;
}

type Row = FilesTable;

const toRow = (file: StoredFile): Row => ({
  id: file.id,
  upload_id: file.uploadId,
  workspace_id: file.workspaceId,
  environment: file.environment,
  form_id: file.formId,
  field_id: file.fieldId,
  submission_id: file.submissionId,
  state: file.state,
  name: file.name,
  type: file.type,
  size: file.size,
  sha256: file.sha256,
  storage_key: file.storageKey,
  encryption: file.encryption ? JSON.stringify(file.encryption) : null,
  created_at: file.createdAt,
  expires_at: file.expiresAt,
});

export const fromRow = (row: Row): StoredFile => ({
  id: row.id,
  uploadId: row.upload_id,
  workspaceId: row.workspace_id,
  environment: row.environment,
  formId: row.form_id,
  fieldId: row.field_id,
  submissionId: row.submission_id,
  state: row.state,
  name: row.name,
  type: row.type,
  size: Number(row.size),
  sha256: row.sha256,
  storageKey: row.storage_key,
  encryption: row.encryption ? (JSON.parse(row.encryption) as FileEncryption) : null,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
});

export async function insertFile(db: Db | Trx, file: StoredFile): Promise<void> {
  await db.insertInto('files').values(toRow(file)).execute();
}

/** The judged file, its bytes stored: an upload to submit with until `expiresAt`. */
export async function markUploaded(db: Db | Trx, file: StoredFile): Promise<void> {
  await db
    .updateTable('files')
    .set({
      state: 'uploaded',
      name: file.name,
      type: file.type,
      size: file.size,
      sha256: file.sha256,
      encryption: file.encryption ? JSON.stringify(file.encryption) : null,
      expires_at: file.expiresAt,
    })
    .where('id', '=', file.id)
    .execute();
}

export async function deleteFileRows(db: Db | Trx, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('files').where('id', 'in', ids).execute();
}

/** Those of the files `ids` that are uploads no submission took. */
export async function unusedUploadIds(db: Db | Trx, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('files')
    .select('id')
    .where('id', 'in', ids)
    .where('state', '=', 'uploaded')
    .where('submission_id', 'is', null)
    .execute();
  return rows.map((row) => row.id);
}

/** Uploads of a form by their ids, whatever their state: the submit path judges each. */
export async function findUploads(
  db: Db | Trx,
  formId: string,
  uploadIds: readonly string[],
): Promise<StoredFile[]> {
  if (uploadIds.length === 0) return [];
  const rows = await db
    .selectFrom('files')
    .selectAll()
    .where('form_id', '=', formId)
    .where('upload_id', 'in', uploadIds)
    .execute();
  return rows.map(fromRow);
}

/**
 * Attaches uploads to the submission being stored, in its transaction: only uploads still
 * unused take part, so of two submissions naming one upload exactly one gets it. The ids
 * attached, for the writer to compare with those named.
 */
export async function attachUploads(
  trx: Trx,
  attachment: {
    submissionId: string;
    formId: string;
    fileIds: readonly string[];
    state: 'attached' | 'forwarded';
    expiresAt: string | null;
  },
): Promise<string[]> {
  if (attachment.fileIds.length === 0) return [];
  const rows = await trx
    .updateTable('files')
    .set({
      state: attachment.state,
      submission_id: attachment.submissionId,
      expires_at: attachment.expiresAt,
    })
    .where('id', 'in', attachment.fileIds)
    .where('form_id', '=', attachment.formId)
    .where('state', '=', 'uploaded')
    .where('submission_id', 'is', null)
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

/** Undoes `attachUploads` within the same transaction (the submission was refused after all). */
export async function detachUploads(trx: Trx, attachment: { submissionId: string }): Promise<void> {
  await trx
    .updateTable('files')
    // an upload's day starts again: it may be sent once more
    .set({
      state: 'uploaded',
      submission_id: null,
      expires_at: new Date(Date.now() + 24 * 3600 * 1000).toISOString(),
    })
    .where('submission_id', '=', attachment.submissionId)
    .execute();
}

export async function findFile(db: Db | Trx, id: string): Promise<StoredFile | undefined> {
  const row = await db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
  return row && fromRow(row);
}

/**
 * A file its signed link may still serve: attached to a submission that exists, or forwarded by a
 * form that exists. A submission or form deleted leaves its file rows for the sweep, which removes
 * the bytes a moment later (or later still, when the store cannot be reached): until then their
 * links must already be dead, as the owner's download is.
 */
export async function findLinkedFile(db: Db, id: string): Promise<StoredFile | undefined> {
  const row = await db
    .selectFrom('files')
    .innerJoin('forms', 'forms.id', 'files.form_id')
    .leftJoin('submissions', 'submissions.id', 'files.submission_id')
    .selectAll('files')
    .where('files.id', '=', id)
    .where((eb) =>
      eb.or([
        eb.and([eb('files.state', '=', 'attached'), eb('submissions.id', 'is not', null)]),
        eb('files.state', '=', 'forwarded'),
      ]),
    )
    .executeTakeFirst();
  return row && fromRow(row);
}

/** The files of one submission. */
export async function filesOfSubmission(db: Db | Trx, submissionId: string): Promise<StoredFile[]> {
  const rows = await db.selectFrom('files').selectAll().where('submission_id', '=', submissionId).execute();
  return rows.map(fromRow);
}

/** Bytes of files kept for a user's environment, or one form of it (STORAGE_QUOTA_BYTES, `storageBytes`). */
export async function storageUsed(
  db: Db | Trx,
  workspaceId: string,
  environment: string,
  formId?: string,
): Promise<number> {
  let query = db
    .selectFrom('files')
    .select((eb) => eb.fn.sum<number | string | null>('size').as('bytes'))
    .where('workspace_id', '=', workspaceId)
    .where('environment', '=', environment)
    .where('storage_key', 'is not', null);
  if (formId !== undefined) query = query.where('form_id', '=', formId);
  const row = await query.executeTakeFirst();
  return Number(row?.bytes ?? 0);
}

/**
 * Files whose time is over, for the sweep: uploads never used (or whose write never ended)
 * past their expiry, forwarded files past their links' life, attached files whose submission
 * is gone (deleted, retained away, its form deleted), and uploads of a deleted form.
 */
export async function findSweepable(
  db: Db,
  now: string,
  staleWriteBefore: string,
  limit: number,
): Promise<StoredFile[]> {
  const expired = await db
    .selectFrom('files')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('state', 'in', ['uploaded', 'forwarded']), eb('expires_at', '<', now)]),
        eb.and([eb('state', '=', 'writing'), eb('created_at', '<', staleWriteBefore)]),
      ]),
    )
    .limit(limit)
    .execute();
  const orphaned = await db
    .selectFrom('files')
    .leftJoin('submissions', 'submissions.id', 'files.submission_id')
    .selectAll('files')
    .where('files.state', '=', 'attached')
    .where('submissions.id', 'is', null)
    .limit(limit)
    .execute();
  // uploads (and forwarded files) of a form deleted since
  const formless = await db
    .selectFrom('files')
    .leftJoin('forms', 'forms.id', 'files.form_id')
    .selectAll('files')
    .where('files.state', 'in', ['uploaded', 'forwarded'])
    .where('forms.id', 'is', null)
    .limit(limit)
    .execute();
  const unique = new Map([...expired, ...orphaned, ...formless].map((row) => [row.id, row]));
  return [...unique.values()].map(fromRow);
}
