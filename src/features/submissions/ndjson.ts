import { Readable } from 'node:stream';
import type { Envelope } from '../../platform/crypto/envelope.js';
import type { Db } from '../../platform/db/database.js';
import type { StoredForm } from '../forms/repo.js';
import { exportChunks } from './export-chunks.js';
import { hasEncrypted, revealAnswers, revealAnswersInPlace } from './pii.js';
import { type FileLinker, submissionView } from './presenter.js';
import { notesOf, type StoredNote, type SubmissionFilter } from './repo.js';

/**
 * The export as NDJSON (API.md §6.2): one response a line, each exactly as `GET /responses`
 * lists it in `data[]` (answers as the owner sees them, files with their signed links, notes),
 * UTF-8, every line ended by `\n`. For loading into another system rather than a spreadsheet:
 * no column order to keep, no formula guard (nothing evaluates JSON). Read in chunks
 * (export-chunks.ts) and written as they come, as the CSV is.
 */

export function ndjsonStream(
  db: Db,
  envelope: Envelope,
  form: StoredForm,
  filter: SubmissionFilter,
  files: FileLinker,
): Readable {
  async function* lines() {
    for await (const submissions of exportChunks(db, filter)) {
      const notes = new Map<string, StoredNote[]>();
      for (const note of await notesOf(
        db,
        submissions.map((submission) => submission.id),
      )) {
        const list = notes.get(note.submissionId);
        if (list) list.push(note);
        else notes.set(note.submissionId, [note]);
      }
      let text = '';
      for (const submission of submissions) {
        const answers = hasEncrypted(submission.answers)
          ? await revealAnswers(submission.answers, envelope)
          : revealAnswersInPlace(submission.answers);
        const view = submissionView(
          { ...submission, formId: form.id, environment: form.environment },
          files.withLinks(answers),
          notes.get(submission.id) ?? [],
        );
        text += `${JSON.stringify(view)}\n`;
      }
      if (text !== '') yield text;
    }
  }
  return Readable.from(lines(), { objectMode: false });
}
