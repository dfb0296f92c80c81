import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A CAPTCHA provider's verify endpoint on loopback (Turnstile, hCaptcha and reCAPTCHA share its shape). */
export interface CaptchaVerifier {
  /** The URL to give as every provider's verify URL (`captchaVerifyUrls`). */
  url: string;
  /** Every token asked about, in order. */
  verified: string[];
  close(): Promise<void>;
}

/** Starts a verifier that answers `success` for the tokens `passes` accepts. */
export async function startCaptchaVerifier(passes: (token: string) => boolean): Promise<CaptchaVerifier> {
  const verified: string[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const token = new URLSearchParams(body).get('response') ?? '';
      verified.push(token);
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ success: passes(token) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`,
    verified,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
