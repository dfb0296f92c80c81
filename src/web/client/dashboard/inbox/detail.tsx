import { useState } from 'preact/hooks';
import { api, ok } from '../api/client.js';
import { useSession } from '../session.js';
import { may, needs } from '../teams/roles.js';
import { useAction } from '../ui/action.js';
import { ConfirmButton } from '../ui/confirm.js';
import { Notice, TextInput } from '../ui/controls.js';
import { answerWords } from './answers.js';
import { FileList } from './file-list.js';
import { filesOf } from './files.js';
import { ago, type InboxForm, noteAuthor, recipientOf, type Submission, when } from './model.js';

/**
 * One response opened in the inbox: read/unread, star (answered at once by the list, see
 * view.tsx), reply and delete first, where a phone shows them without scrolling past the
 * answers; then its answers by label in the form's order, as a person reads them (answers.ts;
 * files listed with their downloads, file-list.tsx), the owner's notes, and the reply by e-mail
 * to the address it gave.
 */
export function Detail({
  form,
  submission,
  toggle,
  addedNote,
  remove,
}: {
  form: InboxForm;
  submission: Submission;
  toggle: (member: 'read' | 'starred') => void;
  /** The server's view of this response after a note was added (its notes are taken). */
  addedNote: (next: Submission) => void;
  remove: () => Promise<void>;
}) {
  // the form's order, then answers to fields the form no longer has (by their id)
  const fieldIds = form.fields.map((field) => field.id);
  const answered = [
    ...fieldIds.filter((id) => Object.hasOwn(submission.answers, id)),
    ...Object.keys(submission.answers).filter((id) => !fieldIds.includes(id)),
  ];
  const canReply = recipientOf(form, submission) !== undefined;
  const { role } = useSession();
  const deletes = may(role, 'manageForms');
  // the reply's message field, further down: where the person writes it
  const toReply = () => {
    const message = document.getElementById('reply-message');
    message?.scrollIntoView({ block: 'center' });
    message?.focus();
  };
  return (
    <article class="inbox__detail" aria-labelledby="detail-title">
      <h2 id="detail-title">Response of {when(submission.createdAt)}</h2>
      <p class="muted">
        {submission.status === 'partial' ? 'in progress: saved on the way, not sent yet' : submission.status}
        {submission.status === 'partial' ? '' : submission.read ? ' · read' : ' · unread'}
        {submission.starred ? ' · starred' : ''}
        {submission.language ? ` · in ${languageName(submission.language)}` : ''}
      </p>
      <p class="actions inbox__actions">
        <button class="button" type="button" onClick={() => toggle('read')}>
          {submission.read ? 'Mark unread' : 'Mark read'}
        </button>
        <button class="button" type="button" onClick={() => toggle('starred')}>
          {submission.starred ? 'Unstar' : 'Star'}
        </button>
        {canReply && (
          <button class="button" type="button" onClick={toReply}>
            Reply
          </button>
        )}
        {deletes && (
          <ConfirmButton
            label="Delete"
            question="Delete this response for good?"
            confirmLabel="Delete response"
            onConfirm={remove}
          />
        )}
      </p>
      {!deletes && <p class="hint">Deleting a response: {needs(role, 'manageForms').toLowerCase()}</p>}
      <dl class="answers">
        {answered.map((id) => {
          const field = form.fields.find((candidate) => candidate.id === id);
          const value = submission.answers[id];
          const files = filesOf(value);
          return (
            <div key={id}>
              <dt>{field?.label ?? id}</dt>
              <dd>
                {files ? <FileList submissionId={submission.id} files={files} /> : answerWords(field, value)}
              </dd>
            </div>
          );
        })}
      </dl>
      <Notes submission={submission} addedNote={addedNote} />
      <Reply form={form} submission={submission} />
    </article>
  );
}

function Notes({ submission, addedNote }: { submission: Submission; addedNote: (next: Submission) => void }) {
  const { workspace } = useSession();
  const [text, setText] = useState('');
  const [empty, setEmpty] = useState(false);
  const { busy, error, run } = useAction();
  const add = (event: Event) => {
    event.preventDefault();
    setEmpty(text.trim() === '');
    if (text.trim() === '') return;
    void run(async () => {
      addedNote(
        await ok(
          api.POST('/responses/{id}/notes', { params: { path: { id: submission.id } }, body: { text } }),
        ),
      );
      setText('');
    });
  };
  return (
    <section class="inbox__notes" aria-labelledby="notes-title">
      <h3 id="notes-title">Notes</h3>
      {submission.notes.length === 0 ? (
        <p class="muted">
          {workspace && !workspace.personal
            ? 'No notes yet. Everyone in this workspace sees them; respondents never do.'
            : 'No notes yet. Only you see them.'}
        </p>
      ) : (
        <ul class="notes">
          {submission.notes.map((note) => (
            <li key={note.id}>
              <p class="notes__text">{note.text}</p>
              <p class="muted">
                {noteAuthor(note)} ·{' '}
                <time dateTime={note.createdAt} title={when(note.createdAt)}>
                  {ago(note.createdAt)}
                </time>
              </p>
            </li>
          ))}
        </ul>
      )}
      <form class="stack" onSubmit={add} noValidate>
        <TextInput
          id="note-text"
          label="Note"
          multiline
          required
          value={text}
          onInput={setText}
          error={empty ? 'Write the note first' : error && (error.about('text') ?? error.message)}
        />
        <button class="button" type="submit" disabled={busy}>
          Add note
        </button>
      </form>
    </section>
  );
}

function Reply({ form, submission }: { form: InboxForm; submission: Submission }) {
  const to = recipientOf(form, submission);
  // (the detail is drawn afresh for each response: what was typed stays with the one it was typed on)
  const [subject, setSubject] = useState(`Re: ${form.title}`);
  const [message, setMessage] = useState('');
  const [sent, setSent] = useState<string>();
  const [empty, setEmpty] = useState(false);
  const { busy, error, run } = useAction();
  if (!to)
    return (
      <section class="inbox__reply" aria-labelledby="reply-title">
        <h3 id="reply-title">Reply by e-mail</h3>
        <p class="muted">This response gave no e-mail address to reply to.</p>
      </section>
    );
  const send = (event: Event) => {
    event.preventDefault();
    setEmpty(message.trim() === '');
    if (message.trim() === '') return;
    setSent(undefined);
    void run(async () => {
      const answer = await ok(
        api.POST('/responses/{id}/reply', {
          params: { path: { id: submission.id } },
          body: { message, ...(subject.trim() ? { subject } : {}) },
        }),
      );
      setSent(answer.to);
      setMessage('');
    });
  };
  const general = error && !error.about('message') && !error.about('subject');
  return (
    <section class="inbox__reply" aria-labelledby="reply-title">
      <h3 id="reply-title">Reply by e-mail</h3>
      <p class="muted">To {to}</p>
      {sent && <Notice kind="success">Reply sent to {sent}.</Notice>}
      {general && (
        <Notice kind="error" announce={error}>
          {error.message}
        </Notice>
      )}
      <form class="stack" onSubmit={send} noValidate>
        <TextInput
          id="reply-subject"
          label="Subject"
          value={subject}
          onInput={setSubject}
          error={error?.about('subject')}
        />
        <TextInput
          id="reply-message"
          label="Message"
          multiline
          required
          value={message}
          onInput={setMessage}
          error={empty ? 'Write the message first' : error?.about('message')}
        />
        <button class="button button--primary" type="submit" disabled={busy}>
          Send reply
        </button>
      </form>
    </section>
  );
}

/** A language tag in words, in English like the rest of the dashboard ("German"), else the tag itself. */
function languageName(tag: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}
