/** How the dashboard words a moment: the person's own locale and time zone. */
export const when = (iso: string): string => new Date(iso).toLocaleString();
