import { describe, expect, it } from 'vitest';
import {
  checksumOnly,
  downloadHref,
  fileBadge,
  fileFacts,
  filesOf,
  filesSummary,
  hasThumbnail,
  isStoredFile,
  type StoredFile,
  THUMBNAIL_MAX_BYTES,
} from './files.js';

const SHA = 'a'.repeat(64);
const pdf: StoredFile = {
  id: 'fil_1',
  name: 'cv.pdf',
  type: 'application/pdf',
  size: 123_456,
  sha256: SHA,
  url: '/files/tok',
};
const photo: StoredFile = { id: 'fil_2', name: 'me.jpg', type: 'image/jpeg', size: 80_000, sha256: SHA };
/** Kept as a checksum only (piiMode hashed): the name's hash, no id, no link, no bytes. */
const hashed: StoredFile = { name: `sha256:${'b'.repeat(64)}`, type: '', size: 2048, sha256: SHA };

describe('a file answer known by its shape', () => {
  it('is a non-empty list of files, each with a name, a size and a checksum', () => {
    expect(filesOf([pdf, photo])).toEqual([pdf, photo]);
    expect(filesOf([hashed])).toEqual([hashed]);
    expect(isStoredFile({ name: 'x', size: 1 })).toBe(false);
    expect(filesOf([])).toBeUndefined();
    expect(filesOf(['a', 'b'])).toBeUndefined();
    expect(filesOf([pdf, 'a'])).toBeUndefined();
    expect(filesOf(pdf)).toBeUndefined();
    expect(filesOf('cv.pdf')).toBeUndefined();
  });
});

describe('a file answer in words', () => {
  it('counts the files for a list row', () => {
    expect(filesSummary([pdf])).toBe('1 file');
    expect(filesSummary([pdf, photo])).toBe('2 files');
    expect(filesSummary([])).toBe('No files');
  });
  it('gives a file’s type and size in words', () => {
    expect(fileFacts(pdf)).toBe('application/pdf, 121 kB');
    expect(fileFacts({ ...pdf, type: '', size: 10 })).toBe('unknown type, 10 bytes');
    expect(fileFacts({ ...pdf, type: 'application/octet-stream' })).toMatch(/^unknown type/);
  });
});

describe('downloads and thumbnails', () => {
  it('downloads through the owner’s route, its ids escaped', () => {
    expect(downloadHref('sub_1', 'fil_1')).toBe('/responses/sub_1/files/fil_1');
    expect(downloadHref('a/b', 'c?d')).toBe('/responses/a%2Fb/files/c%3Fd');
  });
  it('knows a file kept as a checksum only: nothing to download', () => {
    expect(checksumOnly(hashed)).toBe(true);
    expect(checksumOnly(pdf)).toBe(false);
    expect(hasThumbnail({ ...hashed, type: 'image/png' })).toBe(false);
  });
  it('draws a thumbnail of a small raster image only: never SVG, never a large one', () => {
    expect(hasThumbnail(photo)).toBe(true);
    expect(hasThumbnail({ ...photo, type: 'IMAGE/PNG' })).toBe(true);
    expect(hasThumbnail(pdf)).toBe(false);
    expect(hasThumbnail({ ...photo, type: 'image/svg+xml' })).toBe(false);
    expect(hasThumbnail({ ...photo, size: THUMBNAIL_MAX_BYTES + 1 })).toBe(false);
  });
  it('stands a word for the kind of file in a thumbnail’s place', () => {
    expect(fileBadge(pdf)).toBe('PDF');
    expect(fileBadge({ ...pdf, name: 'notes.final.docx' })).toBe('DOCX');
    expect(fileBadge({ ...pdf, name: 'README' })).toBe('FILE');
    expect(fileBadge({ ...pdf, name: 'x.tar.backup' })).toBe('FILE');
    expect(fileBadge(hashed)).toBe('SHA');
  });
});
