import type { Trx } from '../../platform/db/database.js';
import { countAccepted } from '../forms/repo.js';
import type { AddressBook, AddressClaim } from './address-claims.js';
import { inKeyOrder } from './counters.js';
import { countManyAgainstQuota, type QuotaScope, quotaExceeded, usageKey } from './quota.js';

/**
 * The counts a submission batch takes in its transaction (writer.ts), each all or nothing per
 * submission: `oncePer: "email"` addresses, each form's `maxSubmissions`, the monthly quota.
 * Each takes its rows in one order, so two batches never wait on each other crosswise.
 */

export interface FormCount {
  formId: string;
  /** `access.maxSubmissions`; undefined counts without a limit. */
  max: number | undefined;
  /** The refusal once the form is full (403 form_closed). */
  refusal: () => unknown;
}

/** How one submission of a batch ended so far. */
export type Outcome = { ok: true } | { ok: false; error: unknown };

/** What these counts read of each write of a batch. */
interface Pending {
  write: { address?: AddressClaim; count?: FormCount; quota?: QuotaScope };
}

/**
 * `oncePer: "email"`: every address the batch claims, taken at once (address-claims.ts); a
 * submission whose address was taken already (or by an earlier one of this batch) is refused.
 * The indexes that claimed.
 */
export async function claimBatchAddresses(
  trx: Trx,
  book: AddressBook,
  batch: readonly Pending[],
  outcomes: readonly Outcome[],
  refuse: (index: number, error: unknown) => void,
): Promise<number[]> {
  const claims = batch.flatMap(({ write }, index) =>
    write.address && outcomes[index]?.ok === true ? [{ index, address: write.address }] : [],
  );
  if (claims.length === 0) return [];
  const won = await book.claim(
    trx,
    claims.map(({ address }) => address),
  );
  const claimed: number[] = [];
  for (const { index, address } of claims) {
    if (won.has(address.submissionId)) claimed.push(index);
    else refuse(index, address.refusal());
  }
  return claimed;
}

/**
 * Each form's accepted submissions, counted against its `maxSubmissions`: one conditional upsert
 * per form for the batch (forms in one order); when the batch does not fit, one by one, so that
 * exactly the submissions up to the limit are accepted. The indexes counted. A form without a
 * limit is counted at the end of the batch instead, with what the batch kept (`acceptedUnlimited`,
 * counters.ts `countStored`): nothing to refuse, and one statement less.
 */
export async function countForms(
  trx: Trx,
  batch: readonly Pending[],
  outcomes: readonly Outcome[],
  refuse: (index: number, error: unknown) => void,
): Promise<number[]> {
  const groups = new Map<string, { max: number; indexes: number[] }>();
  for (const [index, { write }] of batch.entries()) {
    if (write.count?.max === undefined || !outcomes[index]?.ok) continue;
    const group = groups.get(write.count.formId) ?? { max: write.count.max, indexes: [] };
    group.indexes.push(index);
    groups.set(write.count.formId, group);
  }
  const counted: number[] = [];
  for (const [formId, { max, indexes }] of inKeyOrder(groups)) {
    if (await countAccepted(trx, formId, indexes.length, max)) {
      counted.push(...indexes);
      continue;
    }
    let full = false;
    for (const index of indexes) {
      if (!full && (await countAccepted(trx, formId, 1, max))) counted.push(index);
      else {
        // the count only grows within the transaction: once one does not fit, none after it does
        full = true;
        refuse(index, batch[index]?.write.count?.refusal());
      }
    }
  }
  return counted;
}

/** The submissions the batch keeps of each form without `maxSubmissions`, for counters.ts `countStored`. */
export function acceptedUnlimited(
  batch: readonly Pending[],
  outcomes: readonly Outcome[],
): Map<string, number> {
  const accepted = new Map<string, number>();
  for (const [index, { write }] of batch.entries()) {
    if (!write.count || write.count.max !== undefined || !outcomes[index]?.ok) continue;
    accepted.set(write.count.formId, (accepted.get(write.count.formId) ?? 0) + 1);
  }
  return accepted;
}

/**
 * One conditional upsert per (user, environment, month) for the whole batch; only when
 * the batch does not fit into what is left of the quota is it counted one by one, so
 * exactly the submissions up to the quota are accepted.
 */
export async function countQuota(
  trx: Trx,
  batch: readonly Pending[],
  outcomes: readonly Outcome[],
  refuse: (index: number, error: unknown) => void,
): Promise<void> {
  const groups = new Map<string, { scope: QuotaScope; indexes: number[] }>();
  for (const [index, { write }] of batch.entries()) {
    if (!write.quota || write.quota.quota === 0 || !outcomes[index]?.ok) continue;
    const name = usageKey(write.quota);
    const group = groups.get(name) ?? { scope: write.quota, indexes: [] };
    group.indexes.push(index);
    groups.set(name, group);
  }
  // Quota rows locked in one order by every batch (and instance): no deadlock between two batches.
  for (const [, { scope, indexes }] of inKeyOrder(groups)) {
    if (await countManyAgainstQuota(trx, scope, indexes.length)) continue;
    for (const index of indexes) {
      const unitScope = batch[index]?.write.quota ?? scope;
      if (!(await countManyAgainstQuota(trx, unitScope, 1))) refuse(index, quotaExceeded(unitScope));
    }
  }
}
