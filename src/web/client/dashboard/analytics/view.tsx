import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, ok } from '../api/client.js';
import { formKey, loadStoredForm } from '../forms/resource.js';
import { useSession } from '../session.js';
import { focusOn, Notice, useTitle } from '../ui/controls.js';
import { DateRange, RangeProblem } from '../ui/date-range.js';
import { setCached, useResource } from '../ui/resource.js';
import { DropOff } from './drop-off.js';
import { type Choice, hrefOf, PRESETS, preset, rangeProblem } from './model.js';
import { Questions } from './questions.js';
import { Range, Report } from './report.js';

/**
 * Analytics (API.md §8, §11.3): the counters of the switcher's environment, for all its forms
 * (each with its own row) or one, over a range of UTC days; a daily chart and the same figures
 * as a table; for one form, where its visitors gave up (drop-off.tsx: a funnel and its table)
 * and what its answers say per question (questions.tsx). The form and
 * the range live in the address (`?form=&from=&to=`), so a link,
 * back and forward keep them; without a range the API's default is asked for and shown.
 */

interface FormChoice {
  id: string;
  title: string;
  archived: boolean;
}

/** How long a typed date waits before it is asked for (typing a year changes the value at each digit). */
const TYPING_MS = 600;

/** Every form of an environment, archived ones too (their figures remain): every page of GET /forms. */
async function formsOf(environment: string): Promise<FormChoice[]> {
  const lists = await Promise.all(
    (['', 'archived'] as const).map(async (status) => {
      const found: FormChoice[] = [];
      let cursor: string | undefined;
      do {
        const query = {
          environment,
          limit: 100,
          ...(status ? { status } : {}),
          ...(cursor ? { cursor } : {}),
        };
        const page = await ok(api.GET('/forms', { params: { query } }));
        for (const form of page.data)
          found.push({ id: form.id, title: form.title, archived: form.status === 'archived' });
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return found;
    }),
  );
  return lists.flat();
}

export function Analytics() {
  const { environment, setEnvironment } = useSession();
  const { query, route } = useLocation();
  const choice: Choice = { form: query.form ?? '', from: query.from ?? '', to: query.to ?? '' };
  const [draft, setDraft] = useState<{ from: string; to: string }>();
  const [dropped, setDropped] = useState<string>();
  const [moved, setMoved] = useState<string>();
  // A form in the address on arrival (a link, a bookmark) may be of another environment: the
  // switcher follows it, once. Later, a form the switcher's environment lacks is dropped.
  const [arriving, setArriving] = useState(choice.form !== '');
  const heading = useRef<HTMLHeadingElement>(null);

  const forms = useResource(`form-choices:${environment}`, () => formsOf(environment));
  const known = forms.data;
  const chosen = known?.find((form) => form.id === choice.form);
  const lastTitle = useRef<string | undefined>(undefined);
  if (chosen) lastTitle.current = chosen.title;
  const problem = rangeProblem(choice.from, choice.to);
  const ready = choice.form === '' || (!arriving && chosen !== undefined);
  const asked = {
    environment,
    ...(choice.form ? { form_id: choice.form } : {}),
    ...(choice.from ? { from: choice.from } : {}),
    ...(choice.to ? { to: choice.to } : {}),
  };
  const figures = useResource(
    problem || !ready ? undefined : `analytics:${JSON.stringify(asked)}`,
    async () => ok(api.GET('/analytics', { params: { query: asked } })),
  );
  const data = figures.data;
  // one form chosen: what its answers say, per question, over the same range
  const questions = useResource(
    problem || !ready || !choice.form ? undefined : `analytics-questions:${JSON.stringify(asked)}`,
    async () =>
      ok(api.GET('/analytics/questions', { params: { query: { ...asked, form_id: choice.form } } })),
  );
  // one form chosen: where its visitors gave up, per question (API.md §15)
  const dropOff = useResource(
    problem || !ready || !choice.form ? undefined : `analytics-drop-off:${JSON.stringify(asked)}`,
    async () => ok(api.GET('/analytics/drop-off', { params: { query: { ...asked, form_id: choice.form } } })),
  );
  // the range the API answered for last, shown while another is read (none asked: its default)
  const answered = useRef<{ from: string; to: string }>(undefined);
  if (data) answered.current = { from: data.from.slice(0, 10), to: data.to.slice(0, 10) };
  const error = forms.error ?? figures.error ?? dropOff.error ?? questions.error;
  useTitle(chosen ? `Analytics: ${chosen.title}` : 'Analytics');

  // read when called, not when made: a typed date is sent later, after the form may have changed
  const latest = useRef(choice);
  latest.current = choice;
  const go = (next: Partial<Choice>, replace = false) => {
    setDropped(undefined);
    setMoved(undefined);
    route(hrefOf({ ...latest.current, ...next }), replace);
  };

  useEffect(() => {
    if (!choice.form) return;
    loadStoredForm(choice.form)
      .then((form) => {
        setCached(formKey(form.id), form);
        if (form.environment === environment) return;
        // said, not done silently: the switcher (and what it remembers) changes for every view
        setMoved(`Switched to the ${form.environment} environment, where “${form.title}” is.`);
        setEnvironment(form.environment);
      })
      .catch(() => undefined)
      .finally(() => setArriving(false));
  }, []);

  // (judged on the list as read now, not a cached one that may predate the form)
  useEffect(() => {
    if (!choice.form || arriving || !known || forms.loading || chosen) return;
    const which = lastTitle.current ? `“${lastTitle.current}”` : 'The form asked for';
    setDropped(`${which} is not in the ${environment} environment: all of its forms are shown instead.`);
    route(hrefOf({ ...choice, form: '' }), true);
  }, [choice.form, arriving, known, forms.loading, chosen]);

  // A date typed is asked for once the typing pauses.
  useEffect(() => {
    if (!draft) return;
    const timer = setTimeout(() => {
      setDraft(undefined);
      go(draft);
    }, TYPING_MS);
    return () => clearTimeout(timer);
  }, [draft]);

  // A form chosen by a link that is gone once followed (a row of the table): focus to the heading.
  const shownForm = useRef(choice.form);
  useEffect(() => {
    if (shownForm.current === choice.form) return;
    shownForm.current = choice.form;
    const active = document.activeElement;
    if (heading.current && (!active || active === document.body)) {
      focusOn(heading.current);
    }
  }, [choice.form]);

  // the range shown: the address's, else what the API answered for none
  const from = draft?.from ?? (choice.from || answered.current?.from || '');
  const to = draft?.to ?? (choice.to || answered.current?.to || '');
  const edit = (bound: 'from' | 'to', value: string) => setDraft({ from, to, [bound]: value });

  return (
    <section class="view analytics">
      <h1 ref={heading}>Analytics{chosen ? `: ${chosen.title}` : ''}</h1>
      <p class="muted">
        In the <strong>{environment}</strong> environment. Days are UTC days.
      </p>
      {error && (
        <Notice kind="error" announce={error}>
          {error.message}
        </Notice>
      )}
      {dropped && <Notice kind="info">{dropped}</Notice>}
      {moved && !dropped && <Notice kind="info">{moved}</Notice>}
      <div class="analytics__controls">
        <div class="control-row analytics__form">
          <label for="analytics-form">Form</label>
          <select
            id="analytics-form"
            value={choice.form}
            onChange={(event) => go({ form: event.currentTarget.value })}
          >
            <option value="">All forms</option>
            {known?.map((form) => (
              <option key={form.id} value={form.id}>
                {form.title}
                {form.archived ? ' (archived)' : ''}
              </option>
            ))}
            {choice.form && !chosen && <option value={choice.form}>Loading…</option>}
          </select>
        </div>
        <DateRange id="analytics" from={from} to={to} problem={problem} change={edit} />
      </div>
      <fieldset class="analytics__presets">
        <legend class="visually-hidden">Quick ranges</legend>
        {PRESETS.map((days) => {
          const range = preset(days);
          return (
            <button
              key={days}
              class="button button--small"
              type="button"
              aria-pressed={from === range.from && to === range.to}
              onClick={() => {
                setDraft(undefined);
                go(range);
              }}
            >
              Last {days} days
            </button>
          );
        })}
      </fieldset>
      <RangeProblem id="analytics" problem={problem} />
      <p class="muted" role="status">
        {problem ? '' : data ? <Range data={data} /> : error ? '' : 'Loading figures…'}
      </p>
      {data && !problem && <Report data={data} environment={environment} choice={choice} />}
      {choice.form && !problem && dropOff.data && <DropOff data={dropOff.data} />}
      {choice.form && !problem && questions.data && <Questions data={questions.data} />}
    </section>
  );
}
