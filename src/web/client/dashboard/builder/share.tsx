import { useEffect, useRef, useState } from 'preact/hooks';
import { inWorkspace } from '../api/client.js';
import { focusOn } from '../ui/controls.js';
import { CopyButton } from '../ui/copy.js';
import { embedSnippets } from './share-snippets.js';

/**
 * The Share panel (issue 25, item 7): the form's link with copy and open, its QR code (an SVG
 * the server draws, GET /forms/{id}/qr.svg, named for screen readers) and every way to embed
 * it, each snippet shown in full before it is copied. Shown in the builder's Share tab and
 * right after a form's first Publish.
 */
export function SharePanel({
  formId,
  status,
  title,
}: {
  formId: string;
  status: string;
  /** The form's title, for the snippets' frame names; "Form" without it. */
  title?: string;
}) {
  // published here and now (not a form that was live when opened): this tab, its heading in focus
  const previous = useRef(status);
  const heading = useRef<HTMLHeadingElement>(null);
  const [justPublished, setJustPublished] = useState(false);
  useEffect(() => {
    if (previous.current !== 'live' && status === 'live') {
      setJustPublished(true);
      // the builder's tabs follow the address's hash
      location.hash = 'share';
      // once the tab has shown its panel (a hidden heading takes no focus)
      let frames = 0;
      const focus = () => {
        const element = heading.current;
        if (element && element.getClientRects().length > 0) focusOn(element);
        else if (++frames < 60) requestAnimationFrame(focus);
      };
      requestAnimationFrame(focus);
    }
    previous.current = status;
  }, [status]);
  const base = location.origin;
  const link = `${base}/f/${encodeURIComponent(formId)}`;
  const qr = inWorkspace(`/forms/${encodeURIComponent(formId)}/qr.svg`);
  return (
    <section class="share" aria-labelledby="share-heading">
      <h2 id="share-heading" ref={heading} class="share__live">
        {justPublished ? 'Your form is live: share it' : 'Share your form'}
      </h2>
      {justPublished && <p>Anyone with the link can answer it now. Here is every way to pass it on.</p>}
      {status !== 'live' && (
        <p class="notice share__unpublished">
          {status === 'active'
            ? 'This form takes answers only through your own integrations (it is “active”, not public): the link and the snippets show visitors “not found” until you publish it.'
            : 'This form is not published yet: the link and the snippets show visitors “not found” until you publish it. Everything here is ready for that moment.'}
        </p>
      )}
      <div class="share__link">
        <label for="share-link">Link to your form</label>
        <div class="share__link-row">
          <input
            id="share-link"
            type="text"
            readOnly
            value={link}
            onFocus={(event) => event.currentTarget.select()}
          />
          <CopyButton text={link} label="Copy link" />
          <a class="button button--small" href={link} target="_blank" rel="noopener">
            Open<span class="visually-hidden"> the form in a new tab</span>
          </a>
        </div>
      </div>
      <div class="share__qr">
        <h3>QR code</h3>
        <p class="muted">For posters, slides and printed invitations: a phone's camera opens the link.</p>
        <img src={qr} alt={`QR code that opens ${link}`} width={176} height={176} />
        <p>
          <a href={qr} download={`${formId}-qr.svg`}>
            Download the QR code<span class="visually-hidden"> as an SVG image</span>
          </a>
        </p>
      </div>
      <div class="share__embed">
        <h3>Embed it on your site</h3>
        <p class="muted">Paste one of these into your page's HTML.</p>
        {embedSnippets({ base, formId, title: title || 'Form' }).map((snippet) => (
          <div class="share__snippet" key={snippet.id}>
            <h4 id={`snippet-${snippet.id}`}>{snippet.name}</h4>
            <p class="hint" id={`snippet-${snippet.id}-hint`}>
              {snippet.about}
            </p>
            <textarea
              class="share__code"
              readOnly
              spellcheck={false}
              rows={snippet.code.split('\n').length}
              aria-labelledby={`snippet-${snippet.id}`}
              aria-describedby={`snippet-${snippet.id}-hint`}
              value={snippet.code}
            />
            <CopyButton text={snippet.code} label={`Copy the ${snippet.name.toLowerCase()} code`} />
          </div>
        ))}
      </div>
    </section>
  );
}
