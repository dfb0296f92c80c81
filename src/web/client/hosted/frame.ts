/**
 * The embedded hosted page's one script (`/f/{formId}?embed=1`, API.md §11.2; document.tsx
 * loads it only then): the page works without it, it only tells the page that frames it
 * (embed.js) what it cannot see across origins. Messages, all with the form's id:
 * `intake:ready` once the page is shown (with its title, for the frame's own), `intake:resize`
 * with the document's height whenever it changes, and on the thank-you page `intake:submitted`
 * with the submission's id. It also focuses a page's error summary (the page's `autofocus`, which
 * browsers refuse in a cross-origin frame). Sent to any origin ('*'): the page's frame-ancestors
 * (`ui.embedOrigins`) already decided who may frame it, so the parent is one that may read them.
 */
const main = document.querySelector<HTMLElement>('[data-intake-embed]');
const formId = main?.dataset.intakeEmbed;

if (main && formId && window.parent !== window) {
  const post = (message: Record<string, unknown>) => window.parent.postMessage({ ...message, formId }, '*');
  let last = -1;
  const resize = () => {
    // the document's own height (not scrollHeight, which is never less than the frame's)
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    post({ type: 'intake:resize', height });
  };
  // the error summary, which the page would autofocus were it not in another origin's frame
  document.querySelector<HTMLElement>('.error-summary')?.focus();
  post({ type: 'intake:ready', title: document.title });
  resize();
  new ResizeObserver(resize).observe(document.documentElement);
  const submissionId = main.dataset.submissionId;
  if (submissionId) post({ type: 'intake:submitted', submissionId });
}

export {};
