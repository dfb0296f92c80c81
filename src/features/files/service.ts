import { createDecipheriv } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { AppContext } from '../../platform/context.js';
import { lockRow } from '../../platform/db/dialect.js';
import type { FileStore } from '../../platform/files/file-store.js';
import { badRequest, Problem } from '../../platform/problem.js';
import { effectiveMaxFileSize } from '../../shared/file-rules.js';
import type { FieldError, FileDescriptor, PiiMode } from '../../shared/form.js';
import { maskText } from '../../shared/mask.js';
import { FIELD_MESSAGES } from '../../shared/messages.js';
import { refusal } from '../../shared/refusals.js';
import { findFormCached, type StoredForm } from '../forms/repo.js';
import type { Field } from '../forms/schemas.js';
import { FileRefused, ingestFile, type ScanSession } from './ingest.js';
import type { FileLinks } from './links.js';
import {
  deleteFileRows,
  findUploads,
  insertFile,
  markUploaded,
  type StoredFile,
  storageUsed,
  unusedUploadIds,
} from './repo.js';

/**
 * Files for the features above (API.md §12): taking one in (the upload route, a multipart
 * submit, a hosted page's post), judging the upload ids a submission names, giving the bytes
 * back (decrypted), and throwing away what a refused submission brought.
 */

/** The PII mode of a field (the same rule as the submissions' pii.ts: the field's, else the form's for `pii` fields). */
export function filePiiMode(field: Field, form: StoredForm): PiiMode {
  if (field.piiMode) return field.piiMode;
  return field.pii ? form.definition.storage.pii : 'plain';
}

/** A stored file as an answer holds it. A hashed file keeps only its name's hash, size and checksum. */
export function descriptorOf(file: StoredFile, piiMode: PiiMode): FileDescriptor {
  if (piiMode === 'hashed')
    return { name: file.name, size: file.size, sha256: file.sha256 } as FileDescriptor;
  return { id: file.id, name: file.name, type: file.type, size: file.size, sha256: file.sha256 };
}

/** A file refused for a field, as the validator reports answers. */
export const refusalOf = (fieldId: string, refused: FileRefused): FieldError => refused.errorOf(fieldId);

export interface ResolvedFiles {
  errors: FieldError[];
  /** Answers with each file field's upload ids replaced by descriptors. */
  answers: Record<string, unknown>;
  /** The uploads named, to attach in the submission's transaction. */
  files: StoredFile[];
}

export class FileService {
  constructor(
    private readonly context: AppContext,
    readonly store: FileStore,
    readonly links: FileLinks,
    private readonly scan?: () => ScanSession,
  ) {}

  /**
   * The name a download of `file` goes by (`Content-Disposition`): its own, masked when its field
   * keeps names masked (API.md §12: "`masked` masks the name in every output"), as the answers'
   * outputs show it. A form or field gone since keeps the name as stored.
   */
  async downloadName(file: StoredFile): Promise<string> {
    const form = await findFormCached(this.context.database.db, file.formId);
    const field = form?.definition.fields.find((candidate) => candidate.id === file.fieldId);
    return form && field && filePiiMode(field, form) === 'masked' ? maskText(file.name) : file.name;
  }

  /** UPLOAD_MAX_BYTES: the largest body carrying files. */
  get uploadMaxBytes(): number {
    return this.context.config.uploadMaxBytes;
  }

  /**
   * The uploads a page's answers hold for each file field (API.md §12, the hosted page: listed
   * under the field and posted again), unused and of this form; ids that are not are left out.
   */
  async pageUploads(
    form: StoredForm,
    answers: Record<string, unknown>,
  ): Promise<Record<string, Array<{ uploadId: string; name: string; size: number; type: string }>>> {
    const fileFields = form.definition.fields.filter((field) => field.type === 'file');
    const ids = fileFields.flatMap((field) => {
      const value = answers[field.id];
      return (Array.isArray(value) ? value : [value]).filter((id): id is string => typeof id === 'string');
    });
    if (ids.length === 0) return {};
    const found = new Map(
      (await findUploads(this.context.database.db, form.id, ids)).map((file) => [file.uploadId, file]),
    );
    const uploads: Record<string, Array<{ uploadId: string; name: string; size: number; type: string }>> = {};
    for (const field of fileFields) {
      const value = answers[field.id];
      const list = (Array.isArray(value) ? value : [value]).flatMap((id) => {
        const file = typeof id === 'string' ? found.get(id) : undefined;
        if (!file || file.fieldId !== field.id || file.state !== 'uploaded') return [];
        return [{ uploadId: file.uploadId, name: file.name, size: file.size, type: file.type }];
      });
      if (list.length > 0) uploads[field.id] = list;
    }
    return uploads;
  }

  /** The form's file field `fieldId`, or a 400 naming it. */
  fileField(form: StoredForm, fieldId: string, member = 'field'): Field {
    const field = form.definition.fields.find((candidate) => candidate.id === fieldId);
    if (field?.type !== 'file') {
      throw badRequest('validation_failed', `The form has no file field "${fieldId}"`, {
        errors: [
          {
            field: member,
            code: 'unknown_field',
            message: `names no file field of this form ("${fieldId}")`,
          },
        ],
      });
    }
    return field;
  }

  /**
   * 429 quota_exceeded before a file is read when the environment's files fill
   * STORAGE_QUOTA_BYTES already (no byte is taken for nothing). Whether a file fits is decided
   * again, exactly, when it is admitted (`admit`).
   */
  async assertStorageRoom(form: StoredForm): Promise<void> {
    const quota = this.context.config.storageQuotaBytes;
    if (quota === 0) return;
    const used = await storageUsed(this.context.database.db, form.workspaceId, form.environment);
    if (used >= quota) throw quotaExceeded(used, quota);
  }

  /**
   * Marks a stored file uploaded, if it fits the quota. The count and the mark are one
   * transaction holding the environment's row, so that of two uploads racing for the last
   * bytes exactly the ones that fit are kept, on one instance or many (a count read before
   * the write would let both in, or refuse both).
   */
  private async admit(form: StoredForm, file: StoredFile): Promise<void> {
    const quota = this.context.config.storageQuotaBytes;
    const { database } = this.context;
    if (quota === 0) {
      await markUploaded(database.db, file);
      return;
    }
    await database.transaction(async (trx) => {
      await lockRow(
        database.engine,
        trx
          .selectFrom('environments')
          .select('name')
          .where('workspace_id', '=', form.workspaceId)
          .where('name', '=', form.environment),
      ).execute();
      // this file's own row counts nothing yet: its size is written by the mark
      const used = await storageUsed(trx, form.workspaceId, form.environment);
      if (used + file.size > quota) throw quotaExceeded(used, quota);
      await markUploaded(trx, file);
    });
  }

  /**
   * Streams one file of `field` into storage as an upload: the stored file, or a problem (400
   * validation_failed naming the field, 429 quota_exceeded, 503 when the store cannot take it).
   */
  async take(
    form: StoredForm,
    field: Field,
    fileName: string | undefined,
    source: Readable,
    signal?: AbortSignal,
  ): Promise<StoredFile> {
    await this.assertStorageRoom(form);
    const { database, envelope } = this.context;
    const piiMode = filePiiMode(field, form);
    let file: StoredFile;
    try {
      const maxFileSize = effectiveMaxFileSize(field, this.context.config.fileMaxBytes);
      file = await ingestFile(
        { form, field: { ...field, maxFileSize }, piiMode, fileName, source, signal },
        {
          store: this.store,
          envelope,
          scan: this.scan,
          recordWriting: (writing) => insertFile(database.db, writing),
          forgetWriting: (id) => deleteFileRows(database.db, [id]),
        },
      );
    } catch (error) {
      if (error instanceof FileRefused) {
        throw badRequest('validation_failed', `The file was refused: ${error.message}`, {
          errors: [refusalOf(field.id, error)],
        });
      }
      throw error;
    }
    try {
      if (file.storageKey) await this.admit(form, file);
      else await insertFile(database.db, file);
    } catch (error) {
      await this.discard([file]);
      throw error;
    }
    await database.durable();
    return file;
  }

  /** Throws away uploads a refused submission brought (bytes, then rows); best effort, the sweep gets the rest. */
  async discard(files: readonly StoredFile[]): Promise<void> {
    const gone: string[] = [];
    for (const file of files) {
      try {
        if (file.storageKey) await this.store.delete(file.storageKey);
        gone.push(file.id);
      } catch {
        // left for the sweep: its row still names the bytes
      }
    }
    await deleteFileRows(this.context.database.db, gone).catch(() => undefined);
  }

  /**
   * Throws away those of `files` no submission took (a post refused, or answered with an earlier
   * result of its Idempotency-Key): uploads only this request knows the ids of, so none can be
   * taken between the read and the delete. Never fails: what it cannot reach, the sweep finds
   * (an upload unused for a day).
   */
  async discardUnused(files: readonly StoredFile[]): Promise<void> {
    if (files.length === 0) return;
    try {
      const ids = files.map((file) => file.id);
      const unused = new Set(await unusedUploadIds(this.context.database.db, ids));
      if (unused.size > 0) await this.discard(files.filter((file) => unused.has(file.id)));
    } catch {
      // left for the sweep
    }
  }

  /**
   * The upload ids the answers give for the form's file fields, judged: each must be an upload
   * of this form and field, unused and unexpired (else the field's error, `unknown_upload`).
   * The answers come back with descriptors in their place.
   */
  async resolve(form: StoredForm, answers: Record<string, unknown>): Promise<ResolvedFiles> {
    const fileFields = form.definition.fields.filter((field) => field.type === 'file');
    const named = fileFields.flatMap((field) => {
      const value = answers[field.id];
      return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
    });
    if (named.length === 0) return { errors: [], answers, files: [] };
    const found = new Map(
      (await findUploads(this.context.database.db, form.id, named)).map((file) => [file.uploadId, file]),
    );
    const now = new Date().toISOString();
    const errors: FieldError[] = [];
    const files: StoredFile[] = [];
    const resolved: Record<string, unknown> = { ...answers };
    for (const field of fileFields) {
      const value = answers[field.id];
      if (!Array.isArray(value)) continue;
      const piiMode = filePiiMode(field, form);
      const descriptors: FileDescriptor[] = [];
      for (const uploadId of value) {
        const file = typeof uploadId === 'string' ? found.get(uploadId) : undefined;
        if (!file || file.fieldId !== field.id || file.state !== 'uploaded' || (file.expiresAt ?? '') < now) {
          errors.push(refusal(field.id, FIELD_MESSAGES.uploadGone));
          break;
        }
        files.push(file);
        descriptors.push(descriptorOf(file, piiMode));
      }
      resolved[field.id] = descriptors;
    }
    return { errors, answers: resolved, files };
  }

  /**
   * Answers as an output shows them (API.md §12: JSON, webhooks, mail, CSV): each stored file's
   * descriptor with `url`, its signed link. Values that are not file answers are left alone.
   */
  withLinks<T>(answers: Record<string, T>): Record<string, T> {
    let copy: Record<string, T> | undefined;
    // for…in, not Object.entries: no array of pairs for every submission of a page or an export
    for (const id in answers) {
      if (!Object.hasOwn(answers, id)) continue;
      const value = answers[id];
      if (!Array.isArray(value) || typeof value[0] !== 'object' || value[0] === null) continue;
      copy ??= { ...answers };
      copy[id] = (value as FileDescriptor[]).map((file) =>
        file.id ? { ...file, url: this.links.url(file.id) } : file,
      ) as T;
    }
    return copy ?? answers;
  }

  /** A stored file's bytes as they were sent (decrypted), or bytes `start`..`end` of a file stored plain. */
  async open(file: StoredFile, range?: { start: number; end: number }): Promise<Readable> {
    if (!file.storageKey) throw new Problem(404, 'not_found', 'Only a checksum of this file was kept');
    if (!file.encryption) return this.store.get(file.storageKey, range);
    const key = Buffer.from(await this.context.envelope.decrypt(file.encryption.key), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(file.encryption.iv, 'base64'));
    decipher.setAuthTag(Buffer.from(file.encryption.tag, 'base64'));
    const source = await this.store.get(file.storageKey);
    source.on('error', (error) => decipher.destroy(error));
    return source.pipe(decipher);
  }
}

function quotaExceeded(used: number, quota: number): Problem {
  return new Problem(
    429,
    'quota_exceeded',
    `The environment's files take ${used} of the ${quota} bytes it may keep (STORAGE_QUOTA_BYTES); delete responses with files to make room`,
    { headers: { 'retry-after': '3600' } },
  );
}
