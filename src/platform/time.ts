/** The one timestamp format of the API and the database: ISO 8601 UTC with milliseconds. */
export const nowIso = (): string => new Date().toISOString();

export function addDays(iso: string, days: number): string {
  return new Date(Date.parse(iso) + days * 86_400_000).toISOString();
}
