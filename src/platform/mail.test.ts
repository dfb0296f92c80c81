import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort, parseMail, startSmtpServer, type TestSmtpServer } from '../../test/support/mail.js';
import { createMailer, headerSafe, MailError, type Mailer } from './mail.js';

const MAIL_FROM = 'Intake <noreply@intake.test>';

describe('Mailer without SMTP_URL: .eml files under DATA_DIR/mail', () => {
  let dataDir: string;
  let mailer: Mailer;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-mail-'));
    mailer = createMailer({ dataDir, mailFrom: MAIL_FROM, smtpUrl: undefined });
  });
  afterAll(() => {
    mailer.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const fileOf = (messageId: string) => path.join(dataDir, 'mail', `${messageId.slice(1, -1)}.eml`);

  it('writes one RFC 5322 message per send, named after its Message-ID, and answers success', async () => {
    expect(mailer.transport).toBe('files');
    const sent = await mailer.send({
      to: 'jane@example.com',
      subject: 'Grüße aus Intake',
      text: 'Hello Jane,\nthanks.',
      html: '<p>Hello Jane</p>',
      replyTo: 'owner@example.com',
    });
    expect(sent.messageId).toMatch(/^<[0-9a-f-]{36}@intake\.test>$/);
    const bytes = fs.readFileSync(fileOf(sent.messageId), 'utf8');
    // CRLF line ends throughout, as RFC 5322 wants
    expect(bytes).toContain('\r\n');
    expect(bytes.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const mail = parseMail(bytes, { rcptTo: [], mailFrom: '' });
    expect(mail.headers.get('from')).toBe('Intake <noreply@intake.test>');
    expect(mail.headers.get('to')).toBe('jane@example.com');
    expect(mail.headers.get('reply-to')).toBe('owner@example.com');
    expect(mail.headers.get('message-id')).toBe(sent.messageId);
    expect(mail.subject).toBe('Grüße aus Intake');
    expect(mail.text).toBe('Hello Jane,\nthanks.');
    expect(mail.html).toContain('<p>Hello Jane</p>');
    // nothing half-written is left behind
    expect(fs.readdirSync(path.join(dataDir, 'mail')).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('uses the key as the Message-ID: the same message sent twice is one file', async () => {
    const first = await mailer.send({
      to: 'a@example.com',
      subject: 'One',
      text: 'first',
      key: 'obx_repeat1',
    });
    const second = await mailer.send({
      to: 'a@example.com',
      subject: 'One',
      text: 'again',
      key: 'obx_repeat1',
    });
    expect(first.messageId).toBe('<obx_repeat1@intake.test>');
    expect(second.messageId).toBe(first.messageId);
    const files = fs.readdirSync(path.join(dataDir, 'mail')).filter((name) => name.startsWith('obx_repeat1'));
    expect(files).toEqual(['obx_repeat1@intake.test.eml']);
    expect(
      parseMail(fs.readFileSync(fileOf(first.messageId), 'utf8'), { rcptTo: [], mailFrom: '' }).text,
    ).toBe('again');
  });

  it('cannot be made to add headers through the subject', async () => {
    const sent = await mailer.send({
      to: 'a@example.com',
      subject: 'Hello\r\nBcc: victim@example.com\nX-Injected: yes',
      text: 'body',
    });
    const mail = parseMail(fs.readFileSync(fileOf(sent.messageId), 'utf8'), { rcptTo: [], mailFrom: '' });
    expect(mail.headers.has('bcc')).toBe(false);
    expect(mail.headers.has('x-injected')).toBe(false);
    expect(mail.subject).toBe('Hello Bcc: victim@example.com X-Injected: yes');
  });

  it('fails with MailError when the folder cannot be written', async () => {
    const file = path.join(dataDir, 'not-a-folder');
    fs.writeFileSync(file, 'x');
    const broken = createMailer({ dataDir: file, mailFrom: MAIL_FROM, smtpUrl: undefined });
    await expect(broken.send({ to: 'a@example.com', subject: 's', text: 't' })).rejects.toBeInstanceOf(
      MailError,
    );
  });
});

describe('headerSafe', () => {
  it.each([
    ['a\r\nb', 'a b'],
    ['a\nb\rc', 'a b c'],
    ['tab\there', 'tab here'],
    ['nul\u0000byte', 'nul byte'],
    ['line\u2028separator', 'line separator'],
    ['  padded  ', 'padded'],
    ['plain', 'plain'],
  ])('%j becomes %j', (input, output) => {
    expect(headerSafe(input)).toBe(output);
  });
});

describe('Mailer with SMTP_URL: a pooled SMTP transport', () => {
  let server: TestSmtpServer;
  let mailer: Mailer;
  beforeAll(async () => {
    server = await startSmtpServer({
      refuse: (mail) => (mail.rcptTo.includes('refused@example.com') ? 550 : undefined),
    });
    mailer = createMailer({ dataDir: os.tmpdir(), mailFrom: MAIL_FROM, smtpUrl: server.url });
  });
  afterAll(async () => {
    mailer.close();
    await server.close();
  });

  it('delivers to the SMTP server, from MAIL_FROM, with the given parts', async () => {
    expect(mailer.transport).toBe('smtp');
    const sent = await mailer.send({
      to: 'jane@example.com',
      subject: 'Über SMTP',
      text: 'Plain text',
      html: '<p>HTML</p>',
      replyTo: 'owner@example.com',
      headers: { 'Auto-Submitted': 'auto-replied' },
      key: 'obx_smtp1',
    });
    expect(sent.messageId).toBe('<obx_smtp1@intake.test>');
    const [mail] = await server.waitFor((mails) =>
      mails.some((m) => m.headers.get('message-id') === sent.messageId),
    );
    const received = server.received.find((m) => m.headers.get('message-id') === sent.messageId);
    expect(mail).toBeDefined();
    expect(received?.rcptTo).toEqual(['jane@example.com']);
    expect(received?.mailFrom).toBe('noreply@intake.test');
    expect(received?.subject).toBe('Über SMTP');
    expect(received?.text).toBe('Plain text');
    expect(received?.html).toContain('<p>HTML</p>');
    expect(received?.headers.get('reply-to')).toBe('owner@example.com');
    expect(received?.headers.get('auto-submitted')).toBe('auto-replied');
  });

  it('rejects with MailError carrying the response code when the server refuses', async () => {
    const attempt = mailer.send({ to: 'refused@example.com', subject: 'No', text: 'no' });
    await expect(attempt).rejects.toBeInstanceOf(MailError);
    await expect(attempt).rejects.toMatchObject({ responseCode: 550 });
  });

  it('sends many messages concurrently over the pool', async () => {
    const before = server.received.length;
    const sent = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        mailer.send({ to: `n${i}@example.com`, subject: `n${i}`, text: 'x' }),
      ),
    );
    expect(new Set(sent.map((s) => s.messageId)).size).toBe(12);
    await server.waitFor((mails) => mails.length >= before + 12);
    const subjects = server.received.slice(before).map((m) => m.subject);
    expect(subjects.sort()).toEqual(Array.from({ length: 12 }, (_, i) => `n${i}`).sort());
  });
});

describe('Mailer with SMTP_URL when the server is down', () => {
  let mailer: Mailer | undefined;
  afterEach(() => mailer?.close());

  it('rejects with MailError (and the caller decides whether to retry)', async () => {
    const port = await freePort();
    mailer = createMailer({ dataDir: os.tmpdir(), mailFrom: MAIL_FROM, smtpUrl: `smtp://127.0.0.1:${port}` });
    await expect(mailer.send({ to: 'a@example.com', subject: 's', text: 't' })).rejects.toBeInstanceOf(
      MailError,
    );
  });
});
