// @vitest-environment happy-dom
import { beforeAll, describe, expect, it, vi } from 'vitest';

/** A form as its owner reads it: the owner's view taken, another's public view refused. */

let answer: unknown;
let loadStoredForm: typeof import('./resource.js').loadStoredForm;
beforeAll(async () => {
  vi.stubGlobal(
    'fetch',
    async () =>
      new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } }),
  );
  ({ loadStoredForm } = await import('./resource.js'));
});

describe('loadStoredForm', () => {
  it('takes the owner’s view (it names its owner)', async () => {
    answer = { id: 'frm_1', title: 'Feedback', userId: 'usr_1', version: 2 };
    await expect(loadStoredForm('frm_1')).resolves.toMatchObject({ id: 'frm_1', version: 2 });
  });

  it('refuses the public view of someone else’s live form, as not found', async () => {
    answer = { id: 'frm_2', title: 'Theirs', fields: [] };
    await expect(loadStoredForm('frm_2')).rejects.toMatchObject({ status: 404 });
  });
});
