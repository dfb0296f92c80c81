import { type CipherGCM, createCipheriv, createHash, randomBytes } from 'node:crypto';
import { PassThrough, type Readable, Transform, type TransformCallback, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Envelope } from '../../platform/crypto/envelope.js';
import { countUploadedBytes } from '../../platform/external-memory.js';
import { type FileStore, FileStoreUnavailable } from '../../platform/files/file-store.js';
import { sha256Hex } from '../../platform/hashing.js';
import { newId, randomToken } from '../../platform/ids.js';
import { DEFAULT_MAX_FILE_SIZE } from '../../shared/file-rules.js';
import type { FieldError, PiiMode } from '../../shared/form.js';
import { FIELD_MESSAGES, type FieldMessage, type MessageArgs } from '../../shared/messages.js';
import { inEnglish, refusal } from '../../shared/refusals.js';
import type { Field } from '../forms/schemas.js';
import { safeFileName } from './names.js';
import type { FileEncryption, StoredFile } from './repo.js';
import { type DetectedType, detectType, fitsAccept, SNIFF_BYTES } from './types.js';

/**
 * One file from the socket to storage (API.md §12), never whole in memory: its bytes are
 * counted (refused past `maxFileSize`), hashed, judged by their first bytes against `accept`,
 * streamed through the virus scanner when there is one, encrypted when the field's PII mode
 * says so, and written to the store, which shows the object only once complete. Bytes a PII
 * mode keeps nothing of (hashed, dropped) are read and judged, then thrown away.
 */

const UPLOAD_LIFE_MS = 24 * 3600 * 1000;

/** A scan of one file, fed as it streams (platform/files/clamd.ts). */
export interface ScanSession {
  write(chunk: Buffer): Promise<void>;
  end(): Promise<{ infected: false } | { infected: true; signature: string }>;
  abort(): void;
}

/** Why a file was refused: a message of shared/messages.ts, for the field's error. */
export class FileRefused extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** The refusal as a field's error, sayable in a page's language (shared/messages.ts `refusal`). */
    readonly errorOf: (field: string) => FieldError = (field) => ({ field, code, message }),
  ) {
    super(message);
  }
}

const refuse = <M extends FieldMessage>(entry: M, ...values: MessageArgs<M>) =>
  new FileRefused(entry.code, inEnglish(entry, ...values), (field) => refusal(field, entry, ...values));

export interface IngestInput {
  form: { id: string; workspaceId: string; environment: string };
  field: Field;
  piiMode: PiiMode;
  fileName: string | undefined;
  source: Readable;
  signal?: AbortSignal;
}

export interface IngestDependencies {
  store: FileStore;
  envelope: Envelope;
  /** Starts a virus scan, when scanning is configured. */
  scan?: () => ScanSession;
  /** Writes the row (state `writing`) before any byte is stored, so that a crash leaves nothing unknown. */
  recordWriting(file: StoredFile): Promise<void>;
  /** Removes that row again when the file is refused or fails (its bytes are deleted first). */
  forgetWriting(fileId: string): Promise<void>;
}

/** Counts, hashes and judges the bytes going through; feeds the scanner. */
class Judge extends Transform {
  size = 0;
  private readonly hash = createHash('sha256');
  private head: Buffer[] = [];
  private headLength = 0;
  type: DetectedType | undefined;

  constructor(
    private readonly name: string,
    private readonly maxBytes: number,
    private readonly accept: readonly string[] | undefined,
    private readonly scan: ScanSession | undefined,
  ) {
    super();
  }

  get sha256(): string {
    return this.hash.digest('hex');
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      done(refuse(FIELD_MESSAGES.fileTooLarge, this.name, this.maxBytes));
      return;
    }
    this.hash.update(chunk);
    countUploadedBytes(chunk.length);
    const pass = async () => {
      if (this.type === undefined) {
        this.head.push(chunk);
        this.headLength += chunk.length;
        if (this.headLength >= SNIFF_BYTES) await this.judge();
      }
      if (this.scan) await this.scan.write(chunk);
    };
    pass().then(
      () => done(null, chunk),
      (error: unknown) => done(error as Error),
    );
  }

  override _flush(done: TransformCallback): void {
    if (this.size === 0) {
      done(refuse(FIELD_MESSAGES.fileEmpty, this.name));
      return;
    }
    (this.type === undefined ? this.judge() : Promise.resolve()).then(
      () => done(),
      (error: unknown) => done(error as Error),
    );
  }

  private async judge(): Promise<void> {
    const head = Buffer.concat(this.head).subarray(0, SNIFF_BYTES);
    this.head = [];
    this.type = await detectType(head, this.name);
    if (!fitsAccept(this.accept, this.name, this.type)) {
      // the entries, not English words: a refusal is said again in a page's or a request's language
      throw refuse(FIELD_MESSAGES.fileType, this.name, this.accept ?? []);
    }
  }
}

const KEEPS_BYTES: ReadonlySet<PiiMode> = new Set(['plain', 'masked', 'encrypted']);

/** Streams one file in: the stored file (state `uploaded`), or a `FileRefused`, a store's 503, the source's error. */
export async function ingestFile(input: IngestInput, deps: IngestDependencies): Promise<StoredFile> {
  const { form, field, piiMode } = input;
  const name = safeFileName(input.fileName);
  const keepsBytes = KEEPS_BYTES.has(piiMode);
  const id = newId('fil');
  const createdAt = new Date().toISOString();
  const file: StoredFile = {
    id,
    uploadId: `upl_${randomToken(18)}`,
    workspaceId: form.workspaceId,
    environment: form.environment,
    formId: form.id,
    fieldId: field.id,
    submissionId: null,
    state: 'writing',
    name,
    type: 'application/octet-stream',
    size: 0,
    sha256: '',
    storageKey: keepsBytes ? id.toLowerCase() : null,
    encryption: null,
    createdAt,
    expiresAt: null,
  };
  if (keepsBytes) await deps.recordWriting(file);

  const scan = deps.scan?.();
  const judge = new Judge(name, field.maxFileSize ?? DEFAULT_MAX_FILE_SIZE, field.accept, scan);
  let encryption: { cipher: CipherGCM; key: Buffer; iv: Buffer } | undefined;
  try {
    if (file.storageKey) {
      const stages: Array<Transform> = [judge];
      if (piiMode === 'encrypted') {
        const key = randomBytes(32);
        const iv = randomBytes(12);
        encryption = { cipher: createCipheriv('aes-256-gcm', key, iv), key, iv };
        stages.push(encryption.cipher);
      }
      const body = new PassThrough();
      const flowing = pipeline(input.source, ...(stages as [Transform]), body, { signal: input.signal });
      // The store reads `body`; a failure upstream destroys it, so the store's put fails too. Both
      // are waited for before anything is cleaned up: a put still under way (its temporary file,
      // its multipart upload) would otherwise outlive the refusal and the answer.
      const [streamed, put] = await Promise.allSettled([
        flowing,
        deps.store.put(file.storageKey, body, { signal: input.signal }),
      ]);
      if (put.status === 'rejected' && put.reason instanceof FileStoreUnavailable) throw put.reason;
      if (streamed.status === 'rejected') throw streamed.reason;
      if (put.status === 'rejected') throw put.reason;
    } else {
      const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
      await pipeline(input.source, judge, discard, { signal: input.signal });
    }
    if (scan) {
      const verdict = await scan.end();
      if (verdict.infected) throw refuse(FIELD_MESSAGES.infected, name);
    }
  } catch (error) {
    scan?.abort();
    if (file.storageKey) {
      // best effort: what stays behind (the store or the database down) is swept later by its row
      const deleted = await deps.store.delete(file.storageKey).then(
        () => true,
        () => false,
      );
      if (deleted) await deps.forgetWriting(file.id).catch(() => undefined);
    }
    throw error;
  }

  let stored: FileEncryption | null = null;
  if (encryption) {
    stored = {
      key: await deps.envelope.encrypt(encryption.key.toString('base64')),
      iv: encryption.iv.toString('base64'),
      tag: encryption.cipher.getAuthTag().toString('base64'),
    };
  }
  const sha256 = judge.sha256;
  return {
    ...file,
    state: 'uploaded',
    // a hashed file keeps no name: only its hash, like any hashed answer (API.md §12)
    name: piiMode === 'hashed' ? `sha256:${sha256Hex(name)}` : name,
    type: judge.type?.mime ?? 'application/octet-stream',
    size: judge.size,
    sha256,
    encryption: stored,
    expiresAt: new Date(Date.parse(createdAt) + UPLOAD_LIFE_MS).toISOString(),
  };
}
