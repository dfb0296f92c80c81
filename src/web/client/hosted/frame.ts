/**
 * The embedded hosted page's side of embedding (`/f/{formId}?embed=1`, API.md §11.2): it tells
 * the page that frames it (embed.js) what that page cannot see across origins. Messages, all
 * with the form's id: `intake:ready` once the page is shown (with its title, for the frame's
 * own; again for each page swapped in), `intake:resize` with the document's height whenever it changes, and on the thank-you
 * page `intake:submitted` with the submission's id. Sent to any origin ('*'): the page's
 * frame-ancestors (`ui.embedOrigins`) already decided who may frame it, so the parent is one
 * that may read them.
 */
let post: ((message: Record<string, unknown>) => void) | undefined;
/** Whether the parent runs embed.js (it answered `intake:ready` with `intake:hello`): then it may be asked to leave for ui.redirectUrl. */
let managed = false;

const embedded = () => document.querySelector<HTMLElement>('[data-intake-embed]');

/** At load: whether the page is embedded in a frame, and then its messages begin. */
export function startFrame(): boolean {
  const formId = embedded()?.dataset.intakeEmbed;
  if (!formId || window.parent === window) return false;
  post = (message) => window.parent.postMessage({ ...message, formId }, '*');
  let last = -1;
  const resize = () => {
    // the document's own height (not scrollHeight, which is never less than the frame's)
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    post?.({ type: 'intake:resize', height });
  };
  addEventListener('message', (event: MessageEvent) => {
    if (event.source === window.parent && (event.data as { type?: unknown } | null)?.type === 'intake:hello')
      managed = true;
  });
  post({ type: 'intake:ready', title: document.title });
  resize();
  // the root element stays when a page is swapped in, so one observer sees every page
  new ResizeObserver(resize).observe(document.documentElement);
  return true;
}

/**
 * A page shown, at load or swapped in without a reload: a swapped-in page is announced like a
 * loaded one (`intake:ready` again, with its title: embed.js scrolls to it and names the frame
 * after it, its DOM event being sent once), and the thank-you page tells of its submission.
 */
export function framePageShown(swapped: boolean): void {
  if (swapped) post?.({ type: 'intake:ready', title: document.title });
  const submissionId = embedded()?.dataset.submissionId;
  if (post && submissionId) post({ type: 'intake:submitted', submissionId });
}

/**
 * A post that leads to ui.redirectUrl: the page that frames the form goes there, not the frame
 * (a site rarely lets itself be framed, and the form is done). Asked of embed.js, after the
 * submission is told of; false when nothing would hear (a bare iframe), and the frame goes itself.
 */
export function frameRedirect(url: string, submissionId: string | null): boolean {
  if (!post || !managed) return false;
  if (submissionId) post({ type: 'intake:submitted', submissionId });
  post({ type: 'intake:redirect', url });
  return true;
}
