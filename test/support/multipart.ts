import { randomBytes } from 'node:crypto';
import type { Response, TestApp } from './app.js';

/** A multipart/form-data body built by hand, as a browser sends it (parts in the order given). */
export type Part =
  | { name: string; value: string }
  | { name: string; filename: string; content: Buffer; type?: string };

export function multipart(parts: readonly Part[]): { body: Buffer; headers: Record<string, string> } {
  const boundary = `----intake${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ('value' in part) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`,
        ),
      );
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.type ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        part.content,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    body: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** The smallest PNG: a real signature and header, so the bytes say image/png. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** A PDF's first bytes and enough of a body for the signature readers. */
export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
);

/** A Windows program's first bytes (MZ): never an image, whatever its name says. */
export const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 0x90)]);

/** POST /forms/{id}/uploads of one file for `field` (API.md §12), as the page script sends it. */
export function uploadFile(
  t: TestApp,
  formId: string,
  field: string,
  filename: string,
  content: Buffer,
  type = 'application/octet-stream',
): Promise<Response> {
  const { body, headers } = multipart([
    { name: 'field', value: field },
    { name: 'file', filename, content, type },
  ]);
  return t.request({ method: 'POST', url: `/forms/${formId}/uploads`, body, headers });
}
