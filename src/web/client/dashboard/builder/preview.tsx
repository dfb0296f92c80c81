import { render } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type { PageForm } from '../../../../shared/form.js';
import { FormPage, QuestionPage } from '../../../components/form/form-page.js';

/**
 * The live preview: the hosted page's own components (components/form, the very functions
 * /f/{id} renders), drawn into a frame of its own with the hosted page's stylesheet, so that
 * neither page's styles reach the other. A one-by-one form shows its first question. Nothing
 * in it is sent anywhere: its form posts nowhere.
 */
export function Preview({ form }: { form: PageForm }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const stylesheet = document.getElementById('app')?.dataset.hostedCss;

  useEffect(() => {
    const document = frame.current?.contentDocument;
    if (!document) return;
    if (!document.getElementById('preview-root')) {
      document.documentElement.lang = 'en';
      document.title = 'Preview';
      if (stylesheet) {
        const link = document.createElement('link');
        link.rel = 'stylesheet';
        link.href = stylesheet;
        document.head.append(link);
      }
      const root = document.createElement('main');
      root.className = 'hosted';
      root.id = 'preview-root';
      document.body.append(root);
      // the preview's form never leaves the page
      document.addEventListener('submit', (event) => event.preventDefault());
    }
    const root = document.getElementById('preview-root');
    if (!root) return;
    const theme = form.ui.theme === 'light' || form.ui.theme === 'dark' ? form.ui.theme : undefined;
    if (theme) document.documentElement.dataset.theme = theme;
    else delete document.documentElement.dataset.theme;
    // the accent colour, as the hosted page's nonce'd style sets it (through the CSSOM: no inline style needed)
    const accent = typeof form.ui.accentColor === 'string' && /^#[0-9a-f]{6}$/i.test(form.ui.accentColor);
    if (accent) document.documentElement.style.setProperty('--custom-accent', String(form.ui.accentColor));
    else document.documentElement.style.removeProperty('--custom-accent');
    const visible = form.fields.filter((field) => field.type !== 'hidden');
    const first = visible[0];
    render(
      form.ui.layout === 'classic' || !first ? (
        <FormPage form={form} action="#" />
      ) : (
        <QuestionPage
          form={form}
          action="#"
          field={first}
          position={{ n: 1, m: visible.length }}
          first
          last={visible.length === 1}
        />
      ),
      root,
    );
  }, [form, stylesheet]);

  // no src: the frame keeps its first, empty document (same origin), which nothing replaces
  return <iframe ref={frame} class="preview" title="Preview of the form" />;
}
