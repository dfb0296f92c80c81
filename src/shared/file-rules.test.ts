import { describe, expect, it } from 'vitest';
import {
  acceptsFile,
  DEFAULT_MAX_FILE_SIZE,
  type FileFacts,
  type FileLimits,
  acceptInWords as inWords,
  limitsOf as limitsFor,
  limitsInWords as limitsIn,
  fileProblem as problemIn,
  tooMany as tooManyIn,
} from './file-rules.js';
import { ENGLISH_WORDS as EN } from './i18n/english.js';

// in English, as the API says them (each takes the page's words)
const acceptInWords = (accept: readonly string[]) => inWords(accept, EN);
const limitsOf = (field: Parameters<typeof limitsFor>[0]) => limitsFor(field, EN);
const limitsInWords = (limits: FileLimits) => limitsIn(limits, EN);
const fileProblem = (limits: FileLimits, file: FileFacts) => problemIn(limits, file, EN);
const tooMany = (limits: FileLimits, count: number) => tooManyIn(limits, count, EN);

const MiB = 1024 * 1024;

describe('acceptsFile: the rules of the accept attribute', () => {
  it('takes any file when accept is empty', () => {
    expect(acceptsFile([], { name: 'anything.exe', type: 'application/x-msdownload' })).toBe(true);
    expect(acceptsFile([], { name: 'no-extension', type: '' })).toBe(true);
  });

  it('matches an extension at the end of the name, whatever the letter case', () => {
    expect(acceptsFile(['.pdf'], { name: 'CV.PDF', type: '' })).toBe(true);
    expect(acceptsFile(['.PDF'], { name: 'cv.pdf', type: 'application/pdf' })).toBe(true);
    expect(acceptsFile(['.pdf'], { name: 'cv.pdf.exe', type: '' })).toBe(false);
    expect(acceptsFile(['.pdf'], { name: 'pdf', type: '' })).toBe(false);
  });

  it('matches type/* by the type before the slash, and a media type exactly', () => {
    expect(acceptsFile(['image/*'], { name: 'a.png', type: 'image/png' })).toBe(true);
    expect(acceptsFile(['image/*'], { name: 'a.png', type: 'imagex/png' })).toBe(false);
    expect(acceptsFile(['image/*'], { name: 'a.png', type: '' })).toBe(false);
    expect(acceptsFile(['application/pdf'], { name: 'a', type: 'Application/PDF' })).toBe(true);
    expect(acceptsFile(['application/pdf'], { name: 'a.pdf', type: 'application/pdfx' })).toBe(false);
  });

  it('takes a file that any one entry matches', () => {
    const accept = ['.pdf', 'image/*'];
    expect(acceptsFile(accept, { name: 'scan.jpg', type: 'image/jpeg' })).toBe(true);
    expect(acceptsFile(accept, { name: 'cv.pdf', type: '' })).toBe(true);
    expect(acceptsFile(accept, { name: 'notes.txt', type: 'text/plain' })).toBe(false);
  });
});

describe('the limits in words', () => {
  it('names the kinds of file once each, joined with "or"', () => {
    expect(acceptInWords([])).toBe('');
    expect(acceptInWords(['.pdf'])).toBe('PDF');
    expect(acceptInWords(['.pdf', 'application/pdf', 'image/*'])).toBe('PDF or images');
    expect(acceptInWords(['image/png', '.jpg', 'application/pdf'])).toBe('PNG, JPG, or PDF');
    expect(acceptInWords(['video/*', 'audio/*', 'font/*'])).toBe('videos, audio, or font files');
    expect(acceptInWords(['application/vnd.openxmlformats-officedocument.wordprocessingml.document'])).toBe(
      'Word documents',
    );
    // a media type without a name people know stays as it is
    expect(acceptInWords(['application/vnd.example.thing'])).toBe('application/vnd.example.thing');
  });

  it('says how many files, how large, and of which kinds', () => {
    expect(limitsInWords(limitsOf({}))).toBe('One file, up to 10 MB');
    expect(limitsInWords(limitsOf({ maxFiles: 3, accept: ['.pdf', 'image/*'] }))).toBe(
      'Up to 3 files, 10 MB each; PDF or images',
    );
    expect(limitsInWords(limitsOf({ maxFileSize: 2.5 * MiB, accept: ['.csv'] }))).toBe(
      'One file, up to 2.5 MB; CSV',
    );
  });

  it('takes the defaults of API.md §12: one file of 10 MiB, of any type', () => {
    expect(limitsOf({})).toEqual({
      maxFiles: 1,
      maxFileSize: DEFAULT_MAX_FILE_SIZE,
      accept: [],
      acceptText: '',
    });
    expect(DEFAULT_MAX_FILE_SIZE).toBe(10_485_760);
  });
});

describe('fileProblem and tooMany: a chosen file checked in the validator’s words', () => {
  const limits = limitsOf({ maxFiles: 2, maxFileSize: MiB, accept: ['.pdf', 'image/*'] });

  it('passes a file within the limits', () => {
    expect(fileProblem(limits, { name: 'cv.pdf', size: 1000, type: 'application/pdf' })).toBeUndefined();
    expect(fileProblem(limits, { name: 'scan.png', size: MiB, type: 'image/png' })).toBeUndefined();
  });

  it('refuses an empty file, then one too large, then one of another type', () => {
    expect(fileProblem(limits, { name: 'blank.exe', size: 0, type: '' })).toBe(
      '“blank.exe” is empty: choose a file with something in it',
    );
    expect(fileProblem(limits, { name: 'big.exe', size: MiB + 1, type: '' })).toBe(
      '“big.exe” is larger than 1 MB: choose a smaller file',
    );
    expect(fileProblem(limits, { name: 'notes.txt', size: 10, type: 'text/plain' })).toBe(
      '“notes.txt” is not a file of an accepted type (PDF or images)',
    );
  });

  it('counts the files a field would hold', () => {
    expect(tooMany(limits, 2)).toBeUndefined();
    expect(tooMany(limits, 3)).toBe('Choose no more than 2 files');
    expect(tooMany(limitsOf({}), 2)).toBe('Choose no more than 1 file');
  });
});
