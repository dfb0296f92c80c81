/**
 * The tags of the languages Intake's own words ship in (API.md §13), without the catalogues
 * themselves: what the builder offers needs the names alone, and importing the catalogues would
 * put every language's messages into its bundle. `catalogues.test.ts` holds this list equal to
 * the catalogues' own.
 */
export const SHIPPED_LANGUAGES: readonly string[] = [
  'en',
  'de',
  'fr',
  'es',
  'it',
  'pt',
  'nl',
  'pl',
  'sv',
  'tr',
  'uk',
  'ar',
  'he',
  'ja',
  'zh-Hans',
];
