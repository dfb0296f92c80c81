import type { FieldOption } from '../../../../shared/form.js';
import { TextInput } from '../ui/controls.js';
import {
  moved,
  nextOptionLabel,
  optionLabel,
  optionValue,
  withOptionLabel,
  withOptionValue,
} from './field-model.js';
import { useFocusAfterRender } from './focus-after.js';

/**
 * A choice's options, one row each: its words, and buttons to move it up or down and remove it
 * (no dragging: WCAG 2.5.7). Focus stays where the hand is: on a moved option's button, on the
 * next option after a removal, in a new option's words (selected, so typing replaces them);
 * Enter in an option's words adds the next one below it.
 */

export function OptionsEditor({
  id,
  options,
  onChange,
  error,
}: {
  /** The prefix of the rows' element ids (the field card's). */
  id: string;
  options: FieldOption[];
  onChange: (options: FieldOption[]) => void;
  error?: string;
}) {
  const row = (index: number) => `${id}-option-${index}`;
  const focusSoon = useFocusAfterRender();
  const move = (index: number, by: number) => {
    onChange(moved(options, index, by));
    const to = index + by;
    // at an end the button just pressed is disabled: its twin takes focus
    const edge = by < 0 ? to === 0 : to === options.length - 1;
    focusSoon(`${row(to)}-${(by < 0) !== edge ? 'up' : 'down'}`);
  };
  const remove = (index: number) => {
    onChange(options.filter((_, i) => i !== index));
    focusSoon(index < options.length - 1 ? row(index) : row(index - 1));
  };
  /** A new option after `index` (at the end when none is given), its words selected to be typed over. */
  const add = (index = options.length - 1) => {
    const next = options.slice();
    next.splice(index + 1, 0, nextOptionLabel(options));
    onChange(next);
    focusSoon(row(index + 1), true);
  };
  return (
    <fieldset class="options-editor" aria-describedby={error ? `${id}-options-error` : undefined}>
      <legend>Options</legend>
      {error && (
        <p class="error" id={`${id}-options-error`}>
          {error}
        </p>
      )}
      <ol class="options-editor__rows">
        {options.map((option, index) => {
          const words = optionLabel(option) || `option ${index + 1}`;
          return (
            // the rows hold no state of their own: the index is key enough
            <li
              key={index}
              class="options-editor__row"
              // Enter in an option's words starts the next one, as in a list being typed
              onKeyDown={(event) => {
                if (event.key !== 'Enter' || !(event.target instanceof HTMLInputElement)) return;
                event.preventDefault();
                add(index);
              }}
            >
              <TextInput
                id={row(index)}
                label={`Option ${index + 1}`}
                value={optionLabel(option)}
                onInput={(label) =>
                  onChange(options.map((o, i) => (i === index ? withOptionLabel(o, label) : o)))
                }
              />
              <span class="options-editor__buttons">
                <button
                  id={`${row(index)}-up`}
                  class="button button--small"
                  type="button"
                  aria-label={`Move option up: ${words}`}
                  disabled={index === 0}
                  onClick={() => move(index, -1)}
                >
                  ↑<span class="visually-hidden"> up</span>
                </button>
                <button
                  id={`${row(index)}-down`}
                  class="button button--small"
                  type="button"
                  aria-label={`Move option down: ${words}`}
                  disabled={index === options.length - 1}
                  onClick={() => move(index, 1)}
                >
                  ↓<span class="visually-hidden"> down</span>
                </button>
                <button
                  class="button button--small button--danger"
                  type="button"
                  aria-label={`Remove option: ${words}`}
                  disabled={options.length === 1}
                  onClick={() => remove(index)}
                >
                  Remove
                </button>
              </span>
            </li>
          );
        })}
      </ol>
      <button id={`${id}-add-option`} class="button button--small" type="button" onClick={() => add()}>
        Add option
      </button>
    </fieldset>
  );
}

/**
 * Under "More options": what each option's answer stores, when it should be other than its
 * words (a code a spreadsheet or another system expects). It follows the words until changed;
 * blank, or the words again, makes it follow them once more.
 */
export function OptionValues({
  id,
  options,
  onChange,
}: {
  id: string;
  options: FieldOption[];
  onChange: (options: FieldOption[]) => void;
}) {
  return (
    <fieldset class="options-editor">
      <legend>Stored values</legend>
      <p class="hint">
        What an answer keeps for each option, in the CSV, the API and webhooks: its words unless you change it
        here.
      </p>
      {options.map((option, index) => (
        <TextInput
          key={index}
          id={`${id}-value-${index}`}
          label={`Stored value of “${optionLabel(option) || `option ${index + 1}`}”`}
          value={optionValue(option)}
          onInput={(value) => onChange(options.map((o, i) => (i === index ? withOptionValue(o, value) : o)))}
        />
      ))}
    </fieldset>
  );
}
