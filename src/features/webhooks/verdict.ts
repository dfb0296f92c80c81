import { STATUS_CODES } from 'node:http';

/**
 * What a delivery attempt came to, in words a person reads (issue 25 item 9): "hooks.example.com
 * could not be found", not `getaddrinfo ENOTFOUND hooks.example.com`. Worded when presented,
 * from what the attempt recorded (the receiver's status, or the error the sender wrote): the raw
 * error stays in the API beside it for whoever debugs the network.
 */

export interface AttemptFacts {
  statusCode: number | null;
  error: string | null;
}

/** Socket, DNS and TLS error codes in the recorded text (Node's, undici's, OpenSSL's names). */
const CODE =
  /\b(E[A-Z]{3,}|UND_ERR_[A-Z_]+|ERR_TLS_[A-Z_]+|CERT_[A-Z_]+|[A-Z_]*SELF_SIGNED_CERT[A-Z_]*|UNABLE_TO_[A-Z_]+)\b/;

const hostOf = (url: string): string => {
  try {
    return new URL(url).host;
  } catch {
    return 'the receiver';
  }
};

const secondsOf = (ms: number): string => {
  const seconds = Math.max(1, Math.round(ms / 1000));
  return seconds === 1 ? '1 second' : `${seconds} seconds`;
};

const isSuccess = (status: number) => status >= 200 && status < 300;

function answered(host: string, status: number): string {
  const reason = STATUS_CODES[status];
  const said = `${host} answered ${status}${reason ? ` ${reason}` : ''}`;
  if (isSuccess(status)) return said;
  if (status === 410) return `${said}, so the webhook was switched off`;
  if (status >= 300 && status < 400)
    return `${said}: redirects are not followed, so give the address it leads to`;
  if (status === 401 || status === 403)
    return `${said}: it refused the delivery (check the secret or its access rules)`;
  return said;
}

/** Why no answer came, worded by the error's code; the recorded text when no code is known. */
function unanswered(host: string, error: string): string {
  const code = CODE.exec(error)?.[1] ?? '';
  if (code === 'ENOTFOUND') return `${host} could not be found (no such host name)`;
  if (code === 'EAI_AGAIN') return `${host} could not be looked up just now (a name server did not answer)`;
  if (code === 'ECONNREFUSED') return `${host} refused the connection (nothing is listening there)`;
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET')
    return `${host} closed the connection before answering`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
    return `${host} could not be reached (no route to it)`;
  if (code === 'ETIMEDOUT' || code === 'ETIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT')
    return `${host} could not be reached in time`;
  const waited = /^no answer within (\d+) ms/.exec(error)?.[1];
  if (waited !== undefined) return `${host} did not answer within ${secondsOf(Number(waited))}`;
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT')
    return `${host} did not answer in time`;
  if (code === 'EFORBIDDENADDRESS' || /private or reserved address/.test(error))
    return `${host} is a private or internal address, which webhooks may not reach`;
  if (/CERT|SELF_SIGNED|UNABLE_TO_|ERR_TLS/.test(code))
    return `the secure connection to ${host} failed: its certificate is not trusted (${code})`;
  if (error === 'not sent: the webhook is disabled') return 'not sent: the webhook is switched off';
  if (error === 'not sent: the webhook has been deleted') return 'not sent: the webhook has been deleted';
  return error;
}

/** The attempt in words: "hooks.example.com answered 200 OK", "hooks.example.com could not be found …". */
export function attemptSummary(attempt: AttemptFacts, url: string): string {
  const host = hostOf(url);
  if (attempt.statusCode !== null) return answered(host, attempt.statusCode);
  return unanswered(host, attempt.error ?? 'no answer');
}

export const attemptSucceeded = (attempt: AttemptFacts): boolean =>
  attempt.statusCode !== null && isSuccess(attempt.statusCode);
