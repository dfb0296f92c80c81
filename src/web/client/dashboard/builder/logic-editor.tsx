import { ConditionEditor } from './condition-editor.js';
import { type ConditionRow, keptRuleProblems, newCondition } from './conditions.js';
import { Choice } from './inputs.js';
import type { FieldInput, RuleRow } from './model.js';

/**
 * Conditional logic (API.md §5.4): each rule shows or hides fields when all (or any) of its
 * conditions hold; each condition offers the tests that fit its field's type
 * (condition-editor.tsx), and one that cannot match is flagged there.
 */
export function LogicEditor({
  rules,
  fields,
  onChange,
}: {
  rules: RuleRow[];
  fields: readonly FieldInput[];
  onChange: (rules: RuleRow[]) => void;
}) {
  const choices = fields.map((field) => ({ value: field.id, label: field.label || field.id }));
  const first = fields[0];
  const update = (index: number, change: Partial<RuleRow>) =>
    onChange(rules.map((rule, i) => (i === index ? { ...rule, ...change } : rule)));
  const updateCondition = (index: number, at: number, row: ConditionRow) => {
    const rule = rules[index];
    if (rule)
      update(index, { conditions: rule.conditions.map((condition, i) => (i === at ? row : condition)) });
  };
  if (fields.length === 0) return <p class="muted">Add fields first: a rule shows or hides them.</p>;
  return (
    <>
      {rules.length === 0 && <p class="muted">No rules: every field is always asked.</p>}
      <ol class="field-list">
        {rules.map((rule, index) => {
          const key = `rule-${index}`;
          if (rule.raw) {
            const problems = keptRuleProblems(fields, rule.raw.when);
            return (
              <li key={key}>
                <fieldset class="field-editor">
                  <legend>Rule {index + 1}</legend>
                  <p class="muted">Kept as written (the builder edits simpler rules only):</p>
                  {problems.length > 0 && (
                    <div class="error">
                      <p>This rule can never match as written: remove it and build it again.</p>
                      <ul>
                        {problems.map((problem) => (
                          <li key={problem}>{problem}</li>
                        ))}
                      </ul>
                    </div>
                  )}
                  <pre class="raw-rule">{JSON.stringify(rule.raw, null, 2)}</pre>
                  <button
                    class="button button--small button--danger"
                    type="button"
                    onClick={() => onChange(rules.filter((_, i) => i !== index))}
                  >
                    Remove rule {index + 1}
                  </button>
                </fieldset>
              </li>
            );
          }
          return (
            <li key={key}>
              <fieldset class="field-editor">
                <legend>Rule {index + 1}</legend>
                <div class="field-editor__grid">
                  <Choice
                    id={`${key}-action`}
                    label="Then"
                    value={rule.action}
                    options={[
                      { value: 'show', label: 'Show (ask only then)' },
                      { value: 'hide', label: 'Hide (skip then)' },
                    ]}
                    onChange={(action) => update(index, { action })}
                  />
                  <Choice
                    id={`${key}-target`}
                    label="Field"
                    value={rule.targets[0] ?? ''}
                    options={[{ value: '', label: 'Choose a field…' }, ...choices]}
                    onChange={(target) => update(index, { targets: target ? [target] : [] })}
                  />
                  <Choice
                    id={`${key}-match`}
                    label="When"
                    value={rule.match}
                    options={[
                      { value: 'all', label: 'all of these hold' },
                      { value: 'any', label: 'any of these holds' },
                    ]}
                    onChange={(match) => update(index, { match })}
                  />
                </div>
                {rule.conditions.map((condition, at) => {
                  const id = `${key}-condition-${at}`;
                  return (
                    <ConditionEditor
                      key={id}
                      id={id}
                      name={`Condition ${at + 1} of rule ${index + 1}`}
                      row={condition}
                      fields={fields}
                      onChange={(row) => updateCondition(index, at, row)}
                    >
                      <button
                        class="button button--small condition__remove"
                        type="button"
                        disabled={rule.conditions.length === 1}
                        onClick={() =>
                          update(index, { conditions: rule.conditions.filter((_, i) => i !== at) })
                        }
                      >
                        Remove condition {at + 1}
                      </button>
                    </ConditionEditor>
                  );
                })}
                <p class="actions">
                  <button
                    class="button button--small"
                    type="button"
                    onClick={() =>
                      update(index, {
                        conditions: [...rule.conditions, newCondition(first)],
                      })
                    }
                  >
                    Add condition<span class="visually-hidden"> to rule {index + 1}</span>
                  </button>
                  <button
                    class="button button--small button--danger"
                    type="button"
                    onClick={() => onChange(rules.filter((_, i) => i !== index))}
                  >
                    Remove rule {index + 1}
                  </button>
                </p>
              </fieldset>
            </li>
          );
        })}
      </ol>
      <p>
        <button
          class="button"
          type="button"
          onClick={() =>
            onChange([
              ...rules,
              {
                match: 'all',
                conditions: [newCondition(first)],
                action: 'show',
                targets: [],
              },
            ])
          }
        >
          Add rule
        </button>
      </p>
    </>
  );
}
