import type { Envelope } from '../../platform/crypto/envelope.js';
import { hasEncrypted, revealAnswers, revealAnswersInPlace } from './pii.js';
import type { StoredNote, StoredSubmission } from './repo.js';

/** A submission as its owner sees it: masked values masked, encrypted ones decrypted. */
export async function presentSubmission(
  submission: StoredSubmission,
  notes: readonly StoredNote[],
  envelope: Envelope,
) {
  return {
    id: submission.id,
    formId: submission.formId,
    environment: submission.environment,
    // no promise per submission unless something has to be decrypted
    answers: hasEncrypted(submission.answers)
      ? await revealAnswers(submission.answers, envelope)
      : revealAnswersInPlace({ ...submission.answers }),
    sessionId: submission.sessionId,
    status: submission.status,
    read: submission.read,
    starred: submission.starred,
    notes: notes.map((note) => ({ id: note.id, text: note.text, createdAt: note.createdAt })),
    createdAt: submission.createdAt,
  };
}

/** Many submissions with their notes, fetched in one query. */
export async function presentSubmissions(
  submissions: readonly StoredSubmission[],
  notes: readonly StoredNote[],
  envelope: Envelope,
) {
  const bySubmission = new Map<string, StoredNote[]>();
  for (const note of notes) {
    const list = bySubmission.get(note.submissionId);
    if (list) list.push(note);
    else bySubmission.set(note.submissionId, [note]);
  }
  return Promise.all(submissions.map((s) => presentSubmission(s, bySubmission.get(s.id) ?? [], envelope)));
}
