import { createHash, randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { dumpDatabase, expectProblem } from '../../../test/support/assertions.js';
import { createKey, signup, type TestUser } from '../../../test/support/factories.js';
import { type ReceivedMail, startSmtpServer, type TestSmtpServer } from '../../../test/support/mail.js';
import { loggerOptions } from '../../app.js';
import type { Role } from '../../platform/roles.js';
import { INVITATION_MAILS_PER_ADDRESS_PER_HOUR } from './invitations.js';

/**
 * Invitations (API.md §14, issue 21 item 4): mailed links whose token is random, stored as a hash,
 * single use, valid 7 days, accepted only by a session of the invited address; revocable;
 * inviting again replaces the pending one; rate-limited.
 */

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const address = () => `invitee-${randomBytes(6).toString('hex')}@example.com`;

let smtp: TestSmtpServer;
let t: TestApp;
let owner: TestUser;
let admin: TestUser;
let editor: TestUser;
let workspace: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp(
    { smtpUrl: smtp.url, publicUrl: 'https://forms.example.com' },
    { outbox: { pollMs: 50, retryDelaysMs: [200, 200] } },
  );
  owner = await signup(t);
  const created = await t.request({
    method: 'POST',
    url: '/workspaces',
    auth: owner.token,
    body: { name: 'Acme' },
  });
  workspace = created.body.id;
  admin = await join(await signup(t), 'admin');
  editor = await join(await signup(t), 'editor');
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});
afterEach(() => {
  vi.useRealTimers();
});

const invite = (by: TestUser, email: string, role: Role = 'viewer', id = workspace) =>
  t.request({ method: 'POST', url: `/workspaces/${id}/invitations`, auth: by.token, body: { email, role } });
const accept = (by: TestUser, token: string) =>
  t.request({ method: 'POST', url: '/invitations/accept', auth: by.token, body: { token } });
const pending = (by: TestUser, id = workspace) =>
  t.request({ method: 'GET', url: `/workspaces/${id}/invitations`, auth: by.token });
const members = async () =>
  (await t.request({ method: 'GET', url: `/workspaces/${workspace}/members`, auth: owner.token })).body
    .data as {
    userId: string;
    role: Role;
  }[];

/** The invitation mails to `email` so far (waiting for `count` of them), newest last, with their tokens. */
async function invitationMails(
  email: string,
  count = 1,
): Promise<Array<{ mail: ReceivedMail; token: string }>> {
  const about = (mail: ReceivedMail) => mail.rcptTo.includes(email);
  const mails = (await smtp.waitFor((all) => all.filter(about).length >= count)).filter(about);
  return mails.map((mail) => {
    const token = /https:\/\/forms\.example\.com\/app\/invite\?token=([A-Za-z0-9_%-]+)/.exec(mail.text)?.[1];
    if (!token) throw new Error(`no invitation link in the mail to ${email}: ${mail.text}`);
    return { mail, token: decodeURIComponent(token) };
  });
}

async function lastToken(email: string, count = 1): Promise<string> {
  const mails = await invitationMails(email, count);
  return mails.at(-1)?.token ?? '';
}

/** `user` joins the workspace with `role` through an invitation sent by the owner. */
async function join(user: TestUser, role: Role): Promise<TestUser> {
  const sent = await invite(owner, user.email, role);
  expect(sent.status, sent.text).toBe(201);
  const accepted = await accept(user, await lastToken(user.email));
  expect(accepted.status, accepted.text).toBe(200);
  return user;
}

describe('invitations (API.md §14)', () => {
  it('mails a link to /app/invite whose token is stored only as its hash', async () => {
    const email = address();
    const response = await invite(owner, email, 'editor');
    expect(response.status, response.text).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^inv_/),
      email,
      role: 'editor',
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
    });
    expect(Date.parse(response.body.expiresAt) - Date.parse(response.body.createdAt)).toBe(7 * 86_400_000);
    const [{ mail, token }] = (await invitationMails(email)) as [{ mail: ReceivedMail; token: string }];
    expect(mail.subject).toContain('Acme');
    expect(mail.text).toContain(owner.email);
    expect(token.length).toBeGreaterThanOrEqual(40);
    const dump = await dumpDatabase(t);
    expect(dump).not.toContain(token);
    expect(dump).toContain(sha256(token));
    expect(JSON.stringify(response.body)).not.toContain(token);
  });

  it('works for a new account: sign up with the invited address, then accept', async () => {
    const email = address();
    expect((await invite(admin, email, 'viewer')).status).toBe(201);
    const token = await lastToken(email);
    const newcomer = await signup(t, { email });
    const accepted = await accept(newcomer, token);
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body).toEqual({
      workspace: {
        id: workspace,
        name: 'Acme',
        personal: false,
        role: 'viewer',
        createdAt: expect.any(String),
      },
      role: 'viewer',
    });
    expect(await members()).toContainEqual(expect.objectContaining({ userId: newcomer.id, role: 'viewer' }));
    const audit = await t.request({
      method: 'GET',
      url: `/workspaces/${workspace}/audit?limit=1`,
      auth: owner.token,
    });
    expect(audit.body.data[0]).toMatchObject({
      actor: { type: 'user', id: newcomer.id, email },
      action: 'invitation.accepted',
    });
    // the new member acts in it from the next request
    const forms = await t.request({
      method: 'GET',
      url: `/forms?environment=development&workspace=${workspace}`,
      auth: newcomer.token,
    });
    expect(forms.status, forms.text).toBe(200);
  });

  it('an address compares case-insensitively', async () => {
    const email = address();
    expect((await invite(owner, email.toUpperCase())).body.email).toBe(email);
    const user = await signup(t, { email });
    expect((await accept(user, await lastToken(email))).status).toBe(200);
  });

  it('is single use: a second acceptance is 400 invalid_token', async () => {
    const user = await signup(t);
    await invite(owner, user.email);
    const token = await lastToken(user.email);
    expect((await accept(user, token)).status).toBe(200);
    expectProblem(await accept(user, token), 400, 'invalid_token');
  });

  it('another account cannot use it (403), and the link still works for its address', async () => {
    const invited = await signup(t);
    const thief = await signup(t);
    await invite(owner, invited.email);
    const token = await lastToken(invited.email);
    expectProblem(await accept(thief, token), 403, 'forbidden');
    expect((await members()).some((member) => member.userId === thief.id)).toBe(false);
    expect((await accept(invited, token)).status).toBe(200);
  });

  it('a link shows what it offers before accepting, to its holder signed in or not; not once used, revoked or expired', async () => {
    const email = address();
    const sent = await invite(owner, email, 'editor');
    const token = await lastToken(email);
    const preview = (auth?: string) =>
      t.request({ method: 'POST', url: '/invitations/preview', body: { token }, ...(auth ? { auth } : {}) });
    const expected = {
      workspace: { name: 'Acme' },
      role: 'editor',
      email,
      invitedBy: owner.email,
      expiresAt: sent.body.expiresAt,
    };
    expect((await preview()).body).toEqual(expected);
    // any session may look (the page shows it before a log-in); only the address may accept
    expect((await preview(editor.token)).body).toEqual(expected);
    expectProblem(
      await t.request({ method: 'POST', url: '/invitations/preview', body: { token: `${token}x` } }),
      400,
      'invalid_token',
    );
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 7 * 86_400_000 + 60_000);
    expectProblem(await preview(), 400, 'invalid_token');
    vi.useRealTimers();
    const user = await signup(t, { email });
    expect((await accept(user, token)).status).toBe(200);
    expectProblem(await preview(), 400, 'invalid_token');
  });

  it('an unknown token is 400 invalid_token', async () => {
    expectProblem(await accept(editor, randomBytes(32).toString('base64url')), 400, 'invalid_token');
  });

  it('expires after 7 days, by the app clock', async () => {
    const user = await signup(t);
    await invite(owner, user.email);
    const token = await lastToken(user.email);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 7 * 86_400_000 + 60_000);
    expectProblem(await accept(user, token), 400, 'invalid_token');
    expect((await pending(owner)).body.data.some((row: { email: string }) => row.email === user.email)).toBe(
      false,
    );
    vi.useRealTimers();
    expect((await members()).some((member) => member.userId === user.id)).toBe(false);
  });

  it('a revoked invitation is gone from the list and its link is 400 invalid_token', async () => {
    const user = await signup(t);
    const sent = await invite(owner, user.email);
    const token = await lastToken(user.email);
    const listed = await pending(admin);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toContainEqual(sent.body);
    const revoked = await t.request({
      method: 'DELETE',
      url: `/workspaces/${workspace}/invitations/${sent.body.id}`,
      auth: admin.token,
    });
    expect(revoked.status, revoked.text).toBe(204);
    expect((await pending(admin)).body.data.some((row: { id: string }) => row.id === sent.body.id)).toBe(
      false,
    );
    expectProblem(await accept(user, token), 400, 'invalid_token');
    const again = await t.request({
      method: 'DELETE',
      url: `/workspaces/${workspace}/invitations/${sent.body.id}`,
      auth: admin.token,
    });
    expectProblem(again, 404, 'not_found');
  });

  it('inviting an address again replaces its pending invitation: the old link stops working', async () => {
    const user = await signup(t);
    const first = await invite(owner, user.email, 'viewer');
    const oldToken = await lastToken(user.email);
    const second = await invite(owner, user.email, 'editor');
    expect(second.status).toBe(201);
    expect(second.body.id).not.toBe(first.body.id);
    const newToken = await lastToken(user.email, 2);
    expect(newToken).not.toBe(oldToken);
    const rows = (await pending(owner)).body.data.filter(
      (row: { email: string }) => row.email === user.email,
    );
    expect(rows).toEqual([second.body]);
    expectProblem(await accept(user, oldToken), 400, 'invalid_token');
    expect((await accept(user, newToken)).body.role).toBe('editor');
  });

  it('two invitations of one address at once: never a 500, and one stays pending', async () => {
    const email = address();
    const answers = await Promise.all([invite(owner, email), invite(admin, email)]);
    for (const answer of answers) expect([201, 409], answer.text).toContain(answer.status);
    const rows = (await pending(owner)).body.data.filter((row: { email: string }) => row.email === email);
    expect(rows).toHaveLength(1);
  });

  it('inviting a member is 409', async () => {
    expectProblem(await invite(owner, editor.email), 409, 'conflict');
    expectProblem(await invite(owner, editor.email.toUpperCase()), 409, 'conflict');
  });

  it('admins and owners invite; only an owner invites an owner; editors, viewers and strangers may not', async () => {
    expectProblem(await invite(admin, address(), 'owner'), 403, 'forbidden');
    expect((await invite(admin, address(), 'admin')).status).toBe(201);
    expect((await invite(owner, address(), 'owner')).status).toBe(201);
    expectProblem(await invite(editor, address()), 403, 'forbidden');
    const stranger = await signup(t);
    expectProblem(await invite(stranger, address()), 403, 'forbidden');
    expectProblem(await pending(editor), 403, 'forbidden');
    expectProblem(await pending(stranger), 403, 'forbidden');
    expectProblem(await invite(owner, address(), 'viewer', 'wsp_nope'), 404, 'not_found');
  });

  it("an owner's invitation makes an owner", async () => {
    const user = await signup(t);
    await invite(owner, user.email, 'owner');
    expect((await accept(user, await lastToken(user.email))).body.role).toBe('owner');
    expect(await members()).toContainEqual(expect.objectContaining({ userId: user.id, role: 'owner' }));
  });

  it('a member of one workspace cannot see or revoke the invitations of another: 403', async () => {
    const other = await signup(t);
    const theirs = (
      await t.request({ method: 'POST', url: '/workspaces', auth: other.token, body: { name: 'Other' } })
    ).body.id;
    const sent = await invite(other, address(), 'viewer', theirs);
    expect(sent.status).toBe(201);
    expectProblem(await pending(owner, theirs), 403, 'forbidden');
    const revoke = await t.request({
      method: 'DELETE',
      url: `/workspaces/${theirs}/invitations/${sent.body.id}`,
      auth: owner.token,
    });
    expectProblem(revoke, 403, 'forbidden');
    // nor through their own workspace's path
    const sideways = await t.request({
      method: 'DELETE',
      url: `/workspaces/${workspace}/invitations/${sent.body.id}`,
      auth: owner.token,
    });
    expectProblem(sideways, 404, 'not_found');
    expect((await pending(other, theirs)).body.data).toHaveLength(1);
  });

  it('a personal workspace is never shared: 409', async () => {
    expectProblem(await invite(owner, address(), 'viewer', owner.workspaceId), 409, 'conflict');
  });

  it('keys never manage invitations: 403', async () => {
    const key = await createKey(t, owner, 'secret');
    const asKey = { ...owner, token: key.key };
    expectProblem(await invite(asKey, address(), 'viewer', owner.workspaceId), 403, 'forbidden');
    expectProblem(await accept(asKey, 'x'), 403, 'forbidden');
  });

  it('refuses bad input with 400 and stores nothing', async () => {
    const before = (await pending(owner)).body.data.length;
    for (const body of [{ email: 'not an address', role: 'viewer' }, { email: address(), role: 'god' }, {}]) {
      const response = await t.request({
        method: 'POST',
        url: `/workspaces/${workspace}/invitations`,
        auth: owner.token,
        body,
      });
      expect(response.status, response.text).toBe(400);
    }
    expect((await pending(owner)).body.data.length).toBe(before);
  });

  it(`mails one address at most ${INVITATION_MAILS_PER_ADDRESS_PER_HOUR} times an hour: then 429`, async () => {
    const email = address();
    for (let i = 0; i < INVITATION_MAILS_PER_ADDRESS_PER_HOUR; i++) {
      expect((await invite(owner, email)).status).toBe(201);
    }
    const limited = await invite(owner, email);
    expectProblem(limited, 429, 'rate_limited');
    expect(limited.headers['retry-after']).toBeDefined();
  });
});

describe('invitations without PUBLIC_URL', () => {
  it('are refused (409) when the request came through a name that is not this machine', async () => {
    const local = await createTestApp();
    try {
      const user = await signup(local);
      const id = (
        await local.request({ method: 'POST', url: '/workspaces', auth: user.token, body: { name: 'A' } })
      ).body.id;
      const response = await local.request({
        method: 'POST',
        url: `/workspaces/${id}/invitations`,
        auth: user.token,
        body: { email: address(), role: 'viewer' },
        headers: { host: 'evil.example' },
      });
      expectProblem(response, 409, 'conflict');
      const list = await local.request({
        method: 'GET',
        url: `/workspaces/${id}/invitations`,
        auth: user.token,
      });
      expect(list.body.data).toEqual([]);
    } finally {
      await local.close();
    }
  });
});

describe('invitation tokens in logs', () => {
  it('never appear: not the link page, not the acceptance, not the mail', async () => {
    const lines: string[] = [];
    const inbox = await startSmtpServer();
    const logged = await createTestApp(
      { smtpUrl: inbox.url, publicUrl: 'https://forms.example.com', logLevel: 'trace' },
      {
        logger: { ...loggerOptions('trace'), stream: { write: (line: string) => lines.push(line) } },
        outbox: { pollMs: 50 },
      },
    );
    try {
      const user = await signup(logged);
      const id = (
        await logged.request({
          method: 'POST',
          url: '/workspaces',
          auth: user.token,
          body: { name: 'Logged' },
        })
      ).body.id;
      const email = address();
      const sent = await logged.request({
        method: 'POST',
        url: `/workspaces/${id}/invitations`,
        auth: user.token,
        body: { email, role: 'viewer' },
      });
      expect(sent.status, sent.text).toBe(201);
      const [mail] = await inbox.waitFor((mails) => mails.length >= 1);
      const token = decodeURIComponent(/invite\?token=([A-Za-z0-9_%-]+)/.exec(mail?.text ?? '')?.[1] ?? '');
      expect(token).not.toBe('');
      await logged.request({ method: 'GET', url: `/app/invite?token=${encodeURIComponent(token)}` });
      const invitee = await signup(logged, { email });
      const accepted = await logged.request({
        method: 'POST',
        url: '/invitations/accept',
        auth: invitee.token,
        body: { token },
      });
      expect(accepted.status, accepted.text).toBe(200);
      expectProblem(
        await logged.request({
          method: 'POST',
          url: '/invitations/accept',
          auth: invitee.token,
          body: { token },
        }),
        400,
        'invalid_token',
      );
      const log = lines.join('');
      expect(log).toContain('/app/invite?token=[redacted]');
      expect(log).not.toContain(token);
      expect(log).not.toContain(encodeURIComponent(token));
    } finally {
      await logged.close();
      await inbox.close();
    }
  });
});
