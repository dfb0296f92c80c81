import type { Db, Trx } from '../../platform/db/database.js';
import type { MailMessage } from '../../platform/mail.js';

/**
 * The mail that tells an owner their password was set (a change, or a reset link used), with
 * what else reaches the account: API keys and webhooks outlive a new password, so whoever had
 * the account may have left some behind. The list is handed in by the app (`AccountAccessLister`),
 * as keys and webhooks are features beside and above this one (ARCHITECTURE.md, "Layers").
 */

/** Keys and webhooks listed in one mail, at most: beyond, the mail sends the owner to the dashboard. */
export const ACCESS_LISTED_AT_MOST = 50;

export interface AccountAccess {
  keys: Array<{
    kind: string;
    environment: string;
    last4: string;
    createdAt: string;
    lastUsedAt: string | null;
  }>;
  webhooks: Array<{ formId: string; environment: string; event: string; url: string; enabled: boolean }>;
}

/** The user's keys and webhooks, each list at most `limit` long. */
export type AccountAccessLister = (db: Db | Trx, userId: string, limit: number) => Promise<AccountAccess>;

/**
 * Where a webhook sends, as mailed: its origin only. The path and query of a webhook URL are often
 * its secret (a chat service's incoming hook), and a mail is kept in more places than the database.
 */
function destinationOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(an unreadable URL)';
  }
}

const day = (timestamp: string) => timestamp.slice(0, 10);

function section(title: string, lines: string[], more: boolean): string[] {
  if (lines.length === 0) return [`${title}: none.`];
  return [
    `${title}:`,
    ...lines.map((line) => `- ${line}`),
    ...(more ? [`- and more: the account view lists them all.`] : []),
  ];
}

export function passwordChangedMessage(input: {
  to: string;
  how: 'changed' | 'reset';
  at: string;
  access: AccountAccess;
  /** `PUBLIC_URL`, or the origin of a request to this machine itself; else only the path is named. */
  base: string | undefined;
}): MailMessage {
  const { access } = input;
  const accountView = `${input.base ?? ''}/app/account`;
  const keys = access.keys
    .slice(0, ACCESS_LISTED_AT_MOST)
    .map(
      (key) =>
        `${key.kind} key …${key.last4} (environment ${key.environment}, created ${day(key.createdAt)}, ` +
        `${key.lastUsedAt ? `last used ${day(key.lastUsedAt)}` : 'never used'})`,
    );
  const webhooks = access.webhooks
    .slice(0, ACCESS_LISTED_AT_MOST)
    .map(
      (webhook) =>
        `${webhook.event} to ${destinationOf(webhook.url)} (form ${webhook.formId}, environment ` +
        `${webhook.environment}${webhook.enabled ? '' : ', disabled'})`,
    );
  const text = [
    input.how === 'reset'
      ? `The password of your Intake account was set with a reset link on ${day(input.at)}; every session was signed out.`
      : `The password of your Intake account was changed on ${day(input.at)}; every other session was signed out.`,
    '',
    'A new password does not stop API keys or webhooks: whoever could use the account may have made some.',
    'These reach your account now:',
    '',
    ...section('API keys', keys, access.keys.length > ACCESS_LISTED_AT_MOST),
    '',
    ...section('Webhooks', webhooks, access.webhooks.length > ACCESS_LISTED_AT_MOST),
    '',
    `Delete any you do not recognise in the dashboard's account view: ${accountView}`,
    'If you did not set this password, ask for a reset link at once, then look there.',
    '',
  ].join('\n');
  return {
    to: input.to,
    subject: 'Your Intake password was changed',
    text,
    headers: { 'Auto-Submitted': 'auto-generated' },
  };
}
