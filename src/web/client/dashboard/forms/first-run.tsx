import { useState } from 'preact/hooks';
import { focusOn } from '../ui/controls.js';
import { TEMPLATES, type Template } from './templates.js';

/**
 * What leads a first-time owner on (issue 25 item 7): the templates beside a blank form, open by
 * themselves while the environment has no form (a disclosure after that), and the environments
 * explained once, until "Got it".
 */

export function TemplatePicker({
  open,
  busy,
  onPick,
}: {
  /** Open at first (no form yet); otherwise behind "Start from a template". */
  open: boolean;
  busy: boolean;
  /** A template chosen; undefined: a blank form. */
  onPick: (template?: Template) => void;
}) {
  const cards = (
    <ul class="templates">
      <li class="template">
        <button
          class="template__button"
          type="button"
          disabled={busy}
          aria-describedby="template-blank-about"
          onClick={() => onPick()}
        >
          Blank form
        </button>
        <p id="template-blank-about" class="muted">
          Start from nothing and add your own questions.
        </p>
      </li>
      {TEMPLATES.map((template) => (
        <li class="template" key={template.key}>
          <button
            class="template__button"
            type="button"
            disabled={busy}
            aria-describedby={`template-${template.key}-about`}
            onClick={() => onPick(template)}
          >
            {template.name}
          </button>
          <p id={`template-${template.key}-about`} class="muted">
            {template.about} {template.fields.length} questions.
          </p>
        </li>
      ))}
    </ul>
  );
  if (open)
    return (
      <section class="start" aria-labelledby="start-heading">
        <h2 id="start-heading">Start your first form</h2>
        <p>Pick a template to change as you like, or start blank. Nothing is public until you publish it.</p>
        {cards}
      </section>
    );
  return (
    <details class="start">
      <summary>Start from a template</summary>
      {cards}
    </details>
  );
}

const EXPLAINED_KEY = 'intake:environments-explained';

const wasExplained = (): boolean => {
  try {
    return localStorage.getItem(EXPLAINED_KEY) === '1';
  } catch {
    return false;
  }
};

/** The environment switcher in one paragraph, shown until the person says they have read it. */
export function EnvironmentsExplained({ environment }: { environment: string }) {
  const [explained, setExplained] = useState(wasExplained);
  if (explained) return null;
  const dismiss = () => {
    try {
      localStorage.setItem(EXPLAINED_KEY, '1');
    } catch {
      // private browsing: it is shown again next time, nothing worse
    }
    setExplained(true);
    // the notice goes: focus goes to the top of the view rather than the page's end
    focusOn(document.querySelector<HTMLElement>('main h1'));
  };
  return (
    // not a labelled landmark: the switcher's label ("Environment") stays the one control so named
    <div class="notice notice--info explain">
      <h2 id="explain-heading">Environments keep tests apart</h2>
      <p>
        You are in <strong>{environment}</strong>. Each environment (the “Environment” menu at the top) has
        its own forms, API keys and webhooks: try things in <strong>development</strong>, and run the forms
        people really answer in <strong>production</strong>. A form can be copied from one to the other.
      </p>
      <button class="button button--small" type="button" onClick={dismiss}>
        Got it
      </button>
    </div>
  );
}
