import type { Envelope } from '../../platform/crypto/envelope.js';
import { hasEncrypted, revealAnswers, revealAnswersCopied } from './pii.js';
import type { StoredNote, StoredSubmission } from './repo.js';
import type { AnswerValue } from './validator.js';

/** A submission as its owner sees it, given the answers as shown (see `presentSubmission`). */
export function submissionView(
  submission: Pick<
    StoredSubmission,
    'id' | 'formId' | 'environment' | 'sessionId' | 'status' | 'read' | 'starred' | 'language' | 'createdAt'
  >,
  answers: Record<string, AnswerValue>,
  notes: readonly StoredNote[],
) {
  return {
    id: submission.id,
    formId: submission.formId,
    environment: submission.environment,
    answers,
    sessionId: submission.sessionId,
    status: submission.status,
    read: submission.read,
    starred: submission.starred,
    language: submission.language,
    notes: notes.map((note) => ({
      id: note.id,
      text: note.text,
      createdAt: note.createdAt,
      author: note.author && {
        userId: note.author.userId,
        email: note.author.email,
        ...(note.author.keyId === null ? {} : { keyId: note.author.keyId }),
      },
    })),
    createdAt: submission.createdAt,
  };
}

/** A submission as its owner sees it: masked values masked, encrypted ones decrypted. */
export async function presentSubmission(
  submission: StoredSubmission,
  notes: readonly StoredNote[],
  envelope: Envelope,
  files: FileLinker,
) {
  const answers = hasEncrypted(submission.answers)
    ? await revealAnswers(submission.answers, envelope)
    : revealAnswersCopied(submission.answers);
  return submissionView(submission, files.withLinks(answers), notes);
}

/** `presentSubmission` of a submission with nothing encrypted: no promise. */
function presentPlainSubmission(
  submission: StoredSubmission,
  notes: readonly StoredNote[],
  files: FileLinker,
) {
  return submissionView(submission, files.withLinks(revealAnswersCopied(submission.answers)), notes);
}

/** Gives each file of the answers its signed link (features/files `FileService.withLinks`). */
export interface FileLinker {
  withLinks<T>(answers: Record<string, T>): Record<string, T>;
}

/** Many submissions with their notes, fetched in one query. */
export async function presentSubmissions(
  submissions: readonly StoredSubmission[],
  notes: readonly StoredNote[],
  envelope: Envelope,
  files: FileLinker,
) {
  const bySubmission = new Map<string, StoredNote[]>();
  for (const note of notes) {
    const list = bySubmission.get(note.submissionId);
    if (list) list.push(note);
    else bySubmission.set(note.submissionId, [note]);
  }
  // a promise per submission only when a page holds something to decrypt
  if (!submissions.some((s) => hasEncrypted(s.answers)))
    return submissions.map((s) => presentPlainSubmission(s, bySubmission.get(s.id) ?? [], files));
  return Promise.all(
    submissions.map((s) => presentSubmission(s, bySubmission.get(s.id) ?? [], envelope, files)),
  );
}
