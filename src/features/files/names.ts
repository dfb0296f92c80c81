/**
 * A client's file name, made safe to keep and show (API.md §12): the bytes are stored under a
 * generated key, so the name is only ever shown (inbox, CSV, mail) and given back in
 * `Content-Disposition`. What a name may not carry: a path (`../../etc/passwd` is `passwd`),
 * control or bidirectional-override characters (which would disguise `exe.pdf` as `fdp.exe`),
 * leading dots, or more than 255 characters (counted in code points, cut between them).
 */

const MAX_NAME = 255;
// C0/C1 controls (\p{Cc}), and the bidi marks, embeddings, overrides and isolates
const UNSAFE = /[\p{Cc}\u202a-\u202e\u2066-\u2069\u200e\u200f]/gu;

export function safeFileName(raw: string | undefined): string {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  let name = base.normalize('NFC').replace(UNSAFE, '').trim().replace(/^\.+/, '').trim();
  const points = [...name];
  if (points.length > MAX_NAME) {
    // keep the extension: "…very long….pdf" still reads as a PDF
    const extension = extensionOf(name);
    const keep = extension && extension.length < 20 ? [...`.${extension}`] : [];
    name = points.slice(0, MAX_NAME - keep.length).join('') + keep.join('');
  }
  return name === '' ? 'file' : name;
}

/** The extension of a name, lower case, without its dot; '' when there is none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : '';
}
