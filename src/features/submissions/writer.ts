import { Batcher, retryAfterS } from '../../platform/batcher.js';
import type { Envelope } from '../../platform/crypto/envelope.js';
import type { Database, Trx } from '../../platform/db/database.js';
import { isConstraintViolation, isTransactionConflict } from '../../platform/db/dialect.js';
import { StorageUnavailable } from '../../platform/db/unavailable.js';
import { appendToOutbox, type OutboxMessage } from '../../platform/outbox.js';
import { badRequest } from '../../platform/problem.js';
import { FIELD_MESSAGES } from '../../shared/messages.js';
import { refusal } from '../../shared/refusals.js';
import { attachUploads, detachUploads } from '../files/repo.js';
import { uncountAccepted } from '../forms/repo.js';
import { enqueueWebhookEvents, type WebhookEvent } from '../webhooks/events.js';
import { type AddressBook, type AddressClaim, addressBookOf } from './address-claims.js';
import { countStored } from './counters.js';
import { type Idempotency, IdempotencyKeyTaken, recordResult } from './idempotency.js';
import { isPlainBatch, type OneStatementResult, writeInOneStatement } from './one-statement.js';
import { deletePartials, lockPartials, partialSentAlready, restorePartialNotes } from './partials-repo.js';
import type { QuotaScope } from './quota.js';
import { insertSubmissions, type StoredSubmission } from './repo.js';
import {
  acceptedUnlimited,
  claimBatchAddresses,
  countForms,
  countQuota,
  type FormCount,
  type Outcome,
} from './writer-counts.js';

/**
 * Batches the writes of concurrent submissions: whatever arrives while the previous batch
 * commits (or in the same turn of the event loop) is stored by one transaction with one
 * multi-row INSERT per table, one quota upsert per (user, environment) and one commit.
 * On SQLite that is one fsync for the batch; on PostgreSQL a handful of round trips for
 * hundreds of submissions instead of four or five for each, or one (one-statement.ts) when no
 * submission of the batch has a key, an upload or a partial to settle on its own.
 *
 * Each submission is answered after the commit that holds it. Per-submission outcomes stay
 * separate: a submission over quota, or whose idempotency key another request took, is
 * refused alone while the rest of the batch commits. When the batch itself fails (a form
 * deleted meanwhile breaks the foreign key, say), every submission of it is retried in a
 * transaction of its own, so one bad row never fails its neighbours.
 *
 * Under overload it refuses rather than queues without end (503 with `Retry-After`, nothing
 * written): a submission finding `maxQueued` others waiting, and one that waited longer than
 * `deadlineMs` before its batch started. A submission whose batch has started is always
 * answered with that batch's outcome: refusing it then could refuse a stored submission.
 */

export interface SubmissionWrite {
  /** Undefined when the form keeps no copy (`storage.mode` other than `owner`). */
  submission: StoredSubmission | undefined;
  /** Set for accepted submissions: they count against the monthly quota. */
  quota: QuotaScope | undefined;
  idempotency: { formId: string; key: Idempotency; result: { createdAt: string } } | undefined;
  outbox: readonly OutboxMessage[];
  /** `response.created`, for the form's webhooks (none for quarantined submissions). */
  event: WebhookEvent | undefined;
  /** The uploads the submission names, attached in its transaction (each used once: API.md §12). */
  files?: FileAttachment;
  /** An accepted submission, counted against its form's `maxSubmissions` (API.md §15): refused past it. */
  count?: FormCount;
  /** `oncePer: "email"`: the address's keyed hash, taken for the form in the submission's transaction. */
  address?: AddressClaim;
  /** The partial (API.md §15 saved progress) this submission completes: its id is the submission's. */
  completes?: string;
}

export interface FileAttachment {
  submissionId: string;
  formId: string;
  fileIds: readonly string[];
  /** The field each upload answers: a refusal names the fields whose files were taken. */
  fieldOf: Readonly<Record<string, string>>;
  state: 'attached' | 'forwarded';
  expiresAt: string | null;
}

/**
 * Uploads named by a submission were used by another one meanwhile (or swept): the submission
 * is refused, each field whose file is gone named as when the upload id was judged unknown.
 */
const uploadTaken = (fieldIds: readonly string[]) =>
  badRequest('validation_failed', 'A file of this submission was used by another one, or has expired', {
    errors: fieldIds.map((field) => refusal(field, FIELD_MESSAGES.uploadGone)),
  });

/** How long a form whose batch needed the transaction keeps taking it without trying one statement. */
const TRANSACTION_FOR_MS = 60_000;
const MAX_FORMS_REMEMBERED = 10_000;

interface Pending {
  write: SubmissionWrite;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class SubmissionWriter {
  private readonly batcher: Batcher<Pending>;
  /** `oncePer: "email"`'s claims, shared by every writer of the database (address-claims.ts). */
  private readonly addresses: AddressBook;
  /** Forms whose batches take the transaction until then (ms): their last one statement asked for it. */
  private readonly transactionUntil = new Map<string, number>();

  constructor(
    private readonly database: Database,
    private readonly options: {
      /** Batches committing at once: two lets one be built while the other waits on its commit. */
      maxInFlight?: number;
      maxBatch?: number;
      /** Encrypts webhook payloads; without it no webhook event is queued (tests of the writer alone). */
      envelope?: Envelope;
      /** Called after a commit that queued webhook deliveries or other outbox rows. */
      afterCommit?: () => void;
      /** Submissions waiting (not yet in a batch) beyond which new ones are refused at once. */
      maxQueued?: number;
      /** A submission still waiting after this long is refused when its batch is cut. */
      deadlineMs?: number;
      /** `oncePer: "email"`'s claims; by default the database's one book (tests bring their own). */
      addresses?: AddressBook;
    } = {},
  ) {
    this.addresses = options.addresses ?? addressBookOf(database);
    this.batcher = new Batcher((batch) => this.commit(batch), {
      maxInFlight: options.maxInFlight,
      maxBatch: options.maxBatch,
      deadlineMs: options.deadlineMs,
      expire: (pending, waitedMs) =>
        pending.reject(
          new StorageUnavailable(
            `Too many submissions: this one waited ${Math.round(waitedMs)} ms without being written; retry later`,
            retryAfterS(this.batcher),
          ),
        ),
    });
  }

  /** Sizes of the last batches, for tests and the benchmark. */
  get batchSizes(): readonly number[] {
    return this.batcher.batchSizes;
  }

  /** Submissions waiting for a batch. */
  get pending(): number {
    return this.batcher.pending;
  }

  /**
   * Throws when the queue is full. The submit path asks before doing a submission's work
   * (spam checks, validation, encryption): under overload that work would be thrown away.
   */
  assertRoom(): void {
    if (this.options.maxQueued !== undefined && this.batcher.pending >= this.options.maxQueued) {
      throw new StorageUnavailable(
        'Too many submissions are waiting to be written; retry later',
        retryAfterS(this.batcher),
      );
    }
  }

  write(write: SubmissionWrite): Promise<void> {
    try {
      // asked again: the queue may have filled while this submission was being prepared
      this.assertRoom();
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<void>((resolve, reject) => this.batcher.add({ write, resolve, reject }));
  }

  /** Resolves once every write queued, meanwhile too, has been committed or refused (a close waits for it). */
  flush(): Promise<void> {
    return this.batcher.drain();
  }

  private async commit(batch: Pending[]): Promise<void> {
    if (await this.handledByOneStatement(batch)) return;
    let written: { outcomes: Outcome[]; queuedSideEffects: boolean };
    const claims = batch.flatMap(({ write }) => (write.address ? [write.address] : []));
    try {
      // SQLite: a form's claims read the first time a batch claims for it, outside any transaction
      // (read inside one, a release in the same group commit undone with it would be missed)
      if (claims.length > 0)
        await this.addresses.load(
          this.database,
          claims.map((claim) => claim.formId),
        );
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return;
    }
    try {
      written = await this.database.transaction(async (trx) => {
        try {
          return await this.writeBatch(trx, batch);
        } catch (error) {
          // rolled back before the next unit of the shared transaction claims (group-commit.ts)
          this.addresses.doubt(claims);
          throw error;
        }
      });
    } catch (error) {
      // the claims of this batch may or may not have stayed in the log: the log's to say now
      this.addresses.doubt(claims);
      // A constraint refused one write (a form deleted meanwhile breaks the foreign key,
      // say), or PostgreSQL broke a deadlock with it, and the batch was rolled back for certain:
      // each write on its own, so only the one at fault is refused. Anything else (a failed COMMIT, a lost connection, a WAL
      // flush that failed) may have left the batch stored: retrying could store it twice.
      if (batch.length === 1 || !(isConstraintViolation(error) || isTransactionConflict(error))) {
        for (const pending of batch) pending.reject(error);
        return;
      }
      await Promise.all(batch.map((pending) => this.commit([pending])));
      return;
    }
    if (written.queuedSideEffects) this.options.afterCommit?.();
    batch.forEach((pending, index) => {
      const outcome = written.outcomes[index];
      if (outcome?.ok) pending.resolve();
      else pending.reject(outcome ? outcome.error : new Error('write was not carried out'));
    });
  }

  /**
   * PostgreSQL: a plain batch written by one statement (one-statement.ts), each write answered;
   * false when the batch takes the transaction instead, nothing of it written. A form whose batch
   * needed the transaction (a webhook, a limit or quota nearly used up) takes it straight away for
   * a while; one whose batch held an address taken does not (that batch alone takes it).
   */
  private async handledByOneStatement(batch: readonly Pending[]): Promise<boolean> {
    if (this.database.engine !== 'postgres') return false;
    const writes = batch.map((pending) => pending.write);
    if (!isPlainBatch(writes)) return false;
    const now = Date.now();
    const formsOf = () =>
      writes.flatMap(({ count, submission }) => count?.formId ?? submission?.formId ?? []);
    if (
      this.transactionUntil.size > 0 &&
      formsOf().some((form) => (this.transactionUntil.get(form) ?? 0) > now)
    )
      return false;
    let result: OneStatementResult;
    try {
      result = await writeInOneStatement(this.database.db, writes, this.options.envelope !== undefined);
    } catch (error) {
      // as for a failed transaction (below): a constraint's refusal undid all, each write on its own
      if (batch.length > 1 && isConstraintViolation(error)) {
        await Promise.all(batch.map((pending) => this.commit([pending])));
      } else for (const pending of batch) pending.reject(error);
      return true;
    }
    // an address taken is the respondent's, not the form's: its next batch tries the statement again
    if (result === 'address-taken') return false;
    if (result === 'needs-transaction') {
      if (this.transactionUntil.size >= MAX_FORMS_REMEMBERED) this.transactionUntil.clear();
      for (const form of formsOf()) this.transactionUntil.set(form, now + TRANSACTION_FOR_MS);
      return false;
    }
    if (writes.some((write) => write.outbox.length > 0)) this.options.afterCommit?.();
    for (const pending of batch) pending.resolve();
    return true;
  }

  private async writeBatch(
    trx: Trx,
    batch: readonly Pending[],
  ): Promise<{ outcomes: Outcome[]; queuedSideEffects: boolean }> {
    const outcomes: Outcome[] = batch.map(() => ({ ok: true }));
    const refuse = (index: number, error: unknown) => {
      outcomes[index] = { ok: false, error };
    };

    // Idempotency keys first: a request whose key another one holds stores nothing at all.
    // Taken in one order (form, key) by every batch, so two batches never wait on each other crosswise.
    const keyOf = (index: number) => {
      const idempotency = batch[index]?.write.idempotency;
      return idempotency ? `${idempotency.formId}\u0000${idempotency.key.key}` : '';
    };
    const byKey = batch
      .map((_, index) => index)
      .filter((index) => batch[index]?.write.idempotency)
      .sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
    const keyed: number[] = [];
    for (const index of byKey) {
      const write = batch[index]?.write;
      if (!write?.idempotency) continue;
      try {
        await recordResult(trx, write.idempotency.formId, write.idempotency.key, write.idempotency.result);
        keyed.push(index);
      } catch (error) {
        if (!(error instanceof IdempotencyKeyTaken)) throw error;
        refuse(index, error);
      }
    }

    // A partial completed by another post meanwhile keeps its id: this completion stores nothing.
    const completing = batch.flatMap(({ write }, index) =>
      write.completes && outcomes[index]?.ok ? [write.completes] : [],
    );
    if (completing.length > 0) {
      const taken = await lockPartials(trx, this.database.engine, completing);
      for (const [index, { write }] of batch.entries()) {
        if (write.completes && taken.has(write.completes)) refuse(index, partialSentAlready());
      }
    }

    // Uploads before the quota: a submission whose file another took stores nothing and counts nothing.
    const attached: number[] = [];
    for (const [index, { write }] of batch.entries()) {
      if (!write.files || !outcomes[index]?.ok) continue;
      const taken = await attachUploads(trx, write.files);
      if (taken.length === write.files.fileIds.length) attached.push(index);
      else {
        await detachUploads(trx, write.files);
        const { fileIds, fieldOf } = write.files;
        const gone = fileIds.filter((id) => !taken.includes(id)).map((id) => fieldOf[id] ?? 'files');
        refuse(index, uploadTaken([...new Set(gone)]));
      }
    }

    // Addresses, then the forms' counts, then the quota: a refusal by one counts nothing in the next.
    const claimed = await claimBatchAddresses(trx, this.addresses, batch, outcomes, refuse);
    const counted = await countForms(trx, batch, outcomes, refuse);
    await countQuota(trx, batch, outcomes, refuse);
    // A submission refused by the quota gives its place in its form's count back, and its address.
    const uncounted = new Map<string, number>();
    for (const index of counted) {
      const count = batch[index]?.write.count;
      if (!outcomes[index]?.ok && count) uncounted.set(count.formId, (uncounted.get(count.formId) ?? 0) + 1);
    }
    for (const [formId, count] of uncounted) await uncountAccepted(trx, formId, count);
    const released = claimed.flatMap((index) => {
      const address = batch[index]?.write.address;
      return !outcomes[index]?.ok && address ? [address] : [];
    });
    // made and undone in this unit: the address is free again, and these submissions never hold it
    await this.addresses.release(trx, released, true);
    // A submission refused by the quota gives its uploads back: they may be sent again.
    for (const index of attached) {
      const files = batch[index]?.write.files;
      if (!outcomes[index]?.ok && files) await detachUploads(trx, files);
    }
    // A request refused by the quota may be retried with its key: give the key back.
    for (const index of keyed) {
      const idempotency = batch[index]?.write.idempotency;
      if (outcomes[index]?.ok || !idempotency) continue;
      await trx
        .deleteFrom('idempotency_keys')
        .where('form_id', '=', idempotency.formId)
        .where('key', '=', idempotency.key.key)
        .execute();
    }

    const written = batch.filter((_, index) => outcomes[index]?.ok).map(({ write }) => write);
    const keptOfPartials = await deletePartials(
      trx,
      written.flatMap((write) => (write.completes ? [write.completes] : [])),
    );
    const stored = written.flatMap((write) => (write.submission ? [write.submission] : []));
    // a completed partial is the same response: the owner's read, star and notes stay with it
    // (nothing to do, and nothing done, for a batch that completes none: the plain submit path)
    const completed =
      keptOfPartials.size === 0 ? [] : stored.filter((submission) => keptOfPartials.has(submission.id));
    for (const submission of completed) {
      const kept = keptOfPartials.get(submission.id);
      if (kept) Object.assign(submission, { read: kept.read, starred: kept.starred });
    }
    await insertSubmissions(trx, stored);
    // only those stored (a form that stores nothing keeps no row for notes to belong to)
    await restorePartialNotes(
      trx,
      completed.flatMap((submission) => keptOfPartials.get(submission.id)?.notes ?? []),
    );
    await countStored(trx, stored, acceptedUnlimited(batch, outcomes));
    await appendToOutbox(
      trx,
      written.flatMap((write) => write.outbox),
    );
    const events = written.flatMap((write) => (write.event ? [write.event] : []));
    const queued = this.options.envelope ? await enqueueWebhookEvents(trx, this.options.envelope, events) : 0;
    return {
      outcomes,
      queuedSideEffects: queued > 0 || written.some((write) => write.outbox.length > 0),
    };
  }
}
