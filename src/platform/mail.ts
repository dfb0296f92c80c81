import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import { parseConnectionUrl } from 'nodemailer/lib/shared/index.js';
import type { Config } from '../config.js';

/**
 * Outgoing mail (API.md §9): over SMTP when `SMTP_URL` is set (a pooled connection),
 * otherwise each message is written as an RFC 5322 `.eml` file under `DATA_DIR/mail`
 * and counts as sent. Either way `send` resolves only once the message is handed over
 * (accepted by the server, or durably on disk) and rejects when it was refused.
 */

export interface MailMessage {
  to: string | string[];
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  /** Extra headers (e.g. `Auto-Submitted`). */
  headers?: Record<string, string>;
  /**
   * A stable identity for the message (e.g. its outbox id): it becomes the local part of
   * the Message-ID, so a message sent twice after a crash is recognisably the same.
   */
  key?: string;
}

export interface Mailer {
  /** Where mail goes: `smtp` or `files`. */
  readonly transport: 'smtp' | 'files';
  send(message: MailMessage): Promise<{ messageId: string }>;
  close(): void;
}

/** The transport refused the message (or could not be reached). */
export class MailError extends Error {
  constructor(
    message: string,
    readonly responseCode: number | undefined,
  ) {
    super(message);
  }
}

/** Headers cannot carry line breaks or other control characters: they become spaces. */
export const headerSafe = (value: string): string =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
  value.replace(/[\u0000-\u001f\u007f\u0085\u2028\u2029]+/g, ' ').trim();

const SAFE_KEY = /^[A-Za-z0-9_.-]{1,200}$/;

export function createMailer(
  config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>,
  options: { timeoutMs?: number } = {},
): Mailer {
  const from = config.mailFrom;
  const fromDomain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'intake.localhost';
  const timeout = options.timeoutMs ?? 30_000;

  const compose = (message: MailMessage) => ({
    from,
    to: message.to,
    subject: headerSafe(message.subject),
    text: message.text,
    ...(message.html !== undefined ? { html: message.html } : {}),
    ...(message.replyTo !== undefined ? { replyTo: message.replyTo } : {}),
    ...(message.headers ? { headers: message.headers } : {}),
    messageId: `<${message.key && SAFE_KEY.test(message.key) ? message.key : randomUUID()}@${fromDomain}>`,
  });

  if (config.smtpUrl) {
    const transporter: Transporter = nodemailer.createTransport({
      ...parseConnectionUrl(config.smtpUrl),
      pool: true,
      maxConnections: 5,
      // a server that stops answering must not hold a worker (or a reply request) forever
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
    });
    return {
      transport: 'smtp',
      async send(message) {
        const mail = compose(message);
        try {
          await transporter.sendMail(mail);
        } catch (error) {
          const failure = error as Error & { responseCode?: number };
          throw new MailError(
            `the SMTP server refused the message: ${failure.message}`,
            failure.responseCode,
          );
        }
        return { messageId: mail.messageId };
      },
      close: () => transporter.close(),
    };
  }

  const directory = path.join(config.dataDir, 'mail');
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    transport: 'files',
    async send(message) {
      const mail = compose(message);
      const info = await transporter.sendMail(mail);
      const name = mail.messageId.slice(1, -1).replace(/[^A-Za-z0-9_.@-]/g, '_');
      try {
        // every line break CRLF (bodies sent as 7bit keep the caller's LF otherwise), as over SMTP
        const bytes = Buffer.from(
          (info.message as Buffer).toString('latin1').replace(/\r\n|\r|\n/g, '\r\n'),
          'latin1',
        );
        await writeDurably(path.join(directory, `${name}.eml`), bytes);
      } catch (error) {
        throw new MailError(
          `could not write the message to ${directory}: ${(error as Error).message}`,
          undefined,
        );
      }
      return { messageId: mail.messageId };
    },
    close: () => {},
  };
}

/** Written to a temporary name, flushed, then renamed: a reader never sees half a message. */
async function writeDurably(file: string, bytes: Buffer): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${randomUUID()}.tmp`;
  const handle = await fs.open(temporary, 'w', 0o600);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(temporary, file);
}
