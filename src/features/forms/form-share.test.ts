import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { expectProblem } from '../../../test/support/assertions.js';
import { createForm, signup } from '../../../test/support/factories.js';
import { qrSvg } from './qr.js';
import { readableFormId, slugOf } from './readable-id.js';

/**
 * Issue 25 item 7, the server's part of sharing a form: an id read from its title when it is
 * created, and its QR code (GET /forms/{id}/qr.svg).
 */

/** The dark modules an SVG of qr.ts draws, as rows of 0 and 1 (the quiet zone left out). */
function modulesOf(svg: string): string[] {
  const side = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)?.[1]);
  const size = side - 8;
  const rows = Array.from({ length: size }, () => Array<string>(size).fill('0'));
  for (const [, x, y, run] of svg.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
    for (let i = 0; i < Number(run); i++) {
      const row = rows[Number(y) - 4];
      if (row) row[Number(x) - 4 + i] = '1';
    }
  }
  return rows.map((row) => row.join(''));
}

/**
 * https://forms.example.com/f/frm_golden-test at error correction M, drawn by another
 * implementation (python-qrcode 8.2, mask pattern 2: the one the penalty rules pick here).
 */
const GOLDEN = [
  '111111100000101010110101101111111',
  '100000100110000100101100001000001',
  '101110101101001010001111101011101',
  '101110101010100100100100101011101',
  '101110101110001111001010001011101',
  '100000101101010001010011101000001',
  '111111101010101010101010101111111',
  '000000001010000010111101000000000',
  '101111100001111001010011001111100',
  '110001010110110011111001001101101',
  '000011100001111111000010011010110',
  '100110010101010011101000010011111',
  '011010100010001010011111110111010',
  '001010011101110100100100111101011',
  '000000110010001111101110111111010',
  '001101010110001100000110011011100',
  '010010100011001101000010110110001',
  '101101011100101000111111001101101',
  '011000100110110100100100110110110',
  '001011001111000010000111100111111',
  '101000111111011100100100010111011',
  '111110000111101111001011001001001',
  '101101100010110001010100010000110',
  '101110011000000010011101101001111',
  '100100101000010001011010111110001',
  '000000001011000011111001100010110',
  '111111100100000111001011101010110',
  '100000101011011011101001100011110',
  '101110101100010010011110111111011',
  '101110101010010101100101010011101',
  '101110101100100110001101001100100',
  '100000100010111100000111010011100',
  '111111101100100101100011110100010',
];

describe('readable form ids', () => {
  it("takes the title's words, lower case, accents dropped, cut at a word", () => {
    expect(slugOf('Contact us')).toBe('contact-us');
    expect(slugOf('  Café & Co. — Inscription 2027! ')).toBe('cafe-co-inscription-2027');
    expect(slugOf('联系我们')).toBe('');
    const long = slugOf(
      'The annual general meeting of the neighbourhood gardening association, spring edition',
    );
    expect(long).toBe('the-annual-general-meeting-of-the');
    expect(long.length).toBeLessThanOrEqual(40);
    expect(slugOf('a'.repeat(60))).toBe('a'.repeat(40));
  });

  it('adds eight random characters, and keeps the opaque id for a title without Latin words', () => {
    expect(readableFormId('Contact us')).toMatch(/^frm_contact-us-[0-9a-hjkmnp-tv-z]{8}$/);
    expect(readableFormId('联系我们')).toMatch(/^frm_[0-9a-hjkmnp-tv-z]{26}$/);
    const ids = new Set(Array.from({ length: 1000 }, () => readableFormId('Contact us')));
    expect(ids.size).toBe(1000);
  });
});

describe('the QR code drawing', () => {
  it('is the code another implementation makes of the same link, with its quiet zone and a title', () => {
    const svg = qrSvg('https://forms.example.com/f/frm_golden-test');
    expect(modulesOf(svg)).toEqual(GOLDEN);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" role="img" aria-labelledby="qr-title"/);
    expect(svg).toContain(
      '<title id="qr-title">QR code that opens https://forms.example.com/f/frm_golden-test</title>',
    );
    expect(svg).toContain('viewBox="0 0 41 41"');
  });

  it('escapes what it names', () => {
    expect(qrSvg('https://x.example/f/a?b=1&c="<d>"')).toContain(
      'opens https://x.example/f/a?b=1&#38;c=&#34;&#60;d&#62;&#34;</title>',
    );
  });
});

describe('sharing a form through the API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ publicUrl: 'https://forms.example.com' });
  });
  afterAll(() => t.close());

  it('gives a new form an id from its title, kept when the title changes', async () => {
    const user = await signup(t);
    const first = await createForm(t, user.token, { title: 'Event registration: Summer Party' });
    const second = await createForm(t, user.token, { title: 'Event registration: Summer Party' });
    expect(first.id).toMatch(/^frm_event-registration-summer-party-[0-9a-hjkmnp-tv-z]{8}$/);
    expect(second.id).not.toBe(first.id);
    const renamed = await t.request({
      method: 'PUT',
      url: `/forms/${first.id}`,
      auth: user.token,
      body: { title: 'Winter party' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: first.id, title: 'Winter party' });
  });

  it('still takes an id the client chooses', async () => {
    const user = await signup(t);
    const id = `my-own-${Date.now()}`;
    expect((await createForm(t, user.token, { id })).id).toBe(id);
  });

  it('draws the QR code of the hosted page for its owner in any status, named for screen readers', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, { title: 'Contact us' });
    const response = await t.request({ method: 'GET', url: `/forms/${form.id}/qr.svg`, auth: user.token });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
    expect(response.headers['cache-control']).toMatch(/^private/);
    expect(response.text).toContain(
      `<title id="qr-title">QR code that opens https://forms.example.com/f/${form.id}</title>`,
    );
    expect(modulesOf(response.text)).toEqual(modulesOf(qrSvg(`https://forms.example.com/f/${form.id}`)));
  });

  it('draws it for anyone once the form is live, and for nobody else before', async () => {
    const owner = await signup(t);
    const other = await signup(t);
    const form = await createForm(t, owner.token, { title: 'Feedback' });
    const url = `/forms/${form.id}/qr.svg`;
    expectProblem(await t.request({ method: 'GET', url }), 404, 'not_found');
    expectProblem(await t.request({ method: 'GET', url, auth: other.token }), 403, 'not_owner');
    await t.request({ method: 'PUT', url: `/forms/${form.id}`, auth: owner.token, body: { status: 'live' } });
    const anonymous = await t.request({ method: 'GET', url });
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers['cache-control']).toMatch(/^public/);
    expect((await t.request({ method: 'GET', url, auth: other.token })).status).toBe(200);
  });

  it('answers an unknown form with a 404 problem', async () => {
    expectProblem(
      await t.request({ method: 'GET', url: '/forms/frm_nothing-here/qr.svg' }),
      404,
      'not_found',
    );
  });
});
