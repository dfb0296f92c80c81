import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import {
  type AuthRow,
  authMatrix,
  buildCallers,
  type Callers,
  CREATED,
  cookieIgnored,
  DENIED_TO_STRANGERS,
  type Expected,
  FORBIDDEN,
  INVALID_CREDENTIALS,
  LISTED_CALLERS,
  type ListedCaller,
  NOT_FOUND,
  OK,
  succeeds,
  withCredential,
} from '../../../test/support/auth-matrix.js';
import { createForm } from '../../../test/support/factories.js';
import { multipart, PDF } from '../../../test/support/multipart.js';

/**
 * Who may touch files (API.md §12), caller by caller: first as a table of answers (the
 * authorization matrix of the three file routes), then against the rule each mirrors: who may
 * upload to a form is exactly who may submit to it (§6.1), and who may download a response's
 * file is exactly who may read the response (§6.2), so that the two can never drift apart.
 */

let t: TestApp;
let callers: Callers;
const forms: Record<'live' | 'draft', string> = { live: '', draft: '' };
let submissionId = '';
let fileId = '';
let fileUrl = '';

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
  fileUrl = read.body.answers.doc[0].url;
});
afterAll(() => t.close());

interface World extends Callers {
  forms: typeof forms;
}

/** Submitting is public (§6.1): a key must be of the form's environment, a bad credential is refused. */
const UPLOAD_TO_LIVE: Record<ListedCaller, Expected> = {
  anonymous: CREATED,
  // a session is an owner's, and owners manage forms: they do not fill them in (§6.1)
  'other user session': FORBIDDEN,
  'publishable key (same env)': CREATED,
  'secret key (same env)': CREATED,
  'secret key (other env)': FORBIDDEN,
  "other user's secret key": FORBIDDEN,
  ...INVALID_CREDENTIALS,
  'owner session': FORBIDDEN,
};

/** A draft takes submissions (so uploads) only from a secret key of its environment, for testing; to the public it is not there. */
const UPLOAD_TO_DRAFT: Record<ListedCaller, Expected> = {
  anonymous: NOT_FOUND,
  'other user session': FORBIDDEN,
  'publishable key (same env)': FORBIDDEN,
  'secret key (same env)': CREATED,
  'secret key (other env)': FORBIDDEN,
  "other user's secret key": FORBIDDEN,
  ...INVALID_CREDENTIALS,
  'owner session': FORBIDDEN,
};

const uploadRow = (status: 'live' | 'draft'): AuthRow<World> => ({
  name: `POST /forms/{id}/uploads (${status})`,
  request: (w) => ({ method: 'POST', url: `/forms/${w.forms[status]}/uploads`, ...uploadBody() }),
  expected: status === 'live' ? UPLOAD_TO_LIVE : UPLOAD_TO_DRAFT,
  // a public route: the browser's cookie is not a credential there
  cookie: cookieIgnored(status === 'live' ? CREATED : NOT_FOUND),
  verify: async (_w, _r, response, _caller, expected) => {
    if (succeeds(expected)) expect(response.body.uploadId).toMatch(/^upl_/);
    else expect(response.body?.uploadId).toBeUndefined();
  },
});

/** The bytes of the file the owner's response holds, to see they are sent exactly when allowed. */
const expectFileSent = (response: {
  status: number;
  headers: Record<string, unknown>;
  rawPayload?: Buffer;
  text: string;
}) => {
  expect(response.headers['content-disposition']).toMatch(/^attachment/);
  expect(response.text).toContain('%PDF');
};

const ownerDownloadRow: AuthRow<World> = {
  name: 'GET /responses/{id}/files/{fileId}',
  request: () => ({
    method: 'GET',
    url: `/responses/${submissionId}/files/${fileId}?form_id=${forms.live}&environment=development`,
  }),
  // read like the response itself: its owner's session or a secret key of its environment
  expected: { ...DENIED_TO_STRANGERS, 'secret key (same env)': OK, 'owner session': OK },
  verify: (_w, _r, response, _caller, expected) => {
    if (succeeds(expected)) expectFileSent(response);
    else expect(response.text).not.toContain('%PDF');
  },
};

/** A signed link is the credential: whoever holds it gets the file; a bad credential beside it is still refused. */
const linkRow: AuthRow<World> = {
  name: 'GET /files/{token}',
  request: () => ({ method: 'GET', url: new URL(fileUrl, 'http://link.invalid').pathname }),
  expected: {
    anonymous: OK,
    'other user session': OK,
    'publishable key (same env)': OK,
    'secret key (same env)': OK,
    'secret key (other env)': OK,
    "other user's secret key": OK,
    ...INVALID_CREDENTIALS,
    'owner session': OK,
  },
  cookie: cookieIgnored(OK),
  verify: (_w, _r, response, _caller, expected) => {
    if (succeeds(expected)) expectFileSent(response);
    else expect(response.text).not.toContain('%PDF');
  },
};

describe('the file routes, caller by caller', () => {
  authMatrix({
    app: () => t,
    world: () => ({ ...callers, forms }),
    rows: [uploadRow('live'), uploadRow('draft'), ownerDownloadRow, linkRow],
  });

  it('an altered link is 404 to everyone, the owner too', async () => {
    const path = new URL(fileUrl, 'http://link.invalid').pathname;
    const altered = `${path.slice(0, -2)}${path.endsWith('AA') ? 'BB' : 'AA'}`;
    // a token made longer than any link's (500 characters, 2,000) is altered too: 404, not a 400 on its length
    const lengthened = [
      `${path}${'A'.repeat(500 - path.length + '/files/'.length)}`,
      `/files/${'B'.repeat(2000)}`,
    ];
    for (const url of [altered, ...lengthened])
      for (const auth of [undefined, callers.owner.token]) {
        const response = await t.request({ method: 'GET', url, auth });
        expect(response.status, url.slice(0, 60)).toBe(404);
        expect(response.text).not.toContain('%PDF');
      }
  });
});

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
