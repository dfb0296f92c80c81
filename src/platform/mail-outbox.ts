import type { Envelope } from './crypto/envelope.js';
import type { Mailer, MailMessage } from './mail.js';
import { type OutboxHandler, type OutboxMessage, PermanentFailure } from './outbox.js';

/**
 * E-mail through the outbox: a message is written in the transaction of the change that causes
 * it (a submission's notifications, a password-reset link), so a commit never loses it, and the
 * outbox worker sends it after commit. The row holds nothing in the clear: the whole rendered
 * message, recipients included, is envelope-encrypted (a reset link is a secret, an answer may
 * be personal data). The handler is registered once, by the app.
 */
export const EMAIL_KIND = 'email';

export interface EmailPayload {
  /** What the mail is for (`notification`, `auto-response`, `password-reset`): for the logs. */
  purpose: string;
  /** The `MailMessage` as JSON, envelope-encrypted. */
  ciphertext: string;
  /** More about it, never secret (a form's and a submission's id). */
  [about: string]: string;
}

/** The outbox message that sends `message`. */
export async function emailMessage(
  envelope: Envelope,
  message: MailMessage,
  about: { purpose: string } & Record<string, string>,
): Promise<OutboxMessage> {
  return {
    kind: EMAIL_KIND,
    payload: { ...about, ciphertext: await envelope.encrypt(JSON.stringify(message)) } satisfies EmailPayload,
  };
}

/**
 * The outbox handler for kind `email`: decrypts the message and sends it. A refused send
 * throws, and the worker tries again later; the outbox id becomes the Message-ID, so a
 * repeat after a crash is the same message.
 */
export function emailHandler(envelope: Envelope, mailer: Mailer): OutboxHandler {
  return async (payload, { id }) => {
    const ciphertext = (payload as Partial<EmailPayload> | null)?.ciphertext;
    if (typeof ciphertext !== 'string')
      throw new PermanentFailure('an e-mail outbox message without ciphertext');
    const message = JSON.parse(await envelope.decrypt(ciphertext)) as MailMessage;
    await mailer.send({ ...message, key: id });
  };
}
