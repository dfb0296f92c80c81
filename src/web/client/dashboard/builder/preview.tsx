/**
 * The builder's live preview, for builder/view.tsx:
 *
 *   <Preview form={pageForm} language="de" focusFieldId={fieldId} />
 *
 * `form`: the form being edited, as its page draws it (saved or not), its texts in `language`.
 * `language`: the language shown: Intake's own words (Next, "Question 2 of 5", the checks'
 * messages) are said in it, its catalogue loaded as a chunk of its own. `focusFieldId`: the id
 * of the field whose card the owner is working in (focus inside the card), or undefined; the
 * preview then shows that question (one-by-one) or scrolls to it (classic).
 */
import { useEffect, useRef } from 'preact/hooks';
import { renderToString } from 'preact-render-to-string';
import type { PageForm } from '../../../../shared/form.js';
import { ENGLISH_SCRIPT_WORDS, ENGLISH_WORDS } from '../../../../shared/i18n/english.js';
import { loadWords } from '../../../../shared/i18n/loaders.js';
import type { Words } from '../../../../shared/i18n/words.js';
import { questionOf } from '../../../../shared/messages.js';
import { FormPage, QuestionPage, ThankYou } from '../../../components/form/form-page.js';
import { afterPost, answersOfPost, type PreviewState, pageOf, startState } from './preview-walk.js';

/**
 * The hosted page as a respondent meets it, in a frame of its own (the hosted page's stylesheet;
 * neither page's styles reach the other): the page's own components, rendered to the same HTML
 * the server sends, and the page's own script (client/hosted/page.ts) running in the frame:
 * Next, Back, live logic, the checks and their messages, focus. The script posts each page by
 * fetch as on /f/{id}; here the frame's fetch is answered in the dashboard by preview-walk.ts,
 * the walk the server takes, so an unsaved form can be tried and nothing is sent anywhere.
 */
/** Intake's words in the language shown, and the page script's messages in it. */
interface Said {
  words: Words;
  scriptWords: string;
}

const ENGLISH: Said = { words: ENGLISH_WORDS, scriptWords: ENGLISH_SCRIPT_WORDS };

export function Preview({
  form,
  language = 'en',
  focusFieldId,
}: {
  form: PageForm;
  language?: string;
  focusFieldId?: string;
}) {
  const frame = useRef<HTMLIFrameElement>(null);
  const state = useRef<PreviewState>(startState());
  const current = useRef(form);
  current.current = form;
  const said = useRef<Said>(ENGLISH);
  const app = document.getElementById('app')?.dataset;

  /** Draws the page the walk stands on, with the answers given so far. */
  const draw = () => {
    const document = frame.current?.contentDocument;
    if (!document) return;
    dress(document, current.current, said.current.words);
    document.body.innerHTML = `<main class="hosted" id="main">${pageHtml(current.current, state.current, said.current).body}</main>`;
    const page = document.querySelector<HTMLFormElement>('form[data-form]');
    if (page && document.documentElement.classList.contains('js')) {
      // as the page's script does to each page it shows: its own checks, the live logic
      page.noValidate = true;
      page.dispatchEvent(new Event('change', { bubbles: true }));
    }
  };

  // the frame's document, once: the stylesheet, the page's script, and the walk answering its posts
  useEffect(() => {
    const window = frame.current?.contentWindow;
    const document = frame.current?.contentDocument;
    if (!window || !document || document.getElementById('main')) return;
    if (app?.hostedCss) {
      const link = document.createElement('link');
      link.rel = 'stylesheet';
      link.href = app.hostedCss;
      document.head.append(link);
    }
    window.fetch = async (_url, init) => {
      const body = postedText(init?.body);
      state.current = afterPost(current.current, body);
      const page = pageHtml(current.current, state.current, said.current);
      return new Response(
        `<!doctype html><title>${escapeText(page.title)}</title><body><main class="hosted" id="main">${page.body}</main></body>`,
        { headers: { 'content-type': 'text/html; charset=utf-8' } },
      );
    };
    draw();
    if (app?.hostedScript) {
      const script = document.createElement('script');
      script.type = 'module';
      script.src = app.hostedScript;
      document.head.append(script);
    }
  }, []);

  // the form changed in the builder: the same place in it, with the answers typed so far
  useEffect(() => {
    const page = frame.current?.contentDocument?.querySelector<HTMLFormElement>('form[data-form]');
    if (page) {
      // the page carries every answer so far (a one-by-one page the others in hidden inputs)
      state.current = {
        ...state.current,
        answers: answersOfPost(form, new URLSearchParams(formEntries(page))),
      };
    }
    draw();
  }, [form]);

  // the language shown: its words loaded (English meanwhile), then the same page drawn again in it
  useEffect(() => {
    let shown = true;
    if (language === 'en') {
      said.current = ENGLISH;
      draw();
    } else
      loadWords(language).then(
        (loaded) => {
          if (!shown) return;
          said.current = loaded;
          draw();
        },
        () => undefined, // a chunk that failed to load: the preview stays in English
      );
    return () => {
      shown = false;
    };
  }, [language]);

  // the field being edited: its question shown, or scrolled to
  useEffect(() => {
    if (!focusFieldId) return;
    if (form.ui.layout !== 'classic') {
      if (state.current.questionId === focusFieldId && !state.current.done) return;
      state.current = { ...state.current, questionId: focusFieldId, done: false };
      draw();
      return;
    }
    const document = frame.current?.contentDocument;
    const field = document?.querySelector<HTMLElement>(`[data-field="${CSS.escape(focusFieldId)}"]`);
    // the frame's own scroll (scrollIntoView would scroll the builder too)
    if (field)
      document?.defaultView?.scrollTo({ top: Math.max(field.offsetTop - 16, 0), behavior: 'smooth' });
  }, [focusFieldId]);

  const restart = () => {
    state.current = startState();
    draw();
  };

  return (
    <div class="preview-frame">
      <iframe ref={frame} class="preview" title="Preview of the form" />
      <p class="preview-frame__bar">
        <span class="muted">Try it: nothing you send here is stored.</span>{' '}
        <button class="button button--secondary button--small" type="button" onClick={restart}>
          Start again
        </button>
      </p>
    </div>
  );
}

/** The page the walk stands on, as the server would send it (its body and its title). */
function pageHtml(
  form: PageForm,
  state: PreviewState,
  { words, scriptWords }: Said,
): { title: string; body: string } {
  const page = pageOf(form, state);
  const action = `/f/${encodeURIComponent(form.id)}?preview=1&embed=1`;
  if (page.kind === 'done')
    return {
      title: `Preview: response not stored – ${form.title}`,
      body: renderToString(<ThankYou form={form} preview words={words} />),
    };
  const question = page.kind === 'question' && form.fields.find((field) => field.id === page.questionId);
  if (page.kind === 'question' && question) {
    const { position } = page;
    return {
      title: `${questionOf(position.n, position.m, words)} – ${form.title}`,
      body: renderToString(
        <QuestionPage
          form={form}
          action={action}
          field={question}
          position={position}
          first={position.first}
          last={position.last}
          answers={state.answers}
          preview
          words={words}
          scriptWords={scriptWords}
        />,
      ),
    };
  }
  return {
    title: form.title,
    body: renderToString(
      <FormPage
        form={form}
        action={action}
        answers={state.answers}
        preview
        words={words}
        scriptWords={scriptWords}
      />,
    ),
  };
}

/** The frame's language, direction, theme and accent colour, as the hosted page's document sets them (through the CSSOM: no inline style needed). */
function dress(document: Document, form: PageForm, words: Words) {
  const root = document.documentElement;
  root.lang = words.lang;
  root.dir = words.dir;
  const theme = form.ui.theme === 'light' || form.ui.theme === 'dark' ? form.ui.theme : undefined;
  if (theme) root.dataset.theme = theme;
  else delete root.dataset.theme;
  const accent = typeof form.ui.accentColor === 'string' && /^#[0-9a-f]{6}$/i.test(form.ui.accentColor);
  if (accent) root.style.setProperty('--custom-accent', String(form.ui.accentColor));
  else root.style.removeProperty('--custom-accent');
}

/**
 * A post's text entries: the page's script sends URLSearchParams, or FormData for a form with a
 * file field (made in the frame's realm, so known by its tag, not instanceof); files go nowhere.
 */
function postedText(body: unknown): URLSearchParams {
  if (Object.prototype.toString.call(body) !== '[object FormData]')
    return new URLSearchParams(String(body ?? ''));
  return new URLSearchParams(
    [...(body as FormData)].flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : [])),
  );
}

/** A form's text entries, as its post would send them. */
const formEntries = (form: HTMLFormElement): string[][] =>
  [...new FormData(form)].flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : []));

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
