/**
 * GET /embed.js (API.md §11.2), loaded by any site with `<script src="{base}/embed.js" async>`:
 * every `<div data-intake-form="{formId}">` of the page, now and later (a MutationObserver),
 * becomes the frame `{base}/f/{formId}?embed=1`, `{base}` being the origin this script came
 * from. The frame's page (client/hosted/frame.ts) posts its height, which the frame takes (no
 * inner scrollbar), and its events, which become DOM events on the div: `intake:ready`,
 * `intake:submitted` with `detail: {formId, submissionId}`, and, when the form leads to its
 * `ui.redirectUrl`, a cancelable `intake:redirect` with `detail: {formId, url}`, after which this
 * page goes there (unless a listener prevented it); each later page of the frame is
 * scrolled to when its top is out of sight. Messages are taken only from
 * `{base}` and only from one of these frames. An element with `data-intake-popup="{formId}"`
 * opens the form's frame in a modal dialog when clicked. A classic script, run on other people's pages:
 * everything in one function (no globals), nothing thrown.
 */
(() => {
  const self =
    (document.currentScript as HTMLScriptElement | null) ??
    document.querySelector<HTMLScriptElement>('script[src$="/embed.js"]');
  if (!self?.src) return;
  const base = new URL(self.src).origin;
  const MOUNTED = 'data-intake-mounted';
  const frames: Array<{ div: HTMLElement; frame: HTMLIFrameElement; formId: string; ready?: boolean }> = [];

  const mount = (div: HTMLElement) => {
    const formId = div.getAttribute('data-intake-form');
    if (!formId || div.hasAttribute(MOUNTED)) return;
    div.setAttribute(MOUNTED, '');
    const frame = document.createElement('iframe');
    frame.src = `${base}/f/${encodeURIComponent(formId)}?embed=1`;
    // a name until the page says its own (intake:ready)
    frame.title = div.getAttribute('data-intake-title') || 'Form';
    frame.loading = 'lazy';
    frame.style.cssText = 'display:block;width:100%;border:0;';
    div.appendChild(frame);
    frames.push({ div, frame, formId });
  };
  const scan = () => {
    // frames taken off the page are forgotten (a single-page site mounts and unmounts them)
    for (let i = frames.length - 1; i >= 0; i--) if (!frames[i]?.frame.isConnected) frames.splice(i, 1);
    for (const div of document.querySelectorAll<HTMLElement>('div[data-intake-form]')) mount(div);
  };

  addEventListener('message', (event: MessageEvent) => {
    if (event.origin !== base) return;
    const entry = frames.find(({ frame }) => frame.contentWindow === event.source);
    const data = event.data as Record<string, unknown> | null;
    if (!entry || typeof data !== 'object' || data === null) return;
    const { div, frame, formId } = entry;
    const emit = (type: string, detail: Record<string, unknown>) =>
      div.dispatchEvent(new CustomEvent(type, { bubbles: true, detail: { formId, ...detail } }));
    if (data.type === 'intake:resize' && typeof data.height === 'number' && data.height > 0) {
      frame.style.height = `${Math.ceil(data.height)}px`;
    } else if (data.type === 'intake:ready') {
      // the frame learns that this page may be asked to go to the form's ui.redirectUrl
      (event.source as Window).postMessage({ type: 'intake:hello' }, base);
      if (typeof data.title === 'string' && data.title && !div.hasAttribute('data-intake-title'))
        frame.title = data.title;
      // a later page of the frame (a refused post, the next question, the thank-you page) starts at its top
      if (entry.ready) {
        if (frame.getBoundingClientRect().top < 0) frame.scrollIntoView();
        return;
      }
      entry.ready = true;
      emit('intake:ready', {});
    } else if (data.type === 'intake:submitted' && typeof data.submissionId === 'string') {
      emit('intake:submitted', { submissionId: data.submissionId });
    } else if (
      data.type === 'intake:redirect' &&
      typeof data.url === 'string' &&
      /^https?:\/\//i.test(data.url)
    ) {
      // the form's ui.redirectUrl, for this page to go to; a listener may go its own way instead
      const go = div.dispatchEvent(
        new CustomEvent('intake:redirect', {
          bubbles: true,
          cancelable: true,
          detail: { formId, url: data.url },
        }),
      );
      if (go) location.assign(data.url);
    }
  });

  // a pop-up: any element with data-intake-popup="{formId}" opens the form in a modal dialog
  // (Escape or Close shuts it, focus goes back to the opener); its frame is an inline one's
  addEventListener('click', (event) => {
    const opener = (event.target as Element | null)?.closest?.('[data-intake-popup]') as HTMLElement | null;
    const formId = opener?.getAttribute('data-intake-popup');
    if (!opener || !formId) return;
    event.preventDefault();
    const title = opener.getAttribute('data-intake-title') || 'Form';
    const dialog = document.createElement('dialog');
    dialog.setAttribute('aria-label', title);
    dialog.style.cssText =
      'width:min(40rem,calc(100% - 2rem));max-height:calc(100% - 2rem);padding:0;border:0;border-radius:8px;overflow:auto;';
    const close = document.createElement('button');
    close.type = 'button';
    close.textContent = 'Close';
    close.style.cssText = 'float:right;margin:8px;';
    close.onclick = () => dialog.close();
    const div = document.createElement('div');
    div.setAttribute('data-intake-form', formId);
    div.setAttribute('data-intake-title', title);
    dialog.append(close, div);
    dialog.addEventListener('close', () => {
      dialog.remove();
      opener.focus();
    });
    document.body.appendChild(dialog);
    mount(div);
    dialog.showModal();
  });

  scan();
  new MutationObserver(scan).observe(document.documentElement, { childList: true, subtree: true });
})();

export {};
