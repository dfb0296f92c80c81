import { useRef, useState } from 'preact/hooks';
import type { FieldType } from '../../../../shared/form.js';
import { FieldCard } from './field-card.js';
import { idCameFrom, moved, newField, relabelled } from './field-model.js';
import { useFocusAfterRender } from './focus-after.js';
import type { FieldInput } from './model.js';
import { TypePalette } from './palette.js';

/**
 * The form's fields (API.md §5.1), a card each (field-card.tsx), moved up and down with buttons
 * (WCAG 2.5.7: no dragging needed). "Add field" opens the type palette, so a field is made with
 * the type it asks for; its label then takes focus. Each card keeps a key of its own while the
 * fields move, so an opened "More options" moves with its field, and focus is put back where
 * the hand was after every move or removal.
 */

export function FieldsEditor({
  fields,
  onChange,
  errorsFor,
  idsFollowLabels,
  onEditing,
}: {
  fields: FieldInput[];
  onChange: (fields: FieldInput[]) => void;
  /** The API's message about a member of field `index` (`label`, `options`…), if it named one. */
  errorsFor: (index: number, member: string) => string | undefined;
  /** Until the form is first published, a field's id is made again from its label as it changes. */
  idsFollowLabels: boolean;
  /** The place of the field whose card focus entered (the preview follows it). */
  onEditing?: (index: number) => void;
}) {
  const [choosing, setChoosing] = useState(false);
  const focusSoon = useFocusAfterRender();
  // one key per field, kept in step with every add, move and removal made here; a change from
  // elsewhere (a reload) that alters the count starts the keys afresh
  const nextKey = useRef(0);
  const keys = useRef<number[]>([]);
  if (keys.current.length !== fields.length) keys.current = fields.map(() => nextKey.current++);
  const card = (index: number) => `field-${keys.current[index]}`;

  const update = (index: number, change: Partial<FieldInput>) =>
    onChange(fields.map((field, i) => (i === index ? { ...field, ...change } : field)));
  const move = (index: number, by: number) => {
    keys.current = moved(keys.current, index, by);
    const key = card(index + by);
    onChange(moved(fields, index, by));
    const to = index + by;
    // at an end the button just pressed is disabled: its twin takes focus
    const edge = by < 0 ? to === 0 : to === fields.length - 1;
    focusSoon(`${key}-${(by < 0) !== edge ? 'up' : 'down'}`);
  };
  const remove = (index: number) => {
    keys.current = keys.current.filter((_, i) => i !== index);
    onChange(fields.filter((_, i) => i !== index));
    const next = index < keys.current.length ? index : index - 1;
    focusSoon(next >= 0 ? `${card(next)}-label` : 'add-field');
  };
  const add = (type: FieldType) => {
    setChoosing(false);
    keys.current = [...keys.current, nextKey.current++];
    onChange([...fields, newField(type, fields)]);
    focusSoon(`${card(fields.length)}-label`, true);
  };

  return (
    <>
      {fields.length === 0 && <p class="empty">No fields yet: add the first one.</p>}
      <ol
        class="field-list"
        onFocusIn={(event) => {
          const card = (event.target as Element).closest('.field-list > li');
          const index = card ? [...(card.parentElement?.children ?? [])].indexOf(card) : -1;
          if (index >= 0) onEditing?.(index);
        }}
      >
        {fields.map((field, index) => (
          <li key={keys.current[index]}>
            <FieldCard
              id={card(index)}
              field={field}
              position={index}
              count={fields.length}
              idFollows={idsFollowLabels && idCameFrom(field.id, field.label)}
              onChange={(change) => update(index, change)}
              onLabel={(label) => onChange(relabelled(fields, index, label, idsFollowLabels))}
              onMove={(by) => move(index, by)}
              onRemove={() => remove(index)}
              errorFor={(member) => errorsFor(index, member)}
            />
          </li>
        ))}
      </ol>
      <p>
        <button
          id="add-field"
          class="button"
          type="button"
          aria-haspopup="dialog"
          onClick={() => setChoosing(true)}
        >
          Add field
        </button>
      </p>
      <TypePalette
        open={choosing}
        onPick={add}
        onClose={() => {
          setChoosing(false);
          focusSoon('add-field');
        }}
      />
    </>
  );
}
