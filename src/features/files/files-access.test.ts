import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import {
  buildCallers,
  type Callers,
  LISTED_CALLERS,
  withCredential,
} from '../../../test/support/auth-matrix.js';
import { createForm } from '../../../test/support/factories.js';
import { multipart, PDF } from '../../../test/support/multipart.js';

/**
 * Who may touch files (API.md §12), caller by caller: who may upload to a form is exactly who
 * may submit to it (§6.1), and who may download a response's file is exactly who may read the
 * response (§6.2). Each is checked against the rule it mirrors, on the same callers, so that
 * the two can never drift apart.
 */

let t: TestApp;
let callers: Callers;
const forms: Record<'live' | 'draft', string> = { live: '', draft: '' };
let submissionId = '';
let fileId = '';

const FIELDS = [{ id: 'doc', type: 'file', label: 'Document' }];

function uploadBody() {
  return multipart([
    { name: 'field', value: 'doc' },
    { name: 'file', filename: 'a.pdf', content: PDF },
  ]);
}

beforeAll(async () => {
  t = await createTestApp({ rateLimitPublic: 1_000_000 });
  callers = await buildCallers(t);
  forms.live = (await createForm(t, callers.owner.token, { status: 'live', fields: FIELDS })).id;
  forms.draft = (await createForm(t, callers.owner.token, { fields: FIELDS })).id;
  const { body, headers } = uploadBody();
  const uploaded = await t.request({ method: 'POST', url: `/forms/${forms.live}/uploads`, body, headers });
  const submitted = await t.request({
    method: 'POST',
    url: `/forms/${forms.live}/submit`,
    body: { answers: { doc: [uploaded.body.uploadId] } },
  });
  submissionId = submitted.body.id;
  const read = await t.request({
    method: 'GET',
    url: `/responses/${submissionId}?form_id=${forms.live}&environment=development`,
    auth: callers.owner.token,
  });
  fileId = read.body.answers.doc[0].id;
});
afterAll(() => t.close());

describe.each(LISTED_CALLERS)('%s', (caller) => {
  it.each(['live', 'draft'] as const)(
    'may upload to a %s form exactly when it may submit to it',
    async (status) => {
      const credential = callers.credentials[caller];
      const submit = await t.request(
        withCredential(
          { method: 'POST', url: `/forms/${forms[status]}/submit`, body: { answers: {} } },
          credential,
        ),
      );
      const { body, headers } = uploadBody();
      const upload = await t.request(
        withCredential({ method: 'POST', url: `/forms/${forms[status]}/uploads`, body, headers }, credential),
      );
      if (submit.status === 201) expect(upload.status).toBe(201);
      else {
        expect(upload.status).toBe(submit.status);
        expect(upload.body?.code).toBe(submit.body?.code);
      }
    },
  );

  it('may download a response’s file exactly when it may read the response', async () => {
    const credential = callers.credentials[caller];
    const read = await t.request(
      withCredential(
        { method: 'GET', url: `/responses/${submissionId}?form_id=${forms.live}&environment=development` },
        credential,
      ),
    );
    const download = await t.request(
      withCredential(
        {
          method: 'GET',
          url: `/responses/${submissionId}/files/${fileId}?form_id=${forms.live}&environment=development`,
        },
        credential,
      ),
    );
    expect(download.status).toBe(read.status);
    if (read.status === 200) expect(download.headers['content-disposition']).toMatch(/^attachment/);
    else expect(download.body?.code).toBe(read.body?.code);
  });
});

describe('a file id of another response', () => {
  it('is 404, even for the owner', async () => {
    const other = await t.request({
      method: 'POST',
      url: `/forms/${forms.live}/submit`,
      body: { answers: {} },
    });
    const response = await t.request({
      method: 'GET',
      url: `/responses/${other.body.id}/files/${fileId}`,
      auth: callers.owner.token,
    });
    expect(response.status).toBe(404);
  });
});
