import { useEffect, useState } from 'preact/hooks';
import { TextInput } from '../ui/controls.js';
import {
  ACCEPT_PRESETS,
  bytesOfMegabytes,
  DEFAULT_MAX_FILE_SIZE,
  entriesText,
  MOST_FILES,
  megabytesOf,
  otherEntries,
  parseOtherEntries,
  presetStates,
  withOtherEntries,
  withPreset,
} from './file-field.js';
import { Choice } from './inputs.js';
import type { FieldInput } from './model.js';

/**
 * A file field's rules on its card (API.md §12), in sight as a number's range is: how many files
 * one answer holds, the largest file in megabytes, and the kinds of file taken, ticked from a
 * few a person knows by name or typed by hand. The pure rules are file-field.ts's.
 */

const COUNTS = Array.from({ length: MOST_FILES }, (_, i) => ({
  value: String(i + 1),
  label: i === 0 ? 'One file' : `Up to ${i + 1} files`,
}));

export function FileRules({
  id,
  field,
  onChange,
  errorFor,
}: {
  id: string;
  field: FieldInput;
  onChange: (change: Partial<FieldInput>) => void;
  errorFor: (member: string) => string | undefined;
}) {
  return (
    <>
      <Choice
        id={`${id}-max-files`}
        label="Files per answer"
        value={String(field.maxFiles ?? 1)}
        options={COUNTS}
        // one file is the default: said by leaving the member out
        onChange={(count) => onChange({ maxFiles: count === '1' ? undefined : Number(count) })}
        error={errorFor('maxFiles')}
      />
      <LargestFile id={id} bytes={field.maxFileSize} onChange={onChange} error={errorFor('maxFileSize')} />
      <div class="field-editor__wide">
        <AcceptedTypes id={id} accept={field.accept ?? []} onChange={onChange} error={errorFor('accept')} />
      </div>
    </>
  );
}

/**
 * The largest file, typed in megabytes. What was typed is kept as typed ("1.", "0,5") while it
 * stands for the size stored; a size set elsewhere (a reload, a template) replaces it.
 */
function LargestFile({
  id,
  bytes,
  onChange,
  error,
}: {
  id: string;
  bytes: number | undefined;
  onChange: (change: Partial<FieldInput>) => void;
  error: string | undefined;
}) {
  const [text, setText] = useState(() => megabytesOf(bytes));
  const read = bytesOfMegabytes(text);
  useEffect(() => {
    if (bytesOfMegabytes(text).bytes !== bytes) setText(megabytesOf(bytes));
  }, [bytes]);
  return (
    <TextInput
      id={`${id}-max-file-size`}
      label="Largest file (MB)"
      hint={`Blank: ${megabytesOf(DEFAULT_MAX_FILE_SIZE)} MB. No more than your server takes (FILE_MAX_BYTES: 100 MB unless set).`}
      type="text"
      value={text}
      onInput={(typed) => {
        setText(typed);
        const { bytes: next, problem } = bytesOfMegabytes(typed);
        // a size that is none leaves the stored one as it was, and says so beside the box
        if (!problem) onChange({ maxFileSize: next });
      }}
      error={read.problem ?? error}
    />
  );
}

/** The kinds of file taken: a tick per preset, then the other types typed by hand. */
function AcceptedTypes({
  id,
  accept,
  onChange,
  error,
}: {
  id: string;
  accept: readonly string[];
  onChange: (change: Partial<FieldInput>) => void;
  error: string | undefined;
}) {
  const states = presetStates(accept);
  const others = otherEntries(accept);
  // what is typed stays as typed (a half-written ".he", a word not yet an entry) while it stands for the same entries
  const [text, setText] = useState(() => entriesText(others));
  const typed = parseOtherEntries(text);
  const othersKey = others.join('\n').toLowerCase();
  useEffect(() => {
    if (parseOtherEntries(text).entries.join('\n').toLowerCase() !== othersKey) setText(entriesText(others));
  }, [othersKey]);
  const hintId = `${id}-accept-hint`;
  return (
    <fieldset class="file-types" aria-describedby={hintId}>
      <legend>Accepted types</legend>
      <p class="hint" id={hintId}>
        {accept.length === 0
          ? 'Any type of file is taken now. Tick a kind, or type others, to take only those.'
          : 'Only these are taken. The server checks each file’s contents as well as its name.'}
      </p>
      <ul class="file-types__presets">
        {ACCEPT_PRESETS.map((preset) => {
          const state = states.get(preset.key) ?? { state: 'off' };
          const tickId = `${id}-accept-${preset.key}`;
          return (
            <li key={preset.key} class="tick">
              <input
                id={tickId}
                type="checkbox"
                checked={state.state !== 'off'}
                // held by a larger kind that is ticked: it goes with that one
                disabled={state.state === 'within'}
                aria-describedby={state.state === 'within' ? `${tickId}-within` : undefined}
                onChange={(event) =>
                  onChange({ accept: withPreset(accept, preset.key, event.currentTarget.checked) })
                }
              />
              <label for={tickId}>{preset.name}</label>
              {state.state === 'within' && (
                <span class="hint" id={`${tickId}-within`}>
                  (in {state.by.name.replace(/ \(.*\)$/, '')})
                </span>
              )}
            </li>
          );
        })}
      </ul>
      <TextInput
        id={`${id}-accept-other`}
        label="Other types"
        hint="Extensions or media types, separated by commas: .heic, .dwg, application/zip"
        value={text}
        onInput={(next) => {
          setText(next);
          onChange({ accept: withOtherEntries(accept, parseOtherEntries(next).entries) });
        }}
        error={typed.problem ?? error}
      />
    </fieldset>
  );
}
