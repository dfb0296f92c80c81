import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { acceptsGzip, SplicedBody } from './spliced-body.js';

const MARKERS = ['@@session@@', '@@key@@'];

describe('a spliced body', () => {
  it('is, as is and gunzipped, the text with each hole filled, whatever the text and values', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 3000 }), fc.constantFrom(...MARKERS)), {
          maxLength: 12,
        }),
        fc.string({ maxLength: 60 }),
        fc.string({ unit: 'grapheme', maxLength: 60 }),
        (pieces, session, key) => {
          const text = `${MARKERS.join('')}${pieces.join('')}`;
          const cut = SplicedBody.cut(text, MARKERS);
          expect(cut).toBeDefined();
          if (!cut) return;
          const values = cut.holes.map((hole) => (hole === 0 ? session : key));
          const expected = text
            .replaceAll(MARKERS[0] as string, () => session)
            .replaceAll(MARKERS[1] as string, () => key);
          expect(cut.body.identity(values).toString()).toBe(expected);
          expect(gunzipSync(cut.body.gzip(values)).toString()).toBe(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('compresses a page as well as compressing it whole, give or take a few bytes a hole', () => {
    const page = `<!doctype html><html>${'<label>Question</label><input name="q">'.repeat(300)}<input name="_session" value="${MARKERS[0]}"><input name="_idempotency" value="${MARKERS[1]}"></html>`;
    const cut = SplicedBody.cut(page, MARKERS);
    const spliced = cut?.body.gzip(['a'.repeat(22), 'b'.repeat(22)]);
    expect(spliced?.length).toBeLessThan(page.length / 20);
  });

  it('cannot be cut when a hole is missing', () => {
    expect(SplicedBody.cut(`only ${MARKERS[0]}`, MARKERS)).toBeUndefined();
  });

  it('is sent gzipped only to a client that takes gzip', () => {
    expect(acceptsGzip('gzip, deflate, br')).toBe(true);
    expect(acceptsGzip('br;q=1, gzip;q=0.5')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('br')).toBe(false);
    expect(acceptsGzip('')).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
  });
});
