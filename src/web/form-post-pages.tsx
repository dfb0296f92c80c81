import type { ComponentChildren } from 'preact';
import type { StoredForm } from '../features/forms/repo.js';
import type { FormPostPages } from '../features/submissions/form-posts.js';
import { ERROR_CODES, type Problem } from '../platform/problem.js';
import { renderDocument } from './render.js';

/**
 * The pages a plain HTML `<form>` posting to `POST /forms/{id}/submit` from another site is
 * answered with (API.md §6.1; features/submissions/form-posts.ts sends them): the thank-you page
 * and the page of a refusal. They stand alone: served at an API path, under a policy that lets
 * them load nothing (form-posts.ts `PAGE_HEADERS`), so their few rules are inline and they name
 * no stylesheet, script or icon. app.ts hands them to the submissions feature, which is below
 * the pages and may not import them.
 */

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#222}';
const DEFAULT_SUCCESS = 'Thank you! Your response has been recorded.';

function PlainPage({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        {/* a constant of this module: nothing of the request reaches it */}
        <style dangerouslySetInnerHTML={{ __html: STYLE }} />
      </head>
      <body>
        <main>{children}</main>
      </body>
    </html>
  );
}

export function FormPostThankYou({ form }: { form: Pick<StoredForm, 'title' | 'definition'> }) {
  const message = form.definition.ui.successMessage?.trim() || DEFAULT_SUCCESS;
  return (
    <PlainPage title={form.title}>
      <h1>Thank you</h1>
      <p>{message}</p>
    </PlainPage>
  );
}

/** A refused post: every failing answer under its field's label (when the form is known), and the error's code. */
export function FormPostRefused({ problem, form }: { problem: Problem; form: StoredForm | undefined }) {
  const labels = new Map(form?.definition.fields.map((field) => [field.id, field.label]));
  const errors = problem.options.errors ?? [];
  const invalid = problem.code === 'validation_failed' && errors.length > 0;
  const heading = invalid ? 'Please correct the form' : ERROR_CODES[problem.code];
  return (
    <PlainPage title={heading}>
      <h1>{heading}</h1>
      <p>{invalid ? 'The form was not sent:' : problem.detail}</p>
      {errors.length > 0 && (
        <ul>
          {errors.map((error, i) => (
            <li key={i}>
              <strong>{labels.get(error.field) ?? error.field}</strong>: {error.message}
            </li>
          ))}
        </ul>
      )}
      {invalid && <p>Go back to the form, correct it and send it again.</p>}
      <p>
        <small>
          Error code: <code>{problem.code}</code>
        </small>
      </p>
    </PlainPage>
  );
}

/** The pages as form-posts.ts asks for them: whole documents. */
export const formPostPages: FormPostPages = {
  thankYou: (form) => renderDocument(<FormPostThankYou form={form} />),
  refused: (problem, form) => renderDocument(<FormPostRefused problem={problem} form={form} />),
};
