import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Response, type TestApp } from '../../../test/support/app.js';
import { expectProblem } from '../../../test/support/assertions.js';
import {
  createEnvironment,
  createForm,
  createKey,
  signup,
  type TestUser,
} from '../../../test/support/factories.js';
import {
  freePort,
  parseMail,
  type ReceivedMail,
  startSmtpServer,
  type TestSmtpServer,
} from '../../../test/support/mail.js';
import { eventually, waitFor } from '../../../test/support/poll.js';
import { mailboxKey } from './mail.js';

/**
 * E-mail end to end (API.md §5.4 notifications and autoResponse, §6.2 reply, §9 SMTP_URL),
 * against a real SMTP server in this process: what is sent, to whom, how the answers
 * appear (PII modes, {{field}} templating, HTML escaping), what is not sent (quarantined
 * submissions, unusable addresses), the outbox worker's retries, and the `.eml` fallback.
 */

const unique = () => randomBytes(5).toString('hex');
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Mail whose text mentions one of these markers is refused once with 451 (a transient failure). */
const refuseOnce = new Set<string>();

let smtp: TestSmtpServer;
let t: TestApp;

beforeAll(async () => {
  smtp = await startSmtpServer({
    refuse: (mail) => {
      if (mail.rcptTo.some((address) => address.startsWith('refuse-'))) return 550;
      const marker = [...refuseOnce].find((m) => mail.text.includes(m));
      if (marker) {
        refuseOnce.delete(marker);
        return 451;
      }
      return undefined;
    },
  });
  t = await createTestApp(
    { smtpUrl: smtp.url, mailFrom: 'Intake <intake@intake.test>', rateLimitPublic: 1_000_000 },
    { outbox: { pollMs: 50, retryDelaysMs: [200, 200, 200] } },
  );
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const BASE_FIELDS = [
  { id: 'name', type: 'text', label: 'Name', required: true },
  { id: 'email', type: 'email', label: 'E-mail', required: true },
  { id: 'topic', type: 'select', label: 'Topic', options: ['sales', 'support'] },
  { id: 'message', type: 'textarea', label: 'Message' },
];

async function liveForm(owner: TestUser, overrides: Record<string, unknown> = {}): Promise<any> {
  return createForm(t, owner.token, { status: 'live', fields: BASE_FIELDS, ...overrides });
}

const notifyTo = (...to: string[]) => ({ notifications: { email: { enabled: true, to } } });

async function submitTo(app: TestApp, formId: string, answers: Record<string, unknown>): Promise<any> {
  const response = await app.request({ method: 'POST', url: `/forms/${formId}/submit`, body: { answers } });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

const mentioning = (text: string) => (mail: ReceivedMail) => mail.text.includes(text);
const addressedTo = (address: string) => (mail: ReceivedMail) => mail.rcptTo.includes(address);

async function mailsWhere(
  predicate: (mail: ReceivedMail) => boolean,
  count: number,
): Promise<ReceivedMail[]> {
  await smtp.waitFor((mails) => mails.filter(predicate).length >= count);
  return smtp.received.filter(predicate);
}

/** The outbox rows a submission caused, payloads parsed. */
async function outboxOf(submissionId: string) {
  const rows = await t.app.intake.database.db
    .selectFrom('outbox')
    .selectAll()
    .where('payload', 'like', `%${submissionId}%`)
    .execute();
  return rows.map((row) => ({ ...row, parsed: JSON.parse(row.payload) }));
}

/** Waits until the worker has finished every message of the submission. */
async function settled(submissionId: string): Promise<Awaited<ReturnType<typeof outboxOf>>> {
  return waitFor(
    async () => {
      const rows = await outboxOf(submissionId);
      return rows.every((row) => row.status !== 'pending') && rows;
    },
    { timeoutMs: 5_000, intervalMs: 25, what: `the outbox messages of ${submissionId} to settle` },
  );
}

describe('owner notifications', () => {
  it('mails each address once, the answers as the owner sees them: masked stays masked, HTML escaped', async () => {
    const owner = await signup(t);
    const a = `a-${unique()}@owner.test`;
    const b = `b-${unique()}@owner.test`;
    const form = await liveForm(owner, {
      storage: { mode: 'owner', pii: 'masked' },
      fields: BASE_FIELDS.map((f) => (f.id === 'email' ? { ...f, pii: true } : f)),
      ...notifyTo(a, b, a.toUpperCase()),
    });
    const submission = await submitTo(t, form.id, {
      name: 'Jane <b>Doe</b> & "co"',
      email: 'jane.doe@example.com',
      topic: 'support',
      message: 'Line one\nLine two',
    });

    const mails = await mailsWhere(mentioning(submission.id), 2);
    expect(mails.map((m) => m.rcptTo).sort()).toEqual([[a], [b]].sort());
    await settled(submission.id);
    expect(smtp.received.filter(mentioning(submission.id))).toHaveLength(2); // the upper-case repeat is the same address
    for (const mail of mails) {
      expect(mail.mailFrom).toBe('intake@intake.test');
      expect(mail.subject).toBe('New submission: Contact us');
      expect(mail.text).toContain('Name: Jane <b>Doe</b> & "co"');
      expect(mail.text).toContain('E-mail: j***@example.com');
      expect(mail.text).toContain('Topic: support');
      expect(mail.text).toContain('Message: Line one\nLine two');
      expect(mail.text).toContain(`Submission: ${submission.id}`);
      expect(mail.text).toContain(`Received: ${submission.createdAt}`);
      expect(mail.html).toContain('Jane &lt;b&gt;Doe&lt;/b&gt; &amp; &quot;co&quot;');
      expect(mail.html).not.toContain('<b>Doe');
      expect(mail.html).toContain('Line one<br>');
      // the masked address appears nowhere, not even as Reply-To
      expect(mail.raw).not.toContain('jane.doe@example.com');
      expect(mail.headers.has('reply-to')).toBe(false);
    }
  });

  it('shows a hashed answer as its hash, leaves a dropped one out, reveals an encrypted one (and replies to it)', async () => {
    const owner = await signup(t);
    const to = `n-${unique()}@owner.test`;
    const form = await liveForm(owner, {
      fields: [
        { id: 'name', type: 'text', label: 'Name', required: true },
        { id: 'email', type: 'email', label: 'E-mail', required: true, piiMode: 'encrypted' },
        { id: 'phone', type: 'text', label: 'Phone', piiMode: 'hashed' },
        { id: 'secret', type: 'text', label: 'Secret answer', piiMode: 'dropped' },
      ],
      ...notifyTo(to),
    });
    const submission = await submitTo(t, form.id, {
      name: 'Ann',
      email: 'ann@example.com',
      phone: '+44 20 7946 0000',
      secret: 'the-dropped-value',
    });
    const [mail] = await mailsWhere(mentioning(submission.id), 1);
    expect(mail?.text).toContain('E-mail: ann@example.com');
    expect(mail?.headers.get('reply-to')).toBe('ann@example.com');
    expect(mail?.text).toContain(`Phone: sha256:${sha256('+44 20 7946 0000')}`);
    expect(mail?.raw).not.toContain('+44 20 7946 0000');
    expect(mail?.raw).not.toContain('Secret answer');
    expect(mail?.raw).not.toContain('the-dropped-value');
  });

  it('are sent for flagged submissions, marked as such (but a flagged submission gets no auto-response)', async () => {
    const owner = await signup(t);
    const to = `f-${unique()}@owner.test`;
    const submitter = `s-${unique()}@example.com`;
    const form = await liveForm(owner, {
      spamProtection: { honeypot: { field: 'website' }, action: 'flag' },
      autoResponse: { enabled: true, emailField: 'email', subject: 'Thanks', body: 'Hello {{name}}' },
      ...notifyTo(to),
    });
    const submission = await submitTo(t, form.id, {
      name: 'Bot',
      email: submitter,
      website: 'http://spam.test',
    });
    expect(submission.status).toBe('flagged');
    const [mail] = await mailsWhere(mentioning(submission.id), 1);
    expect(mail?.subject).toBe('[Flagged as spam] New submission: Contact us');
    expect(mail?.text).toContain("flagged as spam by the form's spam protection");
    const rows = await settled(submission.id);
    expect(rows.map((row) => row.parsed.purpose)).toEqual(['notification']);
    expect(smtp.received.filter(addressedTo(submitter))).toEqual([]);
  });

  it('are never sent for quarantined submissions: nothing reaches the outbox', async () => {
    const owner = await signup(t);
    const to = `q-${unique()}@owner.test`;
    const submitter = `s-${unique()}@example.com`;
    const form = await liveForm(owner, {
      spamProtection: { honeypot: { field: 'website' }, action: 'quarantine' },
      autoResponse: { enabled: true, emailField: 'email', subject: 'Thanks', body: 'Hello' },
      ...notifyTo(to),
    });
    const spam = await submitTo(t, form.id, { name: 'Bot', email: submitter, website: 'http://spam.test' });
    expect(spam.status).toBe('quarantined');
    expect(await outboxOf(spam.id)).toEqual([]);

    // a clean submission right after is mailed; by then the quarantined one has caused nothing
    const clean = await submitTo(t, form.id, { name: 'Human', email: `h-${unique()}@example.com` });
    await mailsWhere(mentioning(clean.id), 1);
    await settled(clean.id);
    expect(smtp.received.filter(mentioning(spam.id))).toEqual([]);
    expect(smtp.received.filter(addressedTo(submitter))).toEqual([]);
  });

  it('are not sent when disabled', async () => {
    const owner = await signup(t);
    const form = await liveForm(owner, {
      notifications: { email: { enabled: false, to: [`d-${unique()}@owner.test`] } },
    });
    const submission = await submitTo(t, form.id, { name: 'Ann', email: 'ann@example.com' });
    expect(await outboxOf(submission.id)).toEqual([]);
  });

  it('are also sent when the form stores nothing (storage.mode none)', async () => {
    const owner = await signup(t);
    const to = `none-${unique()}@owner.test`;
    const form = await liveForm(owner, { storage: { mode: 'none' }, ...notifyTo(to) });
    const submission = await submitTo(t, form.id, { name: 'Nobody stores me', email: 'ann@example.com' });
    const [mail] = await mailsWhere(mentioning(submission.id), 1);
    expect(mail?.text).toContain('Name: Nobody stores me');
  });

  it('are written to the outbox with no PII in the clear: the whole message is encrypted', async () => {
    const owner = await signup(t);
    const to = `p-${unique()}@owner.test`;
    const submitter = `private-${unique()}@example.com`;
    const form = await liveForm(owner, {
      autoResponse: {
        enabled: true,
        emailField: 'email',
        subject: 'Thanks {{name}}',
        body: 'Hello {{name}}',
      },
      ...notifyTo(to),
    });
    const submission = await submitTo(t, form.id, { name: 'Very Private Person', email: submitter });
    const rows = await outboxOf(submission.id);
    expect(rows.map((row) => row.parsed.purpose).sort()).toEqual(['auto-response', 'notification']);
    for (const row of rows) {
      expect(row.kind).toBe('email');
      expect(Object.keys(row.parsed).sort()).toEqual(['ciphertext', 'formId', 'purpose', 'submissionId']);
      expect(row.parsed.ciphertext).toMatch(/^enc:v1:/);
      expect(row.payload).not.toContain(submitter);
      expect(row.payload).not.toContain('Very Private Person');
      expect(row.payload).not.toContain(to);
    }
    await mailsWhere(addressedTo(submitter), 1);
  });
});

describe('auto-response', () => {
  it('is written in the language the form was answered in (API.md §13): its translated subject and body, else the form’s own', async () => {
    const owner = await signup(t);
    const form = await liveForm(owner, {
      autoResponse: {
        enabled: true,
        emailField: 'email',
        subject: 'Thanks: {{topic}}',
        body: 'Hello {{name}}',
      },
      translations: {
        de: { autoResponse: { subject: 'Danke: {{topic}}', body: 'Hallo {{name}}, wir melden uns.' } },
        fr: { title: 'Contact' },
        ar: { autoResponse: { subject: 'شكرا: {{topic}}' } },
      },
    });
    const answered = async (query: string, headers: Record<string, string> = {}) => {
      const submitter = `lang-${unique()}@example.com`;
      const response = await t.request({
        method: 'POST',
        url: `/forms/${form.id}/submit${query}`,
        body: { answers: { name: 'Ada', email: submitter, topic: 'sales' } },
        headers,
      });
      expect(response.status, response.text).toBe(201);
      const [mail] = await mailsWhere(addressedTo(submitter), 1);
      return { subject: mail?.subject, text: mail?.text };
    };
    expect(await answered('?lang=de')).toEqual({
      subject: 'Danke: sales',
      text: 'Hallo Ada, wir melden uns.',
    });
    expect(await answered('', { 'accept-language': 'de-AT, en;q=0.5' })).toEqual({
      subject: 'Danke: sales',
      text: 'Hallo Ada, wir melden uns.',
    });
    // a language whose translation leaves the auto-response out: the form's own words
    expect(await answered('?lang=fr')).toEqual({ subject: 'Thanks: sales', text: 'Hello Ada' });
    // a translated subject alone: the body stays the form's own
    expect(await answered('?lang=ar')).toEqual({ subject: 'شكرا: sales', text: 'Hello Ada' });
    expect(await answered('')).toEqual({ subject: 'Thanks: sales', text: 'Hello Ada' });
  });

  it('mails the submitter, {{field}} placeholders filled in one pass, values escaped in HTML', async () => {
    const owner = await signup(t);
    const submitter = `auto-${unique()}@example.com`;
    const form = await liveForm(owner, {
      autoResponse: {
        enabled: true,
        emailField: 'email',
        subject: 'Thanks for asking about {{topic}}!',
        body: 'Hello {{ name }},\n\nYou asked about {{topic}}: {{message}}\nUnknown: [{{nope}}] & done',
      },
    });
    await submitTo(t, form.id, {
      name: '<script>alert(1)</script>',
      email: submitter,
      topic: 'sales',
      message: 'Use {{name}} & more',
    });
    const [mail] = await mailsWhere(addressedTo(submitter), 1);
    expect(mail?.rcptTo).toEqual([submitter]);
    expect(mail?.headers.get('to')).toBe(submitter);
    expect(mail?.subject).toBe('Thanks for asking about sales!');
    expect(mail?.text).toBe(
      'Hello <script>alert(1)</script>,\n\nYou asked about sales: Use {{name}} & more\nUnknown: [] & done',
    );
    expect(mail?.html).toContain('Hello &lt;script&gt;alert(1)&lt;/script&gt;,<br>');
    expect(mail?.html).toContain('You asked about sales: Use {{name}} &amp; more<br>');
    expect(mail?.html).toContain('Unknown: [] &amp; done');
    expect(mail?.html).not.toContain('<script>');
    expect(mail?.headers.get('auto-submitted')).toBe('auto-replied');
  });

  it('keeps the subject on one line: an answer cannot add headers or recipients', async () => {
    const owner = await signup(t);
    const submitter = `inject-${unique()}@example.com`;
    const victim = `victim-${unique()}@example.com`;
    const form = await liveForm(owner, {
      fields: BASE_FIELDS.map((f) =>
        f.id === 'topic' ? { ...f, options: ['sales', `sales\r\nBcc: ${victim}\r\nX-Injected: yes`] } : f,
      ),
      autoResponse: { enabled: true, emailField: 'email', subject: 'Hi {{name}} {{topic}}', body: 'Body' },
    });
    await submitTo(t, form.id, {
      name: `Eve\r\nBcc: ${victim}\r\nX-Injected: yes`,
      email: submitter,
      topic: `sales\r\nBcc: ${victim}\r\nX-Injected: yes`,
    });
    const [mail] = await mailsWhere(addressedTo(submitter), 1);
    // the free-text name is left out of the subject; the owner's option is put on one line
    expect(mail?.subject).toBe(`Hi sales Bcc: ${victim} X-Injected: yes`);
    expect(mail?.headers.has('bcc')).toBe(false);
    expect(mail?.headers.has('x-injected')).toBe(false);
    expect(mail?.rcptTo).toEqual([submitter]);
    expect(smtp.received.filter(addressedTo(victim))).toEqual([]);
  });

  // Issue 19: with `{{name}}` in the subject, anyone could mail anyone a subject of their own.
  it('puts into the subject only answers whose words the owner chose: free text goes into the body alone', async () => {
    const owner = await signup(t);
    const submitter = `subject-${unique()}@example.com`;
    const ids = ['topic', 'count', 'agree', 'day', 'stars', 'name', 'email', 'message', 'site', 'tel', 'ref'];
    const form = await liveForm(owner, {
      fields: [
        { id: 'topic', type: 'select', label: 'Topic', options: ['sales', 'support'] },
        { id: 'count', type: 'number', label: 'Count' },
        { id: 'agree', type: 'checkbox', label: 'Agree' },
        { id: 'day', type: 'date', label: 'Day' },
        { id: 'stars', type: 'rating', label: 'Stars' },
        { id: 'name', type: 'text', label: 'Name' },
        { id: 'email', type: 'email', label: 'E-mail', required: true },
        { id: 'message', type: 'textarea', label: 'Message' },
        { id: 'site', type: 'url', label: 'Site' },
        { id: 'tel', type: 'phone', label: 'Phone' },
        { id: 'ref', type: 'hidden', label: 'Ref' },
      ],
      autoResponse: {
        enabled: true,
        emailField: 'email',
        subject: ids.map((id) => `{{${id}}}`).join('|'),
        body: ids.map((id) => `{{${id}}}`).join('|'),
      },
    });
    await submitTo(t, form.id, {
      topic: 'sales',
      count: 2,
      agree: true,
      day: '2026-01-02',
      stars: 4,
      name: 'Buy cheap pills',
      email: submitter,
      message: 'at evil.example',
      site: 'https://evil.example',
      tel: '+1 555 0100',
      ref: 'campaign',
    });
    const [mail] = await mailsWhere(addressedTo(submitter), 1);
    expect(mail?.subject).toBe('sales|2|true|2026-01-02|4||||||');
    expect(mail?.text).toBe(
      `sales|2|true|2026-01-02|4|Buy cheap pills|${submitter}|at evil.example|https://evil.example|+1 555 0100|campaign`,
    );
  });

  // Issue 19: at most AUTO_RESPONSES_PER_RECIPIENT_PER_HOUR to one address, whichever form sends them.
  it('sends at most 3 auto-responses an hour to one address, across forms and however it is spelt', async () => {
    const owner = await signup(t);
    const victim = `flooded-${unique()}@example.com`;
    const notified = `owner-${unique()}@owner.test`;
    const autoResponse = { enabled: true, emailField: 'email', subject: 'Thanks', body: 'Hello {{name}}' };
    const first = await liveForm(owner, { autoResponse, ...notifyTo(notified) });
    const second = await liveForm(owner, { autoResponse, ...notifyTo(notified) });
    // the counter's address: case folded, a `+tag` dropped (it reaches the same mailbox)
    const spellings = [victim, victim.toUpperCase(), victim.replace('@', '+again@'), victim];
    const submissions = [];
    for (const [i, email] of spellings.entries()) {
      submissions.push(await submitTo(t, (i % 2 ? second : first).id, { name: `try ${i}`, email }));
    }
    const purposes = await Promise.all(
      submissions.map(async (submission) =>
        (await settled(submission.id)).map((row) => row.parsed.purpose).sort(),
      ),
    );
    expect(purposes).toEqual([
      ['auto-response', 'notification'],
      ['auto-response', 'notification'],
      ['auto-response', 'notification'],
      // the fourth is accepted and notified, but its submitter is not mailed
      ['notification'],
    ]);
    const mailbox = (to: string) => to.toLowerCase().replace('+again@', '@') === victim;
    const toVictim = smtp.received.filter((mail) => mail.rcptTo.some(mailbox));
    expect(toVictim).toHaveLength(3);
    // another address is not held back
    const other = `other-${unique()}@example.com`;
    await submitTo(t, first.id, { name: 'Bo', email: other });
    await mailsWhere(addressedTo(other), 1);
  });

  it('shows masked answers masked, and is sent to the real (masked) address', async () => {
    const owner = await signup(t);
    const submitter = `masked-${unique()}@example.com`;
    const form = await liveForm(owner, {
      storage: { mode: 'owner', pii: 'masked' },
      fields: BASE_FIELDS.map((f) => (f.id === 'email' ? { ...f, pii: true } : f)),
      autoResponse: {
        enabled: true,
        emailField: 'email',
        subject: 'Thanks',
        body: 'We will write to {{email}}.',
      },
    });
    await submitTo(t, form.id, { name: 'Mo', email: submitter });
    const [mail] = await mailsWhere(addressedTo(submitter), 1);
    expect(mail?.text).toBe('We will write to m***@example.com.');
  });

  it.each(['hashed', 'dropped'] as const)(
    'is not sent when the e-mail field is %s (the address is not to be kept)',
    async (mode) => {
      const owner = await signup(t);
      const to = `h-${unique()}@owner.test`;
      const submitter = `${mode}-${unique()}@example.com`;
      const form = await liveForm(owner, {
        fields: BASE_FIELDS.map((f) => (f.id === 'email' ? { ...f, piiMode: mode } : f)),
        autoResponse: { enabled: true, emailField: 'email', subject: 'Thanks', body: 'Hello' },
        ...notifyTo(to),
      });
      const submission = await submitTo(t, form.id, { name: 'Ann', email: submitter });
      const rows = await settled(submission.id);
      expect(rows.map((row) => row.parsed.purpose)).toEqual(['notification']);
      await mailsWhere(mentioning(submission.id), 1);
      expect(smtp.received.filter(addressedTo(submitter))).toEqual([]);
    },
  );

  it('is not sent when disabled', async () => {
    const owner = await signup(t);
    const form = await liveForm(owner, {
      autoResponse: { enabled: false, emailField: 'email', subject: 'Thanks', body: 'Hello' },
    });
    const submission = await submitTo(t, form.id, { name: 'Ann', email: 'ann@example.com' });
    expect(await outboxOf(submission.id)).toEqual([]);
  });
});

describe('the outbox worker', () => {
  it('tries again after a transient SMTP failure, and the mail arrives', async () => {
    const owner = await signup(t);
    const marker = `Retry ${unique()}`;
    refuseOnce.add(marker);
    const refusedBefore = smtp.refused;
    const form = await liveForm(owner, { title: marker, ...notifyTo(`r-${unique()}@owner.test`) });
    const submission = await submitTo(t, form.id, { name: 'Ann', email: 'ann@example.com' });
    const [mail] = await mailsWhere(mentioning(submission.id), 1);
    expect(mail?.subject).toBe(`New submission: ${marker}`);
    expect(smtp.refused).toBe(refusedBefore + 1);
    const [row] = await settled(submission.id);
    expect(row).toMatchObject({ status: 'done', last_error: null });
    expect(Number(row?.attempts)).toBe(2);
  });

  it('gives up after the last retry delay and marks the message failed', async () => {
    const owner = await signup(t);
    const form = await liveForm(owner, notifyTo(`refuse-${unique()}@owner.test`));
    const submission = await submitTo(t, form.id, { name: 'Ann', email: 'ann@example.com' });
    const row = await eventually(
      async () => {
        const [found] = await outboxOf(submission.id);
        expect(found?.status).toBe('failed');
        return found;
      },
      { timeoutMs: 5_000, intervalMs: 25 },
    );
    // the first attempt and one per retry delay (three in this app)
    expect(Number(row?.attempts)).toBe(4);
    expect(row?.last_error).toMatch(/550/);
  });
});

describe('POST /responses/{id}/reply', () => {
  let owner: TestUser;
  let form: any;
  /** `auth` null sends no credential; left out, the owner's session. */
  const reply = (id: string, body: unknown, auth: string | null = owner.token, query = '') =>
    t.request({ method: 'POST', url: `/responses/${id}/reply${query}`, auth: auth ?? undefined, body });

  beforeAll(async () => {
    owner = await signup(t);
    form = await liveForm(owner, { title: 'Support' });
  });

  it('sends the message to the first e-mail answer: 200 {messageId, to}', async () => {
    const submitter = `reply-${unique()}@example.com`;
    const submission = await submitTo(t, form.id, { name: 'Ann', email: submitter });
    const response = await reply(submission.id, {
      subject: 'About your question',
      message: 'Hello Ann,\nhere it is.',
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({
      messageId: expect.stringMatching(/^<[^<>\s]+@intake\.test>$/),
      to: submitter,
    });
    const [mail] = await mailsWhere(addressedTo(submitter), 1);
    expect(mail?.headers.get('message-id')).toBe(response.body.messageId);
    expect(mail?.subject).toBe('About your question');
    expect(mail?.text).toBe('Hello Ann,\nhere it is.');
    expect(mail?.headers.get('reply-to')).toBe(owner.email);
    expect(mail?.mailFrom).toBe('intake@intake.test');
  });

  it('defaults the subject to "Re: <form title>" and takes a message of 50,000 characters', async () => {
    const submitter = `default-${unique()}@example.com`;
    const submission = await submitTo(t, form.id, { name: 'Ann', email: submitter });
    const response = await reply(submission.id, { message: 'y'.repeat(50_000) });
    expect(response.status, response.text).toBe(200);
    const [mail] = await mailsWhere(addressedTo(submitter), 1);
    expect(mail?.subject).toBe('Re: Support');
    expect(mail?.text.replace(/\s/g, '')).toBe('y'.repeat(50_000));
  });

  it('sends to the real address of a masked answer, and shows it masked', async () => {
    const masked = await liveForm(owner, {
      fields: BASE_FIELDS.map((f) => (f.id === 'email' ? { ...f, piiMode: 'masked' } : f)),
    });
    const submitter = `zed-${unique()}@example.com`;
    const submission = await submitTo(t, masked.id, { name: 'Zed', email: submitter });
    const response = await reply(submission.id, { message: 'Hi' });
    expect(response.status, response.text).toBe(200);
    expect(response.body.to).toBe('z***@example.com');
    await mailsWhere(addressedTo(submitter), 1);
  });

  it('decrypts an encrypted answer to send to it', async () => {
    const encrypted = await liveForm(owner, {
      fields: BASE_FIELDS.map((f) => (f.id === 'email' ? { ...f, piiMode: 'encrypted' } : f)),
    });
    const submitter = `enc-${unique()}@example.com`;
    const submission = await submitTo(t, encrypted.id, { name: 'Enc', email: submitter });
    const response = await reply(submission.id, { message: 'Hi' });
    expect(response.status, response.text).toBe(200);
    expect(response.body.to).toBe(submitter);
    await mailsWhere(addressedTo(submitter), 1);
  });

  it('passes over a hashed e-mail answer to the next usable one', async () => {
    const two = await liveForm(owner, {
      fields: [
        { id: 'name', type: 'text', label: 'Name' },
        { id: 'work', type: 'email', label: 'Work e-mail', piiMode: 'hashed' },
        { id: 'home', type: 'email', label: 'Home e-mail' },
      ],
    });
    const home = `home-${unique()}@example.com`;
    const submission = await submitTo(t, two.id, { work: `work-${unique()}@example.com`, home });
    const response = await reply(submission.id, { message: 'Hi' });
    expect(response.status, response.text).toBe(200);
    expect(response.body.to).toBe(home);
  });

  it.each([
    ['the only e-mail answer is hashed', { piiMode: 'hashed' }, true],
    ['the only e-mail answer was dropped', { piiMode: 'dropped' }, true],
    ['the e-mail field was left empty', { required: false }, false],
  ])('400 no_recipient when %s', async (_case, emailField, answered) => {
    const other = await liveForm(owner, {
      fields: BASE_FIELDS.map((f) => (f.id === 'email' ? { ...f, ...emailField } : f)),
    });
    const answers: Record<string, unknown> = { name: 'Ann' };
    if (answered) answers.email = `nr-${unique()}@example.com`;
    const submission = await submitTo(t, other.id, answers);
    expectProblem(await reply(submission.id, { message: 'Hi' }), 400, 'no_recipient');
  });

  it('400 no_recipient when the form has no e-mail field', async () => {
    const other = await liveForm(owner, { fields: [{ id: 'name', type: 'text', label: 'Name' }] });
    const submission = await submitTo(t, other.id, { name: 'Ann' });
    expectProblem(await reply(submission.id, { message: 'Hi' }), 400, 'no_recipient');
  });

  it('502 mail_failed when the SMTP server refuses the message', async () => {
    const submission = await submitTo(t, form.id, { name: 'Ann', email: `refuse-${unique()}@example.com` });
    expectProblem(await reply(submission.id, { message: 'Hi' }), 502, 'mail_failed');
  });

  it('502 mail_failed when the SMTP server cannot be reached', async () => {
    const down = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${await freePort()}` });
    try {
      const user = await signup(down);
      const other = await createForm(down, user.token, { status: 'live', fields: BASE_FIELDS });
      const submission = await submitTo(down, other.id, { name: 'Ann', email: 'ann@example.com' });
      const response = await down.request({
        method: 'POST',
        url: `/responses/${submission.id}/reply`,
        auth: user.token,
        body: { message: 'Hi' },
      });
      expectProblem(response, 502, 'mail_failed');
    } finally {
      await down.close();
    }
  });

  describe('who may reply', () => {
    let submissionId: string;
    let stranger: TestUser;
    let keys: Record<string, string>;
    beforeAll(async () => {
      const submission = await submitTo(t, form.id, { name: 'Ann', email: `who-${unique()}@example.com` });
      submissionId = submission.id;
      stranger = await signup(t);
      await createEnvironment(t, owner, `other-${unique()}`.slice(0, 20));
      keys = {
        secret: (await createKey(t, owner, 'secret')).key,
        publishable: (await createKey(t, owner, 'publishable')).key,
        otherEnvironment: (await createKey(t, owner, 'secret', 'production')).key,
      };
    });

    it('the owner with a secret key of the form environment: 200', async () => {
      const before = smtp.received.length;
      const response = await reply(submissionId, { message: 'Hi' }, keys.secret ?? '');
      expect(response.status, response.text).toBe(200);
      await smtp.waitFor((mails) => mails.length > before);
    });

    it.each([
      ['no credential', 401, 'unauthorized', () => null],
      ['an unknown token', 401, 'unauthorized', () => 'not-a-real-token'],
      ["another user's session", 403, 'not_owner', () => stranger.token],
      ['a publishable key', 403, 'forbidden', () => keys.publishable ?? ''],
      ['a secret key of another environment', 403, 'forbidden', () => keys.otherEnvironment ?? ''],
    ])('%s: %i %s, and nothing is sent', async (_who, status, code, auth) => {
      const before = smtp.received.length;
      expectProblem(await reply(submissionId, { message: 'Hi' }, auth()), status, code);
      expect(smtp.received.length).toBe(before);
    });

    it('404 not_found for an unknown submission', async () => {
      expectProblem(await reply('sub_unknown', { message: 'Hi' }), 404, 'not_found');
    });

    it('403 form_not_in_environment when environment names another one', async () => {
      expectProblem(
        await reply(submissionId, { message: 'Hi' }, owner.token, '?environment=production'),
        403,
        'form_not_in_environment',
      );
    });

    it.each([
      ['no message', {}],
      ['an empty message', { message: '' }],
      ['a blank message', { message: '  \n ' }],
      ['a message over 50,000 characters', { message: 'x'.repeat(50_001) }],
      ['a message that is not a string', { message: 42 }],
      ['an empty subject', { subject: '', message: 'Hi' }],
      ['an unknown member', { message: 'Hi', cc: 'someone@example.com' }],
    ])('400 validation_failed for %s', async (_case, body) => {
      const before = smtp.received.length;
      expectProblem(await reply(submissionId, body), 400, 'validation_failed');
      expect(smtp.received.length).toBe(before);
    });
  });
});

describe('without SMTP_URL: .eml files under DATA_DIR/mail', () => {
  let files: TestApp;
  beforeAll(async () => {
    files = await createTestApp({ mailFrom: 'Intake <intake@files.test>' }, { outbox: { pollMs: 50 } });
  });
  afterAll(() => files?.close());

  const mailDir = () => path.join(files.config.dataDir, 'mail');
  const readAll = () =>
    fs.existsSync(mailDir())
      ? fs
          .readdirSync(mailDir())
          .filter((name) => name.endsWith('.eml'))
          .map((name) => ({
            name,
            mail: parseMail(fs.readFileSync(path.join(mailDir(), name), 'utf8'), {
              rcptTo: [],
              mailFrom: '',
            }),
          }))
      : [];

  it('writes notifications, auto-responses and replies as files, and the API answers success', async () => {
    const user = await signup(files);
    const to = `files-${unique()}@owner.test`;
    const submitter = `sub-${unique()}@example.com`;
    const form = await createForm(files, user.token, {
      status: 'live',
      fields: BASE_FIELDS,
      autoResponse: {
        enabled: true,
        emailField: 'email',
        subject: 'Thanks about {{topic}}',
        body: 'Hello {{name}}',
      },
      ...notifyTo(to),
    });
    const submission = await submitTo(files, form.id, { name: 'Filed', email: submitter, topic: 'support' });

    const written = await waitFor(
      () => {
        const files = readAll();
        return files.length >= 2 && files;
      },
      { timeoutMs: 5_000, intervalMs: 25, what: 'two mail files' },
    );
    const notification = written.find((w) => w.mail.headers.get('to') === to);
    expect(notification?.mail.subject).toBe('New submission: Contact us');
    expect(notification?.mail.text).toContain(`Submission: ${submission.id}`);
    expect(notification?.mail.headers.get('from')).toBe('Intake <intake@files.test>');
    // the file is named after the Message-ID
    expect(notification?.name).toBe(`${notification?.mail.headers.get('message-id')?.slice(1, -1)}.eml`);
    const auto = written.find((w) => w.mail.headers.get('to') === submitter);
    expect(auto?.mail.subject).toBe('Thanks about support');
    expect(auto?.mail.text).toBe('Hello Filed');

    const response: Response = await files.request({
      method: 'POST',
      url: `/responses/${submission.id}/reply`,
      auth: user.token,
      body: { subject: 'Filed reply', message: 'On disk' },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.to).toBe(submitter);
    const file = path.join(mailDir(), `${response.body.messageId.slice(1, -1)}.eml`);
    const mail = parseMail(fs.readFileSync(file, 'utf8'), { rcptTo: [], mailFrom: '' });
    expect(mail.headers.get('to')).toBe(submitter);
    expect(mail.subject).toBe('Filed reply');
    expect(mail.text).toBe('On disk');
  });
});

describe('mailboxKey (the auto-response cap counts mailboxes)', () => {
  it.each([
    ['Ann@Example.com', 'ann@example.com'],
    ['ann+news@example.com', 'ann@example.com'],
    ['a.n.n@gmail.com', 'ann@googlemail.com'],
    ['A.nn+x@GoogleMail.com', 'ann@gmail.com'],
  ])('counts %s as %s', (address, same) => {
    expect(mailboxKey(address)).toBe(mailboxKey(same));
  });

  it.each([
    ['ann@example.com', 'bob@example.com'],
    ['a.nn@example.com', 'ann@example.com'],
    ['ann@example.com', 'ann@example.org'],
  ])('counts %s apart from %s', (address, other) => {
    expect(mailboxKey(address)).not.toBe(mailboxKey(other));
  });
});
