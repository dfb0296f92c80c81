import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { problems, respond, SECURITY } from '../../platform/http/schemas.js';
import { appendVary } from '../../platform/http/vary.js';
import { Problem } from '../../platform/problem.js';
import { formNotFound, readView } from './access.js';
import { qrSvg } from './qr.js';
import { findForm } from './repo.js';

/**
 * GET /forms/{id}/qr.svg: the QR code of a form's hosted page (the Share panel's picture, and
 * a file to download for a poster). Whoever may read the form may have its code: its owner in
 * any status (to print it before publishing), anyone else once it is live, as GET /forms/{id}.
 */

/** Where the page is: PUBLIC_URL, else the origin this request came to (the dashboard's own). */
function siteOrigin(request: FastifyRequest, publicUrl: string | undefined): string {
  return publicUrl ?? `${request.protocol}://${request.host}`;
}

export const qrRoutes =
  (context: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/forms/:id/qr.svg',
      {
        schema: {
          tags: ['forms'],
          summary: "The QR code of a form's hosted page, as an SVG image",
          description:
            'Its owner may have it in any status; anyone else once the form is live. The code holds `{PUBLIC_URL}/f/{id}` (without PUBLIC_URL, the origin the request came to); the SVG names that link in its <title>.',
          operationId: 'getFormQrCode',
          security: SECURITY.optional,
          params: Type.Object({ id: Type.String({ maxLength: 200 }) }),
          response: {
            200: respond('The QR code, dark on white, with a quiet zone', {
              'image/svg+xml': Type.String({ description: 'An SVG image' }),
            }),
            ...problems(401, 403, 404),
          },
        },
      },
      async (request, reply) => {
        const form = await findForm(context.database.db, request.params.id);
        if (!form) throw formNotFound(request.params.id);
        const view = readView(request.principal, form);
        if (view instanceof Problem) throw view;
        const link = `${siteOrigin(request, context.config.publicUrl)}/f/${encodeURIComponent(form.id)}`;
        appendVary(reply, 'Authorization', 'X-API-Key', 'X-Publishable-Key', 'Cookie');
        return (
          reply
            .type('image/svg+xml')
            // a picture of our own: nothing in it runs, even when opened on its own
            .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
            .header('cache-control', request.principal ? 'private, max-age=300' : 'public, max-age=300')
            .send(qrSvg(link))
        );
      },
    );
  };
