import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, ok } from '../api/client.js';
import { formKey } from '../forms/resource.js';
import { useSession } from '../session.js';
import { useAction } from '../ui/action.js';
import { ConfirmButton } from '../ui/confirm.js';
import { Notice } from '../ui/controls.js';
import { forgetCached, setCached } from '../ui/resource.js';
import { copyOf, type Draft } from './draft.js';
import { Choice, Section } from './inputs.js';
import type { StoredForm } from './model.js';

/**
 * What the builder does with the form beyond saving it: a copy, as a draft, into another
 * environment (of what is typed, saved or not), and its deletion with all its responses.
 */
export function Elsewhere({ form, draft }: { form: StoredForm; draft: Draft }) {
  const { environments } = useSession();
  const { route } = useLocation();
  const [copyTo, setCopyTo] = useState('production');
  const [news, setNews] = useState<string>();
  const { error, run } = useAction();
  // the environments a copy may go to: any but the form's own
  const others = environments.filter((name) => name !== form.environment);
  const target = others.includes(copyTo) ? copyTo : (others[0] ?? '');

  const copy = () => {
    setNews(undefined);
    void run(async () => {
      const { body, captchaLeft } = copyOf(draft, form, target);
      const copied = await ok(api.POST('/forms', { body }));
      forgetCached(`forms:${target}:`);
      setNews(
        `Copied to ${target} as a draft (${copied.id}): switch to ${target} to see it.${
          captchaLeft ? ' Its CAPTCHA needs its secret key entered there again.' : ''
        }`,
      );
    });
  };
  const remove = () =>
    run(async () => {
      await ok(api.DELETE('/forms/{id}', { params: { path: { id: form.id } } }));
      setCached(formKey(form.id), undefined);
      forgetCached(`forms:${form.environment}:`);
      route('/app');
    });

  return (
    <Section title="Elsewhere">
      {error && (
        <Notice kind="error" announce={error}>
          {error.message}
        </Notice>
      )}
      {news && <Notice kind="success">{news}</Notice>}
      {others.length > 0 && (
        <div class="actions">
          <Choice
            id="copy-to"
            label="Copy to environment"
            value={target}
            options={others.map((name) => ({ value: name, label: name }))}
            onChange={setCopyTo}
          />
          <button class="button" type="button" onClick={copy}>
            Copy form
          </button>
        </div>
      )}
      <ConfirmButton
        label="Delete form"
        question={`Delete “${draft.title}” and all its responses? This cannot be undone.`}
        confirmLabel="Delete for good"
        onConfirm={remove}
      />
    </Section>
  );
}
