import { describe, expect, it } from 'vitest';
import {
  ACCEPT_ENTRY,
  ACCEPT_PRESETS,
  bytesOfMegabytes,
  DEFAULT_MAX_FILE_SIZE,
  entriesText,
  MEGABYTE,
  megabytesOf,
  otherEntries,
  parseOtherEntries,
  presetStates,
  withOtherEntries,
  withPreset,
} from './file-field.js';

const preset = (key: string) => {
  const found = ACCEPT_PRESETS.find((candidate) => candidate.key === key);
  if (!found) throw new Error(key);
  return found;
};
const states = (accept: string[]) =>
  Object.fromEntries([...presetStates(accept)].map(([key, state]) => [key, state.state]));

describe('the largest file: typed in megabytes, stored in bytes', () => {
  it('reads megabytes as 2^20 bytes, as sizeInWords says MB', () => {
    expect(bytesOfMegabytes('10')).toEqual({ bytes: 10 * MEGABYTE });
    expect(bytesOfMegabytes('0.5')).toEqual({ bytes: 524_288 });
    // a comma for the decimal point, as many people type it
    expect(bytesOfMegabytes(' 2,5 ')).toEqual({ bytes: 2.5 * MEGABYTE });
    expect(bytesOfMegabytes('10').bytes).toBe(DEFAULT_MAX_FILE_SIZE);
  });
  it('leaves a blank box to the default, and words what is no size', () => {
    expect(bytesOfMegabytes('')).toEqual({ bytes: undefined });
    expect(bytesOfMegabytes('ten').problem).toMatch(/number of megabytes/);
    expect(bytesOfMegabytes('0').problem).toMatch(/above 0/);
    expect(bytesOfMegabytes('-3').problem).toMatch(/above 0/);
  });
  it('stores whole bytes, and shows bytes back in megabytes with at most two decimals', () => {
    expect(Number.isInteger(bytesOfMegabytes('1.333333').bytes)).toBe(true);
    expect(megabytesOf(undefined)).toBe('');
    expect(megabytesOf(10 * MEGABYTE)).toBe('10');
    expect(megabytesOf(524_288)).toBe('0.5');
    expect(megabytesOf(1_500_000)).toBe('1.43');
    // a round trip of what was shown keeps the size it stands for
    for (const text of ['1', '2.5', '100', '0.25'])
      expect(megabytesOf(bytesOfMegabytes(text).bytes)).toBe(text);
  });
});

describe('accepted types: presets ↔ the accept array', () => {
  it('a preset is ticked when all its entries are there, in any letter case', () => {
    expect(states([])).toMatchObject({ pdf: 'off', images: 'off', documents: 'off' });
    expect(states(['image/*'])).toMatchObject({ images: 'on', pdf: 'off' });
    expect(states(['.PDF', 'Application/PDF'])).toMatchObject({ pdf: 'on' });
    // half a preset is not the preset
    expect(states(['.pdf'])).toMatchObject({ pdf: 'off' });
  });
  it('a preset held whole by a larger one that is ticked shows as within it', () => {
    const accept = withPreset([], 'documents', true) ?? [];
    expect(states(accept)).toMatchObject({ documents: 'on', pdf: 'within' });
    const pdf = presetStates(accept).get('pdf');
    expect(pdf?.state === 'within' && pdf.by.key).toBe('documents');
  });
  it('ticking adds a preset’s entries once; unticking takes them out and keeps the rest', () => {
    const images = withPreset([], 'images', true);
    expect(images).toEqual(['image/*']);
    const both = withPreset(images ?? [], 'pdf', true);
    expect(both).toEqual(['image/*', '.pdf', 'application/pdf']);
    // ticked twice: no entry twice
    expect(withPreset(both ?? [], 'pdf', true)).toEqual(both);
    expect(withPreset(both ?? [], 'images', false)).toEqual(['.pdf', 'application/pdf']);
    // the last one unticked: any file again (the member left out)
    expect(withPreset(['image/*'], 'images', false)).toBeUndefined();
  });
  it('unticking a larger preset takes the smaller one within it too, but not what was typed', () => {
    const accept = [...(withPreset(['.heic'], 'documents', true) ?? [])];
    expect(withPreset(accept, 'documents', false)).toEqual(['.heic']);
  });
  it('unticking one of two presets that share nothing keeps the other whole', () => {
    const accept = withPreset(withPreset([], 'spreadsheets', true) ?? [], 'pdf', true) ?? [];
    expect(withPreset(accept, 'pdf', false)).toEqual(preset('spreadsheets').entries);
  });
  it('every preset’s entries have the form the server takes', () => {
    for (const { entries } of ACCEPT_PRESETS)
      for (const entry of entries) expect(entry).toMatch(ACCEPT_ENTRY);
  });
});

describe('accepted types: the entries typed by hand', () => {
  it('reads extensions with or without their dot and media types in lower case', () => {
    expect(parseOtherEntries('.heic, dwg  Application/ZIP;image/svg+xml')).toEqual({
      entries: ['.heic', '.dwg', 'application/zip', 'image/svg+xml'],
    });
    expect(parseOtherEntries('   ')).toEqual({ entries: [] });
  });
  it('names what is neither an extension nor a media type, and leaves it out', () => {
    const read = parseOtherEntries('.heic, image/, a/b/c');
    expect(read.entries).toEqual(['.heic']);
    expect(read.problem).toBe(
      '“image/”, “a/b/c” are neither an extension like .heic nor a type like image/png',
    );
    expect(parseOtherEntries('*').problem).toMatch(/^“\*” is neither/);
  });
  it('holds entries to the server’s pattern (forms/schemas.ts ACCEPT_PATTERN)', () => {
    for (const good of ['.pdf', '.tar.gz', '.PDF', 'image/*', 'application/vnd.ms-excel', 'image/svg+xml'])
      expect(good).toMatch(ACCEPT_ENTRY);
    for (const bad of ['pdf', '.', '*/*', 'Image/png', 'image/', '/png', '.a b'])
      expect(bad).not.toMatch(ACCEPT_ENTRY);
  });
  it('shows the entries no ticked preset covers, and puts typed ones in their place', () => {
    const accept = ['image/*', '.heic', '.pdf'];
    expect(otherEntries(accept)).toEqual(['.heic', '.pdf']);
    expect(entriesText(otherEntries(accept))).toBe('.heic, .pdf');
    expect(withOtherEntries(accept, ['.dwg'])).toEqual(['image/*', '.dwg']);
    expect(withOtherEntries(['image/*'], [])).toEqual(['image/*']);
    expect(withOtherEntries(['.heic'], [])).toBeUndefined();
    // an entry typed that a ticked preset already holds is not stored twice
    expect(withOtherEntries(['image/*'], ['IMAGE/*', '.heic'])).toEqual(['image/*', '.heic']);
  });
});
