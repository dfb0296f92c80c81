// Made by `npm run api-types` from the OpenAPI document (scripts/openapi.mjs): do not edit.
export interface paths {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** 200 when the database answers, else 503 */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/signup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create an account (and its development and production environments) */
        post: operations["signUp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Exchange e-mail and password for a session token (or a session cookie) */
        post: operations["logIn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke the session in use (a cookie session: and clear the cookie) */
        post: operations["logOut"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user (and, with the session cookie, its CSRF token) */
        get: operations["getCurrentUser"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Change the password (the current one needed); every other session is revoked */
        post: operations["changePassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/password-reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mail a link to set a new password (202 whether or not the address is known) */
        post: operations["requestPasswordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/password-reset/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Set a new password with a reset link's token; every session is revoked */
        post: operations["confirmPasswordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/environments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List your environments */
        get: operations["listEnvironments"];
        put?: never;
        /** Create an environment */
        post: operations["createEnvironment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/environments/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete an empty environment */
        delete: operations["deleteEnvironment"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workspaces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the workspaces you are a member of, with your role in each */
        get: operations["listWorkspaces"];
        put?: never;
        /** Create a workspace (you are its owner; development and production are made with it) */
        post: operations["createWorkspace"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workspaces/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a workspace (owners; never a personal one, nor one that holds forms or keys) */
        delete: operations["deleteWorkspace"];
        options?: never;
        head?: never;
        /** Rename a workspace (owners) */
        patch: operations["renameWorkspace"];
        trace?: never;
    };
    "/workspaces/{id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A workspace's members, by the time they joined */
        get: operations["listMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workspaces/{id}/members/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a member (admins), or leave (anyone, themselves) */
        delete: operations["removeMember"];
        options?: never;
        head?: never;
        /** Change a member's role (admins; owners for anything about owners) */
        patch: operations["changeMemberRole"];
        trace?: never;
    };
    "/workspaces/{id}/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A workspace's pending invitations, newest first (admins) */
        get: operations["listInvitations"];
        put?: never;
        /**
         * Invite an address with a role (admins; owners to invite an owner): a link is mailed
         * @description The link (`/app/invite?token=…`) works once, for 7 days, for a session of the invited address. Inviting an address again replaces its pending invitation and mails a new link.
         */
        post: operations["createInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workspaces/{id}/invitations/{invitationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a pending invitation (admins): its link stops working */
        delete: operations["revokeInvitation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/invitations/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * What an invitation link offers, before accepting: the workspace's name, the role, the invited address
         * @description For the holder of the link, signed in or not (the invitation page shows it before asking to log in). An unknown, used, revoked or expired token is 400 `invalid_token`. Rate-limited per client address like accepting.
         */
        post: operations["previewInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/invitations/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Accept an invitation with its link's token (a session of the invited address) */
        post: operations["acceptInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workspaces/{id}/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A workspace's audit log, newest first (admins)
         * @description Every change by a member or a key (forms, responses deleted and notes, keys, webhooks, environments, members, invitations, the workspace), written with the change. Filters: `actor` (a user or key id), `action` (an action, or a kind of target such as `form`), `from`/`to` (inclusive).
         */
        get: operations["listAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/keys/secrets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a secret key in an environment */
        post: operations["createSecretKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/keys/secrets/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a secret key (effective at once) */
        delete: operations["deleteSecretKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/keys/publishable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a publishable key in an environment */
        post: operations["createPublishableKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/keys/publishable/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a publishable key (effective at once) */
        delete: operations["deletePublishableKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the keys of an environment (without the keys themselves) */
        get: operations["listKeys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List webhooks: one form's (form_id) or every one of an environment (environment) */
        get: operations["listWebhooks"];
        put?: never;
        /** Register a webhook on one of a form's events */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a webhook (never its secret: hasSecret says whether it has one) */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /** Delete a webhook */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /** Change a webhook: the members given replace the stored ones (secret: null removes it) */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A webhook's deliveries, newest first, each with its attempts */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/deliveries/{deliveryId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a delivery again: a new delivery of the same event (same webhook-id and body), to the current URL and secret */
        post: operations["redeliverWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a webhook.test event to this webhook, whatever event it subscribes to
         * @description A test is tried once and never retried. With wait=true the answer comes after that attempt, with its attempt and its verdict in words (`attempts[0].summary`); without, at once, and the outcome is read from the deliveries.
         */
        post: operations["testWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/forms/{id}/uploads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload one file for a file field (then submit its uploadId as the answer)
         * @description Multipart: a part `field` naming the file field, then one part `file`. Whoever may submit to the form may upload to it. The file is judged by its bytes (size, `accept`, scanning) as it streams in. The upload id is good for one submission within 24 hours; an upload never used is deleted.
         */
        post: operations["uploadFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A file by its signed link (no credential; the link expires)
         * @description The links that responses, CSV, webhooks and notification mail carry (`url`). Sent as an attachment under the type read from its bytes, with `X-Content-Type-Options: nosniff` and `Content-Security-Policy: sandbox`. An expired or altered link is 404.
         */
        get: operations["getFileByLink"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/forms": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List forms of an environment (anonymous: the live ones, in their public view) */
        get: operations["listForms"];
        put?: never;
        /** Create a form */
        post: operations["createForm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/environments/{environment}/forms": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Deprecated: use GET /forms?environment=
         * @deprecated
         */
        get: operations["listEnvironmentForms"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/forms/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a form: in full for its owner, in its public view for anyone if live */
        get: operations["getForm"];
        /** Update a form: members in the body replace the stored ones */
        put: operations["updateForm"];
        post?: never;
        /** Delete a form with its submissions and webhooks */
        delete: operations["deleteForm"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/forms/{formId}/public": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The public view of a live form (what a form renderer needs) */
        get: operations["getPublicForm"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/forms/{id}/draft": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read the working copy of a form (404 when it has none) */
        get: operations["getFormDraft"];
        /** Save the working copy of a live or active form: members replace the copy’s; respondents keep the live form */
        put: operations["saveFormDraft"];
        post?: never;
        /** Discard the working copy; the live form stays as it is */
        delete: operations["discardFormDraft"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/forms/{id}/draft/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Publish the working copy: it becomes the form (version + 1) and is gone */
        post: operations["publishFormDraft"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/forms/{id}/qr.svg": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The QR code of a form's hosted page, as an SVG image
         * @description Its owner may have it in any status; anyone else once the form is live. The code holds `{PUBLIC_URL}/f/{id}` (without PUBLIC_URL, the origin the request came to); the SVG names that link in its <title>.
         */
        get: operations["getFormQrCode"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/forms/{id}/submit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Submit answers to a form (anonymous to live forms; with a key to live, active, draft)
         * @description JSON, or a plain HTML form post (`application/x-www-form-urlencoded`, `multipart/form-data`): each form field is an answer. A form post is answered for a browser (a 303 to `_redirect` or `ui.redirectUrl`, else an HTML page, errors too) unless its Accept prefers JSON.
         */
        post: operations["submitForm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/responses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a form's submissions, newest first (format=csv|xlsx|ndjson: all of them as a download) */
        get: operations["listResponses"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/environments/{environment}/responses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Deprecated: use GET /responses?form_id=&environment=
         * @deprecated
         */
        get: operations["listEnvironmentResponses"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/responses/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one submission */
        get: operations["getResponse"];
        put?: never;
        post?: never;
        /** Delete a submission */
        delete: operations["deleteResponse"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/responses/{id}/read": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mark a submission read (body {read:false} marks it unread) */
        post: operations["markResponseRead"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/responses/{id}/star": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Star or unstar a submission */
        post: operations["starResponse"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/responses/{id}/notes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add a note to a submission */
        post: operations["addResponseNote"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/responses/{id}/files/{fileId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a file of a submission
         * @description The bytes as they were sent (decrypted when stored encrypted), as an attachment under the original name and the type read from the bytes, with `X-Content-Type-Options: nosniff` and `Content-Security-Policy: sandbox`. One byte range (`Range`) is honoured for files not stored encrypted.
         */
        get: operations["getResponseFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/responses/{id}/reply": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reply to a submission by e-mail (to its first e-mail answer) */
        post: operations["replyToResponse"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/responses/summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Each form's submission count, unread count and last submission time in an environment (forms with none are left out) */
        get: operations["summarizeResponses"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/forms/{formId}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Report a view or a start of a form (counted once per session; whoever may submit may report) */
        post: operations["recordFormEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/analytics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Views, starts and submissions of an environment's forms: totals, per form, per UTC day */
        get: operations["getAnalytics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/analytics/questions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What a form's answers say, per question: option counts, a number's figures, how many answered
         * @description Per field in the form's order (API.md §8): `options` with their counts for select and checkbox, `mean`, `median`, `min`, `max` and `distribution` for number and rating, only `answered` for the others (their text stays in the inbox). Accepted and flagged responses in the range; quarantined ones are left out. A field kept masked, hashed, encrypted or dropped shows `withheld` and no values. Counted in one pass over the responses, in chunks.
         */
        get: operations["getQuestionAnalytics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/analytics/drop-off": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Where a form's visitors gave up: per question, sessions that reached, answered and left it
         * @description Per question in the form's page order (API.md §15), each session counted once: `reached`, `answered` and `leftHere` (did not complete the form, and this was the furthest question reached). A one-by-one form counts the hosted page's steps and its views (a view without a page sent reached the first question); a classic form, its views and the submissions of their sessions. The range and the access rules as on GET /analytics/questions.
         */
        get: operations["getDropOff"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/environments/{environment}/analytics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Deprecated: use GET /analytics?environment=
         * @deprecated
         */
        get: operations["getEnvironmentAnalytics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description RFC 9457 problem details */
        Problem: {
            /**
             * Format: uri
             * @example https://intake.dev/problems/validation-failed
             */
            type: string;
            title: string;
            status: number;
            detail: string;
            /**
             * @description Stable snake_case identifier of the error (API.md §10)
             * @enum {string}
             */
            code: "invalid_json" | "validation_failed" | "invalid_form" | "invalid_parameter" | "invalid_environment" | "environment_not_found" | "environment_not_empty" | "unauthorized" | "forbidden" | "not_owner" | "form_not_in_environment" | "not_found" | "method_not_allowed" | "conflict" | "last_owner" | "invalid_token" | "immutable_member" | "version_conflict" | "form_closed" | "already_submitted" | "password_required" | "spam_detected" | "no_recipient" | "mail_failed" | "rate_limited" | "quota_exceeded" | "payload_too_large" | "unsupported_media_type" | "service_unavailable" | "internal";
            /** @description Every failing member, for validation failures */
            errors?: {
                field: string;
                code: string;
                message: string;
                /** @description The message in the language of the request’s Accept-Language or ?lang= (API.md §13) */
                localizedMessage?: string;
            }[];
            /** @description invalid_environment: environment names to use instead (development, production) */
            suggestions?: string[];
            /** @description environment_not_empty: the forms it still holds */
            forms?: number;
            /** @description environment_not_empty: the API keys it still holds */
            keys?: number;
        } & {
            [key: string]: unknown;
        };
    };
    responses: {
        /** @description The request is invalid: malformed JSON (invalid_json), a path or query parameter (invalid_parameter, invalid_environment) or a body (validation_failed, invalid_form…) that breaks the rules; `errors` lists every failing member */
        BadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description A credential is needed and none was sent, or the one sent is not valid (unknown, revoked, expired): never treated as anonymous */
        Unauthorized: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                "Set-Cookie": components["headers"]["Set-Cookie"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The credential may not do this (another user’s resource, a key of another environment, a publishable key), or a session cookie without its X-CSRF-Token or from another origin */
        Forbidden: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No such resource (or not one the caller may know of) */
        NotFound: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The request conflicts with the current state */
        Conflict: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description If-Match names a version that is no longer current (version_conflict) */
        PreconditionFailed: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The body is larger than 1 MiB (payload_too_large) */
        PayloadTooLarge: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The body is not in a media type the operation takes (unsupported_media_type) */
        UnsupportedMediaType: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description A rate limit (rate_limited) or the monthly quota (quota_exceeded) is used up */
        TooManyRequests: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Retry-After": components["headers"]["Retry-After"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description An unexpected error (internal); quote X-Request-Id */
        InternalError: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The mail transport refused the message (mail_failed) */
        BadGateway: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The storage cannot serve the request now (service_unavailable): retry after Retry-After seconds (with the same Idempotency-Key, if one was sent) */
        ServiceUnavailable: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
    };
    parameters: {
        /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
        CsrfToken: string;
        /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
        WorkspaceHeader: string;
        /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
        WorkspaceQuery: string;
    };
    requestBodies: never;
    headers: {
        /** @description The id of this request (the X-Request-Id sent when it is a UUID, else a new UUID): quote it when reporting a problem */
        "X-Request-Id": string;
        /** @description The form version in quotes (`"3"`; the owner's view of a form whose working copy waits: `"3-draft"`; the public view in another of its languages: `"3-de"`): send it back in If-None-Match or If-Match */
        ETag: string;
        /** @description Where the resource created (or the page to go to) is */
        Location: string;
        /** @description Seconds to wait before trying again */
        "Retry-After": number;
        /** @description How many requests the current window allows */
        "RateLimit-Limit": number;
        /** @description How many of them are left */
        "RateLimit-Remaining": number;
        /** @description Seconds until the window starts again */
        "RateLimit-Reset": number;
        /** @description This path is deprecated: use its successor, named in Link */
        Deprecation: "true";
        /** @description The successor of this deprecated path: `<url>; rel="successor-version"` */
        Link: string;
        /** @description The credential expected: `Bearer` */
        "WWW-Authenticate": string;
        /** @description The dashboard session cookie (`intake_session`, HttpOnly, SameSite=Lax; `__Host-intake_session`, Secure, in production): set by sign-up and log-in with `cookie: true`, cleared by log-out and when the cookie sent is no longer valid */
        "Set-Cookie": string;
        /** @description With format=csv, xlsx or ndjson: `attachment`, the file named after the form's title and the day, with the format's extension */
        "Content-Disposition": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                        database: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    signUp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    password: string;
                    /** @description true: set the session as an HttpOnly cookie (the dashboard) and answer `csrfToken` instead of `token` */
                    cookie?: boolean;
                };
            };
        };
        responses: {
            /** @description Signed up and in */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Set-Cookie": components["headers"]["Set-Cookie"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        user: {
                            id: string;
                            email: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            createdAt: string;
                        };
                        /** @description The session token, for Authorization: Bearer */
                        token: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        expiresAt: string;
                    } | {
                        user: {
                            id: string;
                            email: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            createdAt: string;
                        };
                        /** @description With the session cookie: send it in `X-CSRF-Token` on every POST, PUT, PATCH and DELETE */
                        csrfToken: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        expiresAt: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    logIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    password: string;
                    /** @description true: set the session as an HttpOnly cookie (the dashboard) and answer `csrfToken` instead of `token` */
                    cookie?: boolean;
                };
            };
        };
        responses: {
            /** @description Signed in */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Set-Cookie": components["headers"]["Set-Cookie"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        user: {
                            id: string;
                            email: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            createdAt: string;
                        };
                        /** @description The session token, for Authorization: Bearer */
                        token: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        expiresAt: string;
                    } | {
                        user: {
                            id: string;
                            email: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            createdAt: string;
                        };
                        /** @description With the session cookie: send it in `X-CSRF-Token` on every POST, PUT, PATCH and DELETE */
                        csrfToken: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        expiresAt: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    logOut: {
        parameters: {
            query?: {
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Set-Cookie": components["headers"]["Set-Cookie"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getCurrentUser: {
        parameters: {
            query?: {
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        user: {
                            id: string;
                            email: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            createdAt: string;
                        };
                        /** @description With the session cookie: send it in `X-CSRF-Token` on every POST, PUT, PATCH and DELETE */
                        csrfToken?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    changePassword: {
        parameters: {
            query?: {
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    currentPassword: string;
                    newPassword: string;
                };
            };
        };
        responses: {
            /** @description Changed */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    requestPasswordReset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                };
            };
        };
        responses: {
            /** @description Asked for: a link is mailed if the address has an account */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    confirmPasswordReset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    token: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Set: log in with the new password */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listEnvironments: {
        parameters: {
            query?: {
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            name: string;
                            isDefault: boolean;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            createdAt: string;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createEnvironment: {
        parameters: {
            query?: {
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        name: string;
                        isDefault: boolean;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        createdAt: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteEnvironment: {
        parameters: {
            query?: {
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listWorkspaces: {
        parameters: {
            query?: {
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @example wsp_01m8b9evf8tkxmrssqw52wp655 */
                            id: string;
                            name: string;
                            /** @description The user's personal workspace: made at sign-up, never deleted */
                            personal: boolean;
                            /** @description owner, admin, editor or viewer (highest first) */
                            role: "owner" | "admin" | "editor" | "viewer";
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            createdAt: string;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createWorkspace: {
        parameters: {
            query?: {
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example wsp_01m8b9evf8tkxmrssqw52wp655 */
                        id: string;
                        name: string;
                        /** @description The user's personal workspace: made at sign-up, never deleted */
                        personal: boolean;
                        /** @description owner, admin, editor or viewer (highest first) */
                        role: "owner" | "admin" | "editor" | "viewer";
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        createdAt: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteWorkspace: {
        parameters: {
            query?: {
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    renameWorkspace: {
        parameters: {
            query?: {
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example wsp_01m8b9evf8tkxmrssqw52wp655 */
                        id: string;
                        name: string;
                        /** @description The user's personal workspace: made at sign-up, never deleted */
                        personal: boolean;
                        /** @description owner, admin, editor or viewer (highest first) */
                        role: "owner" | "admin" | "editor" | "viewer";
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        createdAt: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listMembers: {
        parameters: {
            query?: {
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            userId: string;
                            email: string;
                            /** @description owner, admin, editor or viewer (highest first) */
                            role: "owner" | "admin" | "editor" | "viewer";
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            joinedAt: string;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    removeMember: {
        parameters: {
            query?: {
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                id: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    changeMemberRole: {
        parameters: {
            query?: {
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                id: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description owner, admin, editor or viewer (highest first) */
                    role: "owner" | "admin" | "editor" | "viewer";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        userId: string;
                        email: string;
                        /** @description owner, admin, editor or viewer (highest first) */
                        role: "owner" | "admin" | "editor" | "viewer";
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        joinedAt: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listInvitations: {
        parameters: {
            query?: {
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @example inv_01m8b9evf8tkxmrssqw52wp655 */
                            id: string;
                            /** @description The invited address, lower-cased */
                            email: string;
                            /** @description owner, admin, editor or viewer (highest first) */
                            role: "owner" | "admin" | "editor" | "viewer";
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            createdAt: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            expiresAt: string;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createInvitation: {
        parameters: {
            query?: {
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    /** @description owner, admin, editor or viewer (highest first) */
                    role: "owner" | "admin" | "editor" | "viewer";
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example inv_01m8b9evf8tkxmrssqw52wp655 */
                        id: string;
                        /** @description The invited address, lower-cased */
                        email: string;
                        /** @description owner, admin, editor or viewer (highest first) */
                        role: "owner" | "admin" | "editor" | "viewer";
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        createdAt: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        expiresAt: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    revokeInvitation: {
        parameters: {
            query?: {
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                id: string;
                invitationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    previewInvitation: {
        parameters: {
            query?: {
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The link's `token` */
                    token: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        workspace: {
                            name: string;
                        };
                        /** @description owner, admin, editor or viewer (highest first) */
                        role: "owner" | "admin" | "editor" | "viewer";
                        /** @description The invited address, lower-cased: the account that may accept */
                        email: string;
                        /** @description The inviter's address (null once their account is gone) */
                        invitedBy: string | null;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        expiresAt: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    acceptInvitation: {
        parameters: {
            query?: {
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The link's `token` */
                    token: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        workspace: {
                            /** @example wsp_01m8b9evf8tkxmrssqw52wp655 */
                            id: string;
                            name: string;
                            /** @description The user's personal workspace: made at sign-up, never deleted */
                            personal: boolean;
                            /** @description owner, admin, editor or viewer (highest first) */
                            role: "owner" | "admin" | "editor" | "viewer";
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            createdAt: string;
                        };
                        /** @description owner, admin, editor or viewer (highest first) */
                        role: "owner" | "admin" | "editor" | "viewer";
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listAudit: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                /** @description A user's id (`usr_…`) or a key's (`key_…`): what they did */
                actor?: string;
                /** @description An action (`form.updated`), or a kind of target (`form`): every action on it */
                action?: string;
                /** @description ISO 8601 date or date-time, inclusive */
                from?: string;
                /** @description ISO 8601 date or date-time, inclusive (a date: its whole day) */
                to?: string;
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            at: string;
                            actor: {
                                type: "user" | "key";
                                id: string;
                                /** @description A user's address when they acted */
                                email?: string;
                            };
                            /** @example form.updated */
                            action: string;
                            target: {
                                type: string;
                                id: string;
                            };
                            /** @description The client address the change came from */
                            ip: string;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createSecretKey: {
        parameters: {
            query?: {
                /** @description Environment name: ^[a-z0-9_-]{1,50}$, e.g. development or production */
                environment?: string;
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        kind: "secret" | "publishable";
                        environment: string;
                        /** @description The full key: shown this once, stored only as its SHA-256 hash */
                        key: string;
                        last4: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        createdAt: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteSecretKey: {
        parameters: {
            query?: {
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createPublishableKey: {
        parameters: {
            query?: {
                /** @description Environment name: ^[a-z0-9_-]{1,50}$, e.g. development or production */
                environment?: string;
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        kind: "secret" | "publishable";
                        environment: string;
                        /** @description The full key: shown this once, stored only as its SHA-256 hash */
                        key: string;
                        last4: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        createdAt: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deletePublishableKey: {
        parameters: {
            query?: {
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listKeys: {
        parameters: {
            query?: {
                /** @description Environment name: ^[a-z0-9_-]{1,50}$, e.g. development or production */
                environment?: string;
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: string;
                            /** @enum {string} */
                            kind: "secret" | "publishable";
                            environment: string;
                            last4: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            createdAt: string;
                            lastUsedAt: string | null;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listWebhooks: {
        parameters: {
            query?: {
                form_id?: string;
                /** @description Environment name: ^[a-z0-9_-]{1,50}$, e.g. development or production */
                environment?: string;
                limit?: number;
                cursor?: string;
                /** @description true: only the enabled webhooks whose last delivery attempt failed (what the dashboard marks a form by) */
                failing?: boolean;
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: string;
                            formId: string;
                            environment: string;
                            event: string;
                            url: string;
                            format: string;
                            enabled: boolean;
                            hasSecret: boolean;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            createdAt: string;
                            /** @description How the webhook's deliveries are going */
                            health: {
                                /**
                                 * @description untried: nothing sent yet; working: the newest tried delivery got a 2xx; failing: its last attempt did not (it is retried at nextRetryAt, if at all)
                                 * @enum {string}
                                 */
                                state: "untried" | "working" | "failing";
                                lastAttemptAt: string | null;
                                /** @description The last attempt in plain words, e.g. "hooks.example.com could not be found (no such host name)" */
                                lastOutcome: string | null;
                                /** @description When the failing delivery is tried again; null when no retry is due (a test, or the retries are spent) */
                                nextRetryAt: string | null;
                            };
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createWebhook: {
        parameters: {
            query?: {
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    formId: string;
                    /** @enum {string} */
                    event: "response.created" | "response.updated" | "response.deleted" | "response.partial" | "form.created" | "form.updated" | "form.deleted";
                    /** @description http:// or https:// */
                    url: string;
                    /** @description Signs deliveries; a `whsec_` secret is base64 after the prefix (Standard Webhooks). Write-only. */
                    secret?: string;
                    /** @enum {string} */
                    format?: "legacy" | "otel";
                };
            };
        };
        responses: {
            /** @description The webhook registered */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        formId: string;
                        environment: string;
                        event: string;
                        url: string;
                        format: string;
                        enabled: boolean;
                        hasSecret: boolean;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        createdAt: string;
                        /** @description How the webhook's deliveries are going */
                        health: {
                            /**
                             * @description untried: nothing sent yet; working: the newest tried delivery got a 2xx; failing: its last attempt did not (it is retried at nextRetryAt, if at all)
                             * @enum {string}
                             */
                            state: "untried" | "working" | "failing";
                            lastAttemptAt: string | null;
                            /** @description The last attempt in plain words, e.g. "hooks.example.com could not be found (no such host name)" */
                            lastOutcome: string | null;
                            /** @description When the failing delivery is tried again; null when no retry is due (a test, or the retries are spent) */
                            nextRetryAt: string | null;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getWebhook: {
        parameters: {
            query?: {
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        formId: string;
                        environment: string;
                        event: string;
                        url: string;
                        format: string;
                        enabled: boolean;
                        hasSecret: boolean;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        createdAt: string;
                        /** @description How the webhook's deliveries are going */
                        health: {
                            /**
                             * @description untried: nothing sent yet; working: the newest tried delivery got a 2xx; failing: its last attempt did not (it is retried at nextRetryAt, if at all)
                             * @enum {string}
                             */
                            state: "untried" | "working" | "failing";
                            lastAttemptAt: string | null;
                            /** @description The last attempt in plain words, e.g. "hooks.example.com could not be found (no such host name)" */
                            lastOutcome: string | null;
                            /** @description When the failing delivery is tried again; null when no retry is due (a test, or the retries are spent) */
                            nextRetryAt: string | null;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteWebhook: {
        parameters: {
            query?: {
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateWebhook: {
        parameters: {
            query?: {
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    event?: "response.created" | "response.updated" | "response.deleted" | "response.partial" | "form.created" | "form.updated" | "form.deleted";
                    /** @description http:// or https:// */
                    url?: string;
                    /** @description A new secret, or null to remove it */
                    secret?: string | null;
                    /** @enum {string} */
                    format?: "legacy" | "otel";
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        formId: string;
                        environment: string;
                        event: string;
                        url: string;
                        format: string;
                        enabled: boolean;
                        hasSecret: boolean;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        createdAt: string;
                        /** @description How the webhook's deliveries are going */
                        health: {
                            /**
                             * @description untried: nothing sent yet; working: the newest tried delivery got a 2xx; failing: its last attempt did not (it is retried at nextRetryAt, if at all)
                             * @enum {string}
                             */
                            state: "untried" | "working" | "failing";
                            lastAttemptAt: string | null;
                            /** @description The last attempt in plain words, e.g. "hooks.example.com could not be found (no such host name)" */
                            lastOutcome: string | null;
                            /** @description When the failing delivery is tried again; null when no retry is due (a test, or the retries are spent) */
                            nextRetryAt: string | null;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @example dlv_01jd5x8m0k4v9w3t2r1q0p9n8m */
                            id: string;
                            webhookId: string;
                            /** @description The `webhook-id` header: the same on every attempt and redelivery */
                            eventId: string;
                            /** @enum {string} */
                            event: "response.created" | "response.updated" | "response.deleted" | "response.partial" | "form.created" | "form.updated" | "form.deleted" | "webhook.test";
                            /** @enum {string} */
                            status: "pending" | "succeeded" | "failed";
                            attempts: {
                                attempt: number;
                                /** @description The receiver's HTTP status */
                                statusCode: number | null;
                                /** @description Why no answer came (connection refused, timeout, refused address), or why nothing was sent */
                                error: string | null;
                                /** @description What happened, in plain words: "hooks.example.com answered 200 OK", "hooks.example.com could not be found (no such host name)" */
                                summary: string;
                                durationMs: number;
                                /**
                                 * Format: date-time
                                 * @example 2026-11-21T10:02:06.123Z
                                 */
                                attemptedAt: string;
                            }[];
                            /** @description When a pending delivery is tried next */
                            nextAttemptAt: string | null;
                            /** @description The delivery this one sends again */
                            redeliveryOf: string | null;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            createdAt: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            updatedAt: string;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    redeliverWebhookDelivery: {
        parameters: {
            query?: {
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                id: string;
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example dlv_01jd5x8m0k4v9w3t2r1q0p9n8m */
                        id: string;
                        webhookId: string;
                        /** @description The `webhook-id` header: the same on every attempt and redelivery */
                        eventId: string;
                        /** @enum {string} */
                        event: "response.created" | "response.updated" | "response.deleted" | "response.partial" | "form.created" | "form.updated" | "form.deleted" | "webhook.test";
                        /** @enum {string} */
                        status: "pending" | "succeeded" | "failed";
                        attempts: {
                            attempt: number;
                            /** @description The receiver's HTTP status */
                            statusCode: number | null;
                            /** @description Why no answer came (connection refused, timeout, refused address), or why nothing was sent */
                            error: string | null;
                            /** @description What happened, in plain words: "hooks.example.com answered 200 OK", "hooks.example.com could not be found (no such host name)" */
                            summary: string;
                            durationMs: number;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            attemptedAt: string;
                        }[];
                        /** @description When a pending delivery is tried next */
                        nextAttemptAt: string | null;
                        /** @description The delivery this one sends again */
                        redeliveryOf: string | null;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        createdAt: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        updatedAt: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    testWebhook: {
        parameters: {
            query?: {
                /** @description true: answer once the test has been tried (within the delivery timeout and a few seconds more), its attempt and verdict included */
                wait?: boolean;
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example dlv_01jd5x8m0k4v9w3t2r1q0p9n8m */
                        id: string;
                        webhookId: string;
                        /** @description The `webhook-id` header: the same on every attempt and redelivery */
                        eventId: string;
                        /** @enum {string} */
                        event: "response.created" | "response.updated" | "response.deleted" | "response.partial" | "form.created" | "form.updated" | "form.deleted" | "webhook.test";
                        /** @enum {string} */
                        status: "pending" | "succeeded" | "failed";
                        attempts: {
                            attempt: number;
                            /** @description The receiver's HTTP status */
                            statusCode: number | null;
                            /** @description Why no answer came (connection refused, timeout, refused address), or why nothing was sent */
                            error: string | null;
                            /** @description What happened, in plain words: "hooks.example.com answered 200 OK", "hooks.example.com could not be found (no such host name)" */
                            summary: string;
                            durationMs: number;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            attemptedAt: string;
                        }[];
                        /** @description When a pending delivery is tried next */
                        nextAttemptAt: string | null;
                        /** @description The delivery this one sends again */
                        redeliveryOf: string | null;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        createdAt: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        updatedAt: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    uploadFile: {
        parameters: {
            query?: {
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** @description The id of the file field (this part first) */
                    field: string;
                    /**
                     * Format: binary
                     * @description The file (one)
                     */
                    file: string;
                };
            };
        };
        responses: {
            /** @description Stored and judged: submit `uploadId` as (one of) the field’s answer */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        uploadId: string;
                        name: string;
                        /** @description The type read from the bytes */
                        type: string;
                        size: number;
                        sha256: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        expiresAt: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getFileByLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Content-Disposition": components["headers"]["Content-Disposition"];
                    [name: string]: unknown;
                };
                content: {
                    "*/*": string;
                };
            };
            /** @description The byte range asked for */
            206: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Content-Disposition": components["headers"]["Content-Disposition"];
                    [name: string]: unknown;
                };
                content: {
                    "*/*": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listForms: {
        parameters: {
            query?: {
                /** @description Environment name: ^[a-z0-9_-]{1,50}$, e.g. development or production */
                environment?: string;
                status?: "draft" | "live" | "active" | "disabled" | "archived";
                limit?: number;
                cursor?: string;
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: ({
                            id: string;
                            title: string;
                            environment: string;
                            /** @enum {string} */
                            status: "draft" | "live" | "active" | "disabled" | "archived";
                            version: number;
                            userId: string;
                            fields: {
                                id: string;
                                /** @enum {string} */
                                type: "text" | "email" | "textarea" | "select" | "number" | "checkbox" | "date" | "url" | "phone" | "hidden" | "rating" | "file";
                                label: string;
                                required?: boolean;
                                pii?: boolean;
                                /** @enum {string} */
                                piiMode?: "plain" | "masked" | "hashed" | "encrypted" | "dropped";
                                placeholder?: string;
                                help?: string;
                                options?: (string | {
                                    value: string;
                                    label: string;
                                })[];
                                multiple?: boolean;
                                /** @enum {string} */
                                display?: "tiles" | "dropdown";
                                minLength?: number;
                                maxLength?: number;
                                pattern?: string;
                                min?: number;
                                max?: number;
                                integer?: boolean;
                                /** @description A file field: files one answer may hold (default 1) */
                                maxFiles?: number;
                                /** @description A file field: the largest file in bytes (default 10 MiB, at most the instance’s FILE_MAX_BYTES) */
                                maxFileSize?: number;
                                /** @description A file field: extensions (".pdf") and media types ("image/*", "application/pdf") a file may have */
                                accept?: string[];
                            }[];
                            /** @description Presentation; members beyond these are kept as given */
                            ui: {
                                /** @enum {string} */
                                theme?: "auto" | "light" | "dark";
                                /** @enum {string} */
                                progress?: "steps" | "bar" | "none";
                                /** @enum {string} */
                                layout?: "one-by-one" | "classic";
                                submitLabel?: string;
                                successMessage?: string;
                                /** Format: uri */
                                redirectUrl?: string;
                                /** @description Shown under the title */
                                description?: string;
                                /** @description BCP 47: the page’s lang (and dir="rtl" for right-to-left scripts) */
                                language?: string;
                                /** @description #rrggbb; at least 4.5:1 against the theme’s background (#ffffff light, #000000 dark; both for auto) */
                                accentColor?: string;
                                /** @description Origins that may frame the page (/f/{formId}?embed=1), such as https://example.com: scheme://host[:port], no path; any site when absent, none when empty */
                                embedOrigins?: string[];
                                /** @description false hides the "Powered by Intake" line at the foot of the hosted page */
                                branding?: boolean;
                            } & {
                                [key: string]: unknown;
                            };
                            storage: {
                                /** @enum {string} */
                                mode?: "owner" | "none";
                                /** @enum {string} */
                                pii?: "plain" | "masked" | "hashed" | "encrypted" | "dropped";
                            };
                            logic: {
                                rules: {
                                    when: {
                                        field: string;
                                        /** @enum {string} */
                                        op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                        value?: string | number | boolean | null | (string | number | boolean)[];
                                    } | {
                                        all: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: ({
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            } | {
                                                all: {
                                                    field: string;
                                                    /** @enum {string} */
                                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                                }[];
                                            } | {
                                                any: {
                                                    field: string;
                                                    /** @enum {string} */
                                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                                }[];
                                            })[];
                                        } | {
                                            any: ({
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            } | {
                                                all: {
                                                    field: string;
                                                    /** @enum {string} */
                                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                                }[];
                                            } | {
                                                any: {
                                                    field: string;
                                                    /** @enum {string} */
                                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                                }[];
                                            })[];
                                        })[];
                                    } | {
                                        any: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: ({
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            } | {
                                                all: {
                                                    field: string;
                                                    /** @enum {string} */
                                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                                }[];
                                            } | {
                                                any: {
                                                    field: string;
                                                    /** @enum {string} */
                                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                                }[];
                                            })[];
                                        } | {
                                            any: ({
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            } | {
                                                all: {
                                                    field: string;
                                                    /** @enum {string} */
                                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                                }[];
                                            } | {
                                                any: {
                                                    field: string;
                                                    /** @enum {string} */
                                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                                }[];
                                            })[];
                                        })[];
                                    };
                                    show?: string[];
                                    hide?: string[];
                                }[];
                            };
                            retention: {
                                days: number;
                            } | null;
                            webhooks: {
                                id: string;
                                formId: string;
                                environment: string;
                                event: string;
                                url: string;
                                format: string;
                                enabled: boolean;
                                hasSecret: boolean;
                                /**
                                 * Format: date-time
                                 * @example 2026-11-21T10:02:06.123Z
                                 */
                                createdAt: string;
                            }[];
                            notifications: {
                                email: {
                                    enabled: boolean;
                                    to: string[];
                                };
                            } | null;
                            autoResponse: {
                                enabled: boolean;
                                emailField: string;
                                subject: string;
                                body: string;
                            } | null;
                            spamProtection: {
                                honeypot?: {
                                    field: string;
                                };
                                captcha?: {
                                    /** @enum {string} */
                                    provider: "turnstile" | "hcaptcha" | "recaptcha";
                                    siteKey: string;
                                    minScore?: number;
                                    hasSecret: boolean;
                                };
                                rules?: {
                                    field: string;
                                    /** @enum {string} */
                                    op: "contains" | "matches" | "equals";
                                    value: string;
                                }[];
                                /** @enum {string} */
                                action: "reject" | "flag" | "quarantine";
                            } | null;
                            /** @description Texts in other languages by BCP 47 tag (API.md §13); the form’s own are in ui.language. A missing text is shown in that language. */
                            translations: {
                                [key: string]: {
                                    title?: string;
                                    description?: string;
                                    submitLabel?: string;
                                    successMessage?: string;
                                    closedMessage?: string;
                                    fields?: {
                                        [key: string]: {
                                            label?: string;
                                            help?: string;
                                            placeholder?: string;
                                            /** @description An option's label by its value */
                                            options?: {
                                                [key: string]: string;
                                            };
                                        };
                                    };
                                    autoResponse?: {
                                        subject?: string;
                                        body?: string;
                                    };
                                };
                            };
                            access: {
                                /**
                                 * Format: date-time
                                 * @description Submissions are refused (form_closed) before this moment
                                 */
                                opensAt?: string;
                                /**
                                 * Format: date-time
                                 * @description Submissions are refused (form_closed) from this moment on; later than opensAt
                                 */
                                closesAt?: string;
                                /** @description Accepted submissions after which the form closes; never exceeded */
                                maxSubmissions?: number;
                                /** @description What the closed page says */
                                closedMessage?: string;
                                /**
                                 * @description browser: a cookie remembers a submission from the hosted page; email: one submission per address in emailField (409 already_submitted)
                                 * @enum {string}
                                 */
                                oncePer?: "browser" | "email";
                                /** @description A required email field: what oncePer "email" counts by */
                                emailField?: string;
                                hasPassword: boolean;
                            } | null;
                            /** @description The form has a working copy (GET /forms/{id}/draft), not yet published */
                            hasDraft: boolean;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            createdAt: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            updatedAt: string;
                        } | {
                            id: string;
                            title: string;
                            environment: string;
                            /** @enum {string} */
                            status: "draft" | "live" | "active" | "disabled" | "archived";
                            version: number;
                            fields: {
                                id: string;
                                /** @enum {string} */
                                type: "text" | "email" | "textarea" | "select" | "number" | "checkbox" | "date" | "url" | "phone" | "hidden" | "rating" | "file";
                                label: string;
                                required?: boolean;
                                placeholder?: string;
                                help?: string;
                                options?: (string | {
                                    value: string;
                                    label: string;
                                })[];
                                multiple?: boolean;
                                /** @enum {string} */
                                display?: "tiles" | "dropdown";
                                minLength?: number;
                                maxLength?: number;
                                pattern?: string;
                                min?: number;
                                max?: number;
                                integer?: boolean;
                                /** @description A file field: files one answer may hold (default 1) */
                                maxFiles?: number;
                                /** @description A file field: the largest file in bytes (default 10 MiB, at most the instance’s FILE_MAX_BYTES) */
                                maxFileSize?: number;
                                /** @description A file field: extensions (".pdf") and media types ("image/*", "application/pdf") a file may have */
                                accept?: string[];
                            }[];
                            /** @description Presentation; members beyond these are kept as given */
                            ui: {
                                /** @enum {string} */
                                theme?: "auto" | "light" | "dark";
                                /** @enum {string} */
                                progress?: "steps" | "bar" | "none";
                                /** @enum {string} */
                                layout?: "one-by-one" | "classic";
                                submitLabel?: string;
                                successMessage?: string;
                                /** Format: uri */
                                redirectUrl?: string;
                                /** @description Shown under the title */
                                description?: string;
                                /** @description BCP 47: the page’s lang (and dir="rtl" for right-to-left scripts) */
                                language?: string;
                                /** @description #rrggbb; at least 4.5:1 against the theme’s background (#ffffff light, #000000 dark; both for auto) */
                                accentColor?: string;
                                /** @description Origins that may frame the page (/f/{formId}?embed=1), such as https://example.com: scheme://host[:port], no path; any site when absent, none when empty */
                                embedOrigins?: string[];
                                /** @description false hides the "Powered by Intake" line at the foot of the hosted page */
                                branding?: boolean;
                            } & {
                                [key: string]: unknown;
                            };
                            logic: {
                                rules: {
                                    when: {
                                        field: string;
                                        /** @enum {string} */
                                        op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                        value?: string | number | boolean | null | (string | number | boolean)[];
                                    } | {
                                        all: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: ({
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            } | {
                                                all: {
                                                    field: string;
                                                    /** @enum {string} */
                                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                                }[];
                                            } | {
                                                any: {
                                                    field: string;
                                                    /** @enum {string} */
                                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                                }[];
                                            })[];
                                        } | {
                                            any: ({
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            } | {
                                                all: {
                                                    field: string;
                                                    /** @enum {string} */
                                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                                }[];
                                            } | {
                                                any: {
                                                    field: string;
                                                    /** @enum {string} */
                                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                                }[];
                                            })[];
                                        })[];
                                    } | {
                                        any: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: ({
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            } | {
                                                all: {
                                                    field: string;
                                                    /** @enum {string} */
                                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                                }[];
                                            } | {
                                                any: {
                                                    field: string;
                                                    /** @enum {string} */
                                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                                }[];
                                            })[];
                                        } | {
                                            any: ({
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            } | {
                                                all: {
                                                    field: string;
                                                    /** @enum {string} */
                                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                                }[];
                                            } | {
                                                any: {
                                                    field: string;
                                                    /** @enum {string} */
                                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                                }[];
                                            })[];
                                        })[];
                                    };
                                    show?: string[];
                                    hide?: string[];
                                }[];
                            };
                            spamProtection: {
                                honeypot: {
                                    field: string;
                                } | null;
                                captcha: {
                                    /** @enum {string} */
                                    provider: "turnstile" | "hcaptcha" | "recaptcha";
                                    siteKey: string;
                                } | null;
                            };
                            access: {
                                /** @description Whether the form takes submissions now */
                                open: boolean;
                                /**
                                 * @description Why not, when it does not
                                 * @enum {string}
                                 */
                                closedReason?: "not_yet_open" | "closed" | "full";
                                closedMessage?: string;
                                opensAt?: string;
                                closesAt?: string;
                                /** @enum {string} */
                                oncePer?: "browser" | "email";
                                /** @description The form asks for a password (X-Form-Password) */
                                passwordRequired: boolean;
                            };
                            /** @description The language of the texts (API.md §13): ?lang= when the form has it, else ui.language */
                            language: string;
                            /** @description Every language the form is written in, ui.language first */
                            languages: string[];
                        })[];
                        nextCursor: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createForm: {
        parameters: {
            query?: {
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    id?: string;
                    title: string;
                    environment: string;
                    fields: {
                        id: string;
                        /** @enum {string} */
                        type: "text" | "email" | "textarea" | "select" | "number" | "checkbox" | "date" | "url" | "phone" | "hidden" | "rating" | "file";
                        label: string;
                        required?: boolean;
                        pii?: boolean;
                        /** @enum {string} */
                        piiMode?: "plain" | "masked" | "hashed" | "encrypted" | "dropped";
                        placeholder?: string;
                        help?: string;
                        options?: (string | {
                            value: string;
                            label: string;
                        })[];
                        multiple?: boolean;
                        /** @enum {string} */
                        display?: "tiles" | "dropdown";
                        minLength?: number;
                        maxLength?: number;
                        pattern?: string;
                        min?: number;
                        max?: number;
                        integer?: boolean;
                        /** @description A file field: files one answer may hold (default 1) */
                        maxFiles?: number;
                        /** @description A file field: the largest file in bytes (default 10 MiB, at most the instance’s FILE_MAX_BYTES) */
                        maxFileSize?: number;
                        /** @description A file field: extensions (".pdf") and media types ("image/*", "application/pdf") a file may have */
                        accept?: string[];
                    }[];
                    /** @enum {string} */
                    status?: "draft" | "live" | "active" | "disabled" | "archived";
                    /** @description Presentation; members beyond these are kept as given */
                    ui?: {
                        /** @enum {string} */
                        theme?: "auto" | "light" | "dark";
                        /** @enum {string} */
                        progress?: "steps" | "bar" | "none";
                        /** @enum {string} */
                        layout?: "one-by-one" | "classic";
                        submitLabel?: string;
                        successMessage?: string;
                        /** Format: uri */
                        redirectUrl?: string;
                        /** @description Shown under the title */
                        description?: string;
                        /** @description BCP 47: the page’s lang (and dir="rtl" for right-to-left scripts) */
                        language?: string;
                        /** @description #rrggbb; at least 4.5:1 against the theme’s background (#ffffff light, #000000 dark; both for auto) */
                        accentColor?: string;
                        /** @description Origins that may frame the page (/f/{formId}?embed=1), such as https://example.com: scheme://host[:port], no path; any site when absent, none when empty */
                        embedOrigins?: string[];
                        /** @description false hides the "Powered by Intake" line at the foot of the hosted page */
                        branding?: boolean;
                    } & {
                        [key: string]: unknown;
                    };
                    storage?: {
                        /** @enum {string} */
                        mode?: "owner" | "none";
                        /** @enum {string} */
                        pii?: "plain" | "masked" | "hashed" | "encrypted" | "dropped";
                    };
                    logic?: {
                        rules: {
                            when: {
                                field: string;
                                /** @enum {string} */
                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                value?: string | number | boolean | null | (string | number | boolean)[];
                            } | {
                                all: ({
                                    field: string;
                                    /** @enum {string} */
                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                } | {
                                    all: ({
                                        field: string;
                                        /** @enum {string} */
                                        op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                        value?: string | number | boolean | null | (string | number | boolean)[];
                                    } | {
                                        all: {
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        }[];
                                    } | {
                                        any: {
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        }[];
                                    })[];
                                } | {
                                    any: ({
                                        field: string;
                                        /** @enum {string} */
                                        op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                        value?: string | number | boolean | null | (string | number | boolean)[];
                                    } | {
                                        all: {
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        }[];
                                    } | {
                                        any: {
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        }[];
                                    })[];
                                })[];
                            } | {
                                any: ({
                                    field: string;
                                    /** @enum {string} */
                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                } | {
                                    all: ({
                                        field: string;
                                        /** @enum {string} */
                                        op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                        value?: string | number | boolean | null | (string | number | boolean)[];
                                    } | {
                                        all: {
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        }[];
                                    } | {
                                        any: {
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        }[];
                                    })[];
                                } | {
                                    any: ({
                                        field: string;
                                        /** @enum {string} */
                                        op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                        value?: string | number | boolean | null | (string | number | boolean)[];
                                    } | {
                                        all: {
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        }[];
                                    } | {
                                        any: {
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        }[];
                                    })[];
                                })[];
                            };
                            show?: string[];
                            hide?: string[];
                        }[];
                    } | null;
                    retention?: {
                        days: number;
                    } | null;
                    notifications?: {
                        email: {
                            enabled: boolean;
                            to: string[];
                        };
                    } | null;
                    autoResponse?: {
                        enabled: boolean;
                        emailField: string;
                        subject: string;
                        body: string;
                    } | null;
                    spamProtection?: {
                        honeypot?: {
                            field: string;
                        };
                        captcha?: {
                            /** @enum {string} */
                            provider: "turnstile" | "hcaptcha" | "recaptcha";
                            siteKey: string;
                            minScore?: number;
                            secret?: string;
                            /** @description Read-only; ignored on input */
                            hasSecret?: boolean;
                        };
                        rules?: {
                            field: string;
                            /** @enum {string} */
                            op: "contains" | "matches" | "equals";
                            value: string;
                        }[];
                        /** @enum {string} */
                        action: "reject" | "flag" | "quarantine";
                    } | null;
                    webhooks?: {
                        /** @enum {string} */
                        event: "response.created" | "response.updated" | "response.deleted" | "response.partial" | "form.created" | "form.updated" | "form.deleted" | "webhook.test";
                        url: string;
                        secret?: string;
                        /** @enum {string} */
                        format?: "legacy" | "otel";
                        id?: string;
                        formId?: string;
                        environment?: string;
                        enabled?: boolean;
                        hasSecret?: boolean;
                        createdAt?: string;
                    }[];
                    /** @description Texts in other languages by BCP 47 tag (API.md §13); the form’s own are in ui.language. A missing text is shown in that language. */
                    translations?: {
                        [key: string]: {
                            title?: string;
                            description?: string;
                            submitLabel?: string;
                            successMessage?: string;
                            closedMessage?: string;
                            fields?: {
                                [key: string]: {
                                    label?: string;
                                    help?: string;
                                    placeholder?: string;
                                    /** @description An option's label by its value */
                                    options?: {
                                        [key: string]: string;
                                    };
                                };
                            };
                            autoResponse?: {
                                subject?: string;
                                body?: string;
                            };
                        };
                    };
                    access?: {
                        /**
                         * Format: date-time
                         * @description Submissions are refused (form_closed) before this moment
                         */
                        opensAt?: string;
                        /**
                         * Format: date-time
                         * @description Submissions are refused (form_closed) from this moment on; later than opensAt
                         */
                        closesAt?: string;
                        /** @description Accepted submissions after which the form closes; never exceeded */
                        maxSubmissions?: number;
                        /** @description What the closed page says */
                        closedMessage?: string;
                        /**
                         * @description browser: a cookie remembers a submission from the hosted page; email: one submission per address in emailField (409 already_submitted)
                         * @enum {string}
                         */
                        oncePer?: "browser" | "email";
                        /** @description A required email field: what oncePer "email" counts by */
                        emailField?: string;
                        /** @description Write-only, stored hashed: asked for by the hosted page, X-Form-Password on the API. Left out keeps the stored one; null removes it */
                        password?: string | null;
                        /** @description Read-only; ignored on input */
                        hasPassword?: boolean;
                    } | null;
                    userId?: string;
                    version?: unknown;
                    createdAt?: unknown;
                    updatedAt?: unknown;
                    hasDraft?: unknown;
                    draftOf?: unknown;
                };
            };
        };
        responses: {
            /** @description The form created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    ETag: components["headers"]["ETag"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        title: string;
                        environment: string;
                        /** @enum {string} */
                        status: "draft" | "live" | "active" | "disabled" | "archived";
                        version: number;
                        userId: string;
                        fields: {
                            id: string;
                            /** @enum {string} */
                            type: "text" | "email" | "textarea" | "select" | "number" | "checkbox" | "date" | "url" | "phone" | "hidden" | "rating" | "file";
                            label: string;
                            required?: boolean;
                            pii?: boolean;
                            /** @enum {string} */
                            piiMode?: "plain" | "masked" | "hashed" | "encrypted" | "dropped";
                            placeholder?: string;
                            help?: string;
                            options?: (string | {
                                value: string;
                                label: string;
                            })[];
                            multiple?: boolean;
                            /** @enum {string} */
                            display?: "tiles" | "dropdown";
                            minLength?: number;
                            maxLength?: number;
                            pattern?: string;
                            min?: number;
                            max?: number;
                            integer?: boolean;
                            /** @description A file field: files one answer may hold (default 1) */
                            maxFiles?: number;
                            /** @description A file field: the largest file in bytes (default 10 MiB, at most the instance’s FILE_MAX_BYTES) */
                            maxFileSize?: number;
                            /** @description A file field: extensions (".pdf") and media types ("image/*", "application/pdf") a file may have */
                            accept?: string[];
                        }[];
                        /** @description Presentation; members beyond these are kept as given */
                        ui: {
                            /** @enum {string} */
                            theme?: "auto" | "light" | "dark";
                            /** @enum {string} */
                            progress?: "steps" | "bar" | "none";
                            /** @enum {string} */
                            layout?: "one-by-one" | "classic";
                            submitLabel?: string;
                            successMessage?: string;
                            /** Format: uri */
                            redirectUrl?: string;
                            /** @description Shown under the title */
                            description?: string;
                            /** @description BCP 47: the page’s lang (and dir="rtl" for right-to-left scripts) */
                            language?: string;
                            /** @description #rrggbb; at least 4.5:1 against the theme’s background (#ffffff light, #000000 dark; both for auto) */
                            accentColor?: string;
                            /** @description Origins that may frame the page (/f/{formId}?embed=1), such as https://example.com: scheme://host[:port], no path; any site when absent, none when empty */
                            embedOrigins?: string[];
                            /** @description false hides the "Powered by Intake" line at the foot of the hosted page */
                            branding?: boolean;
                        } & {
                            [key: string]: unknown;
                        };
                        storage: {
                            /** @enum {string} */
                            mode?: "owner" | "none";
                            /** @enum {string} */
                            pii?: "plain" | "masked" | "hashed" | "encrypted" | "dropped";
                        };
                        logic: {
                            rules: {
                                when: {
                                    field: string;
                                    /** @enum {string} */
                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                } | {
                                    all: ({
                                        field: string;
                                        /** @enum {string} */
                                        op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                        value?: string | number | boolean | null | (string | number | boolean)[];
                                    } | {
                                        all: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        } | {
                                            any: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        })[];
                                    } | {
                                        any: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        } | {
                                            any: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        })[];
                                    })[];
                                } | {
                                    any: ({
                                        field: string;
                                        /** @enum {string} */
                                        op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                        value?: string | number | boolean | null | (string | number | boolean)[];
                                    } | {
                                        all: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        } | {
                                            any: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        })[];
                                    } | {
                                        any: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        } | {
                                            any: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        })[];
                                    })[];
                                };
                                show?: string[];
                                hide?: string[];
                            }[];
                        };
                        retention: {
                            days: number;
                        } | null;
                        webhooks: {
                            id: string;
                            formId: string;
                            environment: string;
                            event: string;
                            url: string;
                            format: string;
                            enabled: boolean;
                            hasSecret: boolean;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            createdAt: string;
                        }[];
                        notifications: {
                            email: {
                                enabled: boolean;
                                to: string[];
                            };
                        } | null;
                        autoResponse: {
                            enabled: boolean;
                            emailField: string;
                            subject: string;
                            body: string;
                        } | null;
                        spamProtection: {
                            honeypot?: {
                                field: string;
                            };
                            captcha?: {
                                /** @enum {string} */
                                provider: "turnstile" | "hcaptcha" | "recaptcha";
                                siteKey: string;
                                minScore?: number;
                                hasSecret: boolean;
                            };
                            rules?: {
                                field: string;
                                /** @enum {string} */
                                op: "contains" | "matches" | "equals";
                                value: string;
                            }[];
                            /** @enum {string} */
                            action: "reject" | "flag" | "quarantine";
                        } | null;
                        /** @description Texts in other languages by BCP 47 tag (API.md §13); the form’s own are in ui.language. A missing text is shown in that language. */
                        translations: {
                            [key: string]: {
                                title?: string;
                                description?: string;
                                submitLabel?: string;
                                successMessage?: string;
                                closedMessage?: string;
                                fields?: {
                                    [key: string]: {
                                        label?: string;
                                        help?: string;
                                        placeholder?: string;
                                        /** @description An option's label by its value */
                                        options?: {
                                            [key: string]: string;
                                        };
                                    };
                                };
                                autoResponse?: {
                                    subject?: string;
                                    body?: string;
                                };
                            };
                        };
                        access: {
                            /**
                             * Format: date-time
                             * @description Submissions are refused (form_closed) before this moment
                             */
                            opensAt?: string;
                            /**
                             * Format: date-time
                             * @description Submissions are refused (form_closed) from this moment on; later than opensAt
                             */
                            closesAt?: string;
                            /** @description Accepted submissions after which the form closes; never exceeded */
                            maxSubmissions?: number;
                            /** @description What the closed page says */
                            closedMessage?: string;
                            /**
                             * @description browser: a cookie remembers a submission from the hosted page; email: one submission per address in emailField (409 already_submitted)
                             * @enum {string}
                             */
                            oncePer?: "browser" | "email";
                            /** @description A required email field: what oncePer "email" counts by */
                            emailField?: string;
                            hasPassword: boolean;
                        } | null;
                        /** @description The form has a working copy (GET /forms/{id}/draft), not yet published */
                        hasDraft: boolean;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        createdAt: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        updatedAt: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listEnvironmentForms: {
        parameters: {
            query?: {
                status?: "draft" | "live" | "active" | "disabled" | "archived";
                limit?: number;
                cursor?: string;
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                environment: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The forms, as GET /forms lists them */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: ({
                            id: string;
                            title: string;
                            environment: string;
                            /** @enum {string} */
                            status: "draft" | "live" | "active" | "disabled" | "archived";
                            version: number;
                            userId: string;
                            fields: {
                                id: string;
                                /** @enum {string} */
                                type: "text" | "email" | "textarea" | "select" | "number" | "checkbox" | "date" | "url" | "phone" | "hidden" | "rating" | "file";
                                label: string;
                                required?: boolean;
                                pii?: boolean;
                                /** @enum {string} */
                                piiMode?: "plain" | "masked" | "hashed" | "encrypted" | "dropped";
                                placeholder?: string;
                                help?: string;
                                options?: (string | {
                                    value: string;
                                    label: string;
                                })[];
                                multiple?: boolean;
                                /** @enum {string} */
                                display?: "tiles" | "dropdown";
                                minLength?: number;
                                maxLength?: number;
                                pattern?: string;
                                min?: number;
                                max?: number;
                                integer?: boolean;
                                /** @description A file field: files one answer may hold (default 1) */
                                maxFiles?: number;
                                /** @description A file field: the largest file in bytes (default 10 MiB, at most the instance’s FILE_MAX_BYTES) */
                                maxFileSize?: number;
                                /** @description A file field: extensions (".pdf") and media types ("image/*", "application/pdf") a file may have */
                                accept?: string[];
                            }[];
                            /** @description Presentation; members beyond these are kept as given */
                            ui: {
                                /** @enum {string} */
                                theme?: "auto" | "light" | "dark";
                                /** @enum {string} */
                                progress?: "steps" | "bar" | "none";
                                /** @enum {string} */
                                layout?: "one-by-one" | "classic";
                                submitLabel?: string;
                                successMessage?: string;
                                /** Format: uri */
                                redirectUrl?: string;
                                /** @description Shown under the title */
                                description?: string;
                                /** @description BCP 47: the page’s lang (and dir="rtl" for right-to-left scripts) */
                                language?: string;
                                /** @description #rrggbb; at least 4.5:1 against the theme’s background (#ffffff light, #000000 dark; both for auto) */
                                accentColor?: string;
                                /** @description Origins that may frame the page (/f/{formId}?embed=1), such as https://example.com: scheme://host[:port], no path; any site when absent, none when empty */
                                embedOrigins?: string[];
                                /** @description false hides the "Powered by Intake" line at the foot of the hosted page */
                                branding?: boolean;
                            } & {
                                [key: string]: unknown;
                            };
                            storage: {
                                /** @enum {string} */
                                mode?: "owner" | "none";
                                /** @enum {string} */
                                pii?: "plain" | "masked" | "hashed" | "encrypted" | "dropped";
                            };
                            logic: {
                                rules: {
                                    when: {
                                        field: string;
                                        /** @enum {string} */
                                        op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                        value?: string | number | boolean | null | (string | number | boolean)[];
                                    } | {
                                        all: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: ({
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            } | {
                                                all: {
                                                    field: string;
                                                    /** @enum {string} */
                                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                                }[];
                                            } | {
                                                any: {
                                                    field: string;
                                                    /** @enum {string} */
                                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                                }[];
                                            })[];
                                        } | {
                                            any: ({
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            } | {
                                                all: {
                                                    field: string;
                                                    /** @enum {string} */
                                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                                }[];
                                            } | {
                                                any: {
                                                    field: string;
                                                    /** @enum {string} */
                                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                                }[];
                                            })[];
                                        })[];
                                    } | {
                                        any: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: ({
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            } | {
                                                all: {
                                                    field: string;
                                                    /** @enum {string} */
                                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                                }[];
                                            } | {
                                                any: {
                                                    field: string;
                                                    /** @enum {string} */
                                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                                }[];
                                            })[];
                                        } | {
                                            any: ({
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            } | {
                                                all: {
                                                    field: string;
                                                    /** @enum {string} */
                                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                                }[];
                                            } | {
                                                any: {
                                                    field: string;
                                                    /** @enum {string} */
                                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                                }[];
                                            })[];
                                        })[];
                                    };
                                    show?: string[];
                                    hide?: string[];
                                }[];
                            };
                            retention: {
                                days: number;
                            } | null;
                            webhooks: {
                                id: string;
                                formId: string;
                                environment: string;
                                event: string;
                                url: string;
                                format: string;
                                enabled: boolean;
                                hasSecret: boolean;
                                /**
                                 * Format: date-time
                                 * @example 2026-11-21T10:02:06.123Z
                                 */
                                createdAt: string;
                            }[];
                            notifications: {
                                email: {
                                    enabled: boolean;
                                    to: string[];
                                };
                            } | null;
                            autoResponse: {
                                enabled: boolean;
                                emailField: string;
                                subject: string;
                                body: string;
                            } | null;
                            spamProtection: {
                                honeypot?: {
                                    field: string;
                                };
                                captcha?: {
                                    /** @enum {string} */
                                    provider: "turnstile" | "hcaptcha" | "recaptcha";
                                    siteKey: string;
                                    minScore?: number;
                                    hasSecret: boolean;
                                };
                                rules?: {
                                    field: string;
                                    /** @enum {string} */
                                    op: "contains" | "matches" | "equals";
                                    value: string;
                                }[];
                                /** @enum {string} */
                                action: "reject" | "flag" | "quarantine";
                            } | null;
                            /** @description Texts in other languages by BCP 47 tag (API.md §13); the form’s own are in ui.language. A missing text is shown in that language. */
                            translations: {
                                [key: string]: {
                                    title?: string;
                                    description?: string;
                                    submitLabel?: string;
                                    successMessage?: string;
                                    closedMessage?: string;
                                    fields?: {
                                        [key: string]: {
                                            label?: string;
                                            help?: string;
                                            placeholder?: string;
                                            /** @description An option's label by its value */
                                            options?: {
                                                [key: string]: string;
                                            };
                                        };
                                    };
                                    autoResponse?: {
                                        subject?: string;
                                        body?: string;
                                    };
                                };
                            };
                            access: {
                                /**
                                 * Format: date-time
                                 * @description Submissions are refused (form_closed) before this moment
                                 */
                                opensAt?: string;
                                /**
                                 * Format: date-time
                                 * @description Submissions are refused (form_closed) from this moment on; later than opensAt
                                 */
                                closesAt?: string;
                                /** @description Accepted submissions after which the form closes; never exceeded */
                                maxSubmissions?: number;
                                /** @description What the closed page says */
                                closedMessage?: string;
                                /**
                                 * @description browser: a cookie remembers a submission from the hosted page; email: one submission per address in emailField (409 already_submitted)
                                 * @enum {string}
                                 */
                                oncePer?: "browser" | "email";
                                /** @description A required email field: what oncePer "email" counts by */
                                emailField?: string;
                                hasPassword: boolean;
                            } | null;
                            /** @description The form has a working copy (GET /forms/{id}/draft), not yet published */
                            hasDraft: boolean;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            createdAt: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            updatedAt: string;
                        } | {
                            id: string;
                            title: string;
                            environment: string;
                            /** @enum {string} */
                            status: "draft" | "live" | "active" | "disabled" | "archived";
                            version: number;
                            fields: {
                                id: string;
                                /** @enum {string} */
                                type: "text" | "email" | "textarea" | "select" | "number" | "checkbox" | "date" | "url" | "phone" | "hidden" | "rating" | "file";
                                label: string;
                                required?: boolean;
                                placeholder?: string;
                                help?: string;
                                options?: (string | {
                                    value: string;
                                    label: string;
                                })[];
                                multiple?: boolean;
                                /** @enum {string} */
                                display?: "tiles" | "dropdown";
                                minLength?: number;
                                maxLength?: number;
                                pattern?: string;
                                min?: number;
                                max?: number;
                                integer?: boolean;
                                /** @description A file field: files one answer may hold (default 1) */
                                maxFiles?: number;
                                /** @description A file field: the largest file in bytes (default 10 MiB, at most the instance’s FILE_MAX_BYTES) */
                                maxFileSize?: number;
                                /** @description A file field: extensions (".pdf") and media types ("image/*", "application/pdf") a file may have */
                                accept?: string[];
                            }[];
                            /** @description Presentation; members beyond these are kept as given */
                            ui: {
                                /** @enum {string} */
                                theme?: "auto" | "light" | "dark";
                                /** @enum {string} */
                                progress?: "steps" | "bar" | "none";
                                /** @enum {string} */
                                layout?: "one-by-one" | "classic";
                                submitLabel?: string;
                                successMessage?: string;
                                /** Format: uri */
                                redirectUrl?: string;
                                /** @description Shown under the title */
                                description?: string;
                                /** @description BCP 47: the page’s lang (and dir="rtl" for right-to-left scripts) */
                                language?: string;
                                /** @description #rrggbb; at least 4.5:1 against the theme’s background (#ffffff light, #000000 dark; both for auto) */
                                accentColor?: string;
                                /** @description Origins that may frame the page (/f/{formId}?embed=1), such as https://example.com: scheme://host[:port], no path; any site when absent, none when empty */
                                embedOrigins?: string[];
                                /** @description false hides the "Powered by Intake" line at the foot of the hosted page */
                                branding?: boolean;
                            } & {
                                [key: string]: unknown;
                            };
                            logic: {
                                rules: {
                                    when: {
                                        field: string;
                                        /** @enum {string} */
                                        op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                        value?: string | number | boolean | null | (string | number | boolean)[];
                                    } | {
                                        all: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: ({
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            } | {
                                                all: {
                                                    field: string;
                                                    /** @enum {string} */
                                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                                }[];
                                            } | {
                                                any: {
                                                    field: string;
                                                    /** @enum {string} */
                                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                                }[];
                                            })[];
                                        } | {
                                            any: ({
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            } | {
                                                all: {
                                                    field: string;
                                                    /** @enum {string} */
                                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                                }[];
                                            } | {
                                                any: {
                                                    field: string;
                                                    /** @enum {string} */
                                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                                }[];
                                            })[];
                                        })[];
                                    } | {
                                        any: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: ({
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            } | {
                                                all: {
                                                    field: string;
                                                    /** @enum {string} */
                                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                                }[];
                                            } | {
                                                any: {
                                                    field: string;
                                                    /** @enum {string} */
                                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                                }[];
                                            })[];
                                        } | {
                                            any: ({
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            } | {
                                                all: {
                                                    field: string;
                                                    /** @enum {string} */
                                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                                }[];
                                            } | {
                                                any: {
                                                    field: string;
                                                    /** @enum {string} */
                                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                                }[];
                                            })[];
                                        })[];
                                    };
                                    show?: string[];
                                    hide?: string[];
                                }[];
                            };
                            spamProtection: {
                                honeypot: {
                                    field: string;
                                } | null;
                                captcha: {
                                    /** @enum {string} */
                                    provider: "turnstile" | "hcaptcha" | "recaptcha";
                                    siteKey: string;
                                } | null;
                            };
                            access: {
                                /** @description Whether the form takes submissions now */
                                open: boolean;
                                /**
                                 * @description Why not, when it does not
                                 * @enum {string}
                                 */
                                closedReason?: "not_yet_open" | "closed" | "full";
                                closedMessage?: string;
                                opensAt?: string;
                                closesAt?: string;
                                /** @enum {string} */
                                oncePer?: "browser" | "email";
                                /** @description The form asks for a password (X-Form-Password) */
                                passwordRequired: boolean;
                            };
                            /** @description The language of the texts (API.md §13): ?lang= when the form has it, else ui.language */
                            language: string;
                            /** @description Every language the form is written in, ui.language first */
                            languages: string[];
                        })[];
                        nextCursor: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getForm: {
        parameters: {
            query?: {
                /** @description Environment name: ^[a-z0-9_-]{1,50}$, e.g. development or production */
                environment?: string;
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description An ETag of the form: while it is current the answer is 304, without a body */
                "If-None-Match"?: string;
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The form, in full or in its public view */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        title: string;
                        environment: string;
                        /** @enum {string} */
                        status: "draft" | "live" | "active" | "disabled" | "archived";
                        version: number;
                        userId: string;
                        fields: {
                            id: string;
                            /** @enum {string} */
                            type: "text" | "email" | "textarea" | "select" | "number" | "checkbox" | "date" | "url" | "phone" | "hidden" | "rating" | "file";
                            label: string;
                            required?: boolean;
                            pii?: boolean;
                            /** @enum {string} */
                            piiMode?: "plain" | "masked" | "hashed" | "encrypted" | "dropped";
                            placeholder?: string;
                            help?: string;
                            options?: (string | {
                                value: string;
                                label: string;
                            })[];
                            multiple?: boolean;
                            /** @enum {string} */
                            display?: "tiles" | "dropdown";
                            minLength?: number;
                            maxLength?: number;
                            pattern?: string;
                            min?: number;
                            max?: number;
                            integer?: boolean;
                            /** @description A file field: files one answer may hold (default 1) */
                            maxFiles?: number;
                            /** @description A file field: the largest file in bytes (default 10 MiB, at most the instance’s FILE_MAX_BYTES) */
                            maxFileSize?: number;
                            /** @description A file field: extensions (".pdf") and media types ("image/*", "application/pdf") a file may have */
                            accept?: string[];
                        }[];
                        /** @description Presentation; members beyond these are kept as given */
                        ui: {
                            /** @enum {string} */
                            theme?: "auto" | "light" | "dark";
                            /** @enum {string} */
                            progress?: "steps" | "bar" | "none";
                            /** @enum {string} */
                            layout?: "one-by-one" | "classic";
                            submitLabel?: string;
                            successMessage?: string;
                            /** Format: uri */
                            redirectUrl?: string;
                            /** @description Shown under the title */
                            description?: string;
                            /** @description BCP 47: the page’s lang (and dir="rtl" for right-to-left scripts) */
                            language?: string;
                            /** @description #rrggbb; at least 4.5:1 against the theme’s background (#ffffff light, #000000 dark; both for auto) */
                            accentColor?: string;
                            /** @description Origins that may frame the page (/f/{formId}?embed=1), such as https://example.com: scheme://host[:port], no path; any site when absent, none when empty */
                            embedOrigins?: string[];
                            /** @description false hides the "Powered by Intake" line at the foot of the hosted page */
                            branding?: boolean;
                        } & {
                            [key: string]: unknown;
                        };
                        storage: {
                            /** @enum {string} */
                            mode?: "owner" | "none";
                            /** @enum {string} */
                            pii?: "plain" | "masked" | "hashed" | "encrypted" | "dropped";
                        };
                        logic: {
                            rules: {
                                when: {
                                    field: string;
                                    /** @enum {string} */
                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                } | {
                                    all: ({
                                        field: string;
                                        /** @enum {string} */
                                        op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                        value?: string | number | boolean | null | (string | number | boolean)[];
                                    } | {
                                        all: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        } | {
                                            any: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        })[];
                                    } | {
                                        any: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        } | {
                                            any: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        })[];
                                    })[];
                                } | {
                                    any: ({
                                        field: string;
                                        /** @enum {string} */
                                        op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                        value?: string | number | boolean | null | (string | number | boolean)[];
                                    } | {
                                        all: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        } | {
                                            any: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        })[];
                                    } | {
                                        any: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        } | {
                                            any: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        })[];
                                    })[];
                                };
                                show?: string[];
                                hide?: string[];
                            }[];
                        };
                        retention: {
                            days: number;
                        } | null;
                        webhooks: {
                            id: string;
                            formId: string;
                            environment: string;
                            event: string;
                            url: string;
                            format: string;
                            enabled: boolean;
                            hasSecret: boolean;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            createdAt: string;
                        }[];
                        notifications: {
                            email: {
                                enabled: boolean;
                                to: string[];
                            };
                        } | null;
                        autoResponse: {
                            enabled: boolean;
                            emailField: string;
                            subject: string;
                            body: string;
                        } | null;
                        spamProtection: {
                            honeypot?: {
                                field: string;
                            };
                            captcha?: {
                                /** @enum {string} */
                                provider: "turnstile" | "hcaptcha" | "recaptcha";
                                siteKey: string;
                                minScore?: number;
                                hasSecret: boolean;
                            };
                            rules?: {
                                field: string;
                                /** @enum {string} */
                                op: "contains" | "matches" | "equals";
                                value: string;
                            }[];
                            /** @enum {string} */
                            action: "reject" | "flag" | "quarantine";
                        } | null;
                        /** @description Texts in other languages by BCP 47 tag (API.md §13); the form’s own are in ui.language. A missing text is shown in that language. */
                        translations: {
                            [key: string]: {
                                title?: string;
                                description?: string;
                                submitLabel?: string;
                                successMessage?: string;
                                closedMessage?: string;
                                fields?: {
                                    [key: string]: {
                                        label?: string;
                                        help?: string;
                                        placeholder?: string;
                                        /** @description An option's label by its value */
                                        options?: {
                                            [key: string]: string;
                                        };
                                    };
                                };
                                autoResponse?: {
                                    subject?: string;
                                    body?: string;
                                };
                            };
                        };
                        access: {
                            /**
                             * Format: date-time
                             * @description Submissions are refused (form_closed) before this moment
                             */
                            opensAt?: string;
                            /**
                             * Format: date-time
                             * @description Submissions are refused (form_closed) from this moment on; later than opensAt
                             */
                            closesAt?: string;
                            /** @description Accepted submissions after which the form closes; never exceeded */
                            maxSubmissions?: number;
                            /** @description What the closed page says */
                            closedMessage?: string;
                            /**
                             * @description browser: a cookie remembers a submission from the hosted page; email: one submission per address in emailField (409 already_submitted)
                             * @enum {string}
                             */
                            oncePer?: "browser" | "email";
                            /** @description A required email field: what oncePer "email" counts by */
                            emailField?: string;
                            hasPassword: boolean;
                        } | null;
                        /** @description The form has a working copy (GET /forms/{id}/draft), not yet published */
                        hasDraft: boolean;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        createdAt: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        updatedAt: string;
                    } | {
                        id: string;
                        title: string;
                        environment: string;
                        /** @enum {string} */
                        status: "draft" | "live" | "active" | "disabled" | "archived";
                        version: number;
                        fields: {
                            id: string;
                            /** @enum {string} */
                            type: "text" | "email" | "textarea" | "select" | "number" | "checkbox" | "date" | "url" | "phone" | "hidden" | "rating" | "file";
                            label: string;
                            required?: boolean;
                            placeholder?: string;
                            help?: string;
                            options?: (string | {
                                value: string;
                                label: string;
                            })[];
                            multiple?: boolean;
                            /** @enum {string} */
                            display?: "tiles" | "dropdown";
                            minLength?: number;
                            maxLength?: number;
                            pattern?: string;
                            min?: number;
                            max?: number;
                            integer?: boolean;
                            /** @description A file field: files one answer may hold (default 1) */
                            maxFiles?: number;
                            /** @description A file field: the largest file in bytes (default 10 MiB, at most the instance’s FILE_MAX_BYTES) */
                            maxFileSize?: number;
                            /** @description A file field: extensions (".pdf") and media types ("image/*", "application/pdf") a file may have */
                            accept?: string[];
                        }[];
                        /** @description Presentation; members beyond these are kept as given */
                        ui: {
                            /** @enum {string} */
                            theme?: "auto" | "light" | "dark";
                            /** @enum {string} */
                            progress?: "steps" | "bar" | "none";
                            /** @enum {string} */
                            layout?: "one-by-one" | "classic";
                            submitLabel?: string;
                            successMessage?: string;
                            /** Format: uri */
                            redirectUrl?: string;
                            /** @description Shown under the title */
                            description?: string;
                            /** @description BCP 47: the page’s lang (and dir="rtl" for right-to-left scripts) */
                            language?: string;
                            /** @description #rrggbb; at least 4.5:1 against the theme’s background (#ffffff light, #000000 dark; both for auto) */
                            accentColor?: string;
                            /** @description Origins that may frame the page (/f/{formId}?embed=1), such as https://example.com: scheme://host[:port], no path; any site when absent, none when empty */
                            embedOrigins?: string[];
                            /** @description false hides the "Powered by Intake" line at the foot of the hosted page */
                            branding?: boolean;
                        } & {
                            [key: string]: unknown;
                        };
                        logic: {
                            rules: {
                                when: {
                                    field: string;
                                    /** @enum {string} */
                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                } | {
                                    all: ({
                                        field: string;
                                        /** @enum {string} */
                                        op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                        value?: string | number | boolean | null | (string | number | boolean)[];
                                    } | {
                                        all: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        } | {
                                            any: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        })[];
                                    } | {
                                        any: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        } | {
                                            any: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        })[];
                                    })[];
                                } | {
                                    any: ({
                                        field: string;
                                        /** @enum {string} */
                                        op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                        value?: string | number | boolean | null | (string | number | boolean)[];
                                    } | {
                                        all: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        } | {
                                            any: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        })[];
                                    } | {
                                        any: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        } | {
                                            any: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        })[];
                                    })[];
                                };
                                show?: string[];
                                hide?: string[];
                            }[];
                        };
                        spamProtection: {
                            honeypot: {
                                field: string;
                            } | null;
                            captcha: {
                                /** @enum {string} */
                                provider: "turnstile" | "hcaptcha" | "recaptcha";
                                siteKey: string;
                            } | null;
                        };
                        access: {
                            /** @description Whether the form takes submissions now */
                            open: boolean;
                            /**
                             * @description Why not, when it does not
                             * @enum {string}
                             */
                            closedReason?: "not_yet_open" | "closed" | "full";
                            closedMessage?: string;
                            opensAt?: string;
                            closesAt?: string;
                            /** @enum {string} */
                            oncePer?: "browser" | "email";
                            /** @description The form asks for a password (X-Form-Password) */
                            passwordRequired: boolean;
                        };
                        /** @description The language of the texts (API.md §13): ?lang= when the form has it, else ui.language */
                        language: string;
                        /** @description Every language the form is written in, ui.language first */
                        languages: string[];
                    };
                };
            };
            /** @description Not modified: the version in If-None-Match is current */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateForm: {
        parameters: {
            query?: {
                /** @description Environment name: ^[a-z0-9_-]{1,50}$, e.g. development or production */
                environment?: string;
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description The ETag read: if the form has changed since, the answer is 412 */
                "If-Match"?: string;
                /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    id?: string;
                    title?: string;
                    fields?: {
                        id: string;
                        /** @enum {string} */
                        type: "text" | "email" | "textarea" | "select" | "number" | "checkbox" | "date" | "url" | "phone" | "hidden" | "rating" | "file";
                        label: string;
                        required?: boolean;
                        pii?: boolean;
                        /** @enum {string} */
                        piiMode?: "plain" | "masked" | "hashed" | "encrypted" | "dropped";
                        placeholder?: string;
                        help?: string;
                        options?: (string | {
                            value: string;
                            label: string;
                        })[];
                        multiple?: boolean;
                        /** @enum {string} */
                        display?: "tiles" | "dropdown";
                        minLength?: number;
                        maxLength?: number;
                        pattern?: string;
                        min?: number;
                        max?: number;
                        integer?: boolean;
                        /** @description A file field: files one answer may hold (default 1) */
                        maxFiles?: number;
                        /** @description A file field: the largest file in bytes (default 10 MiB, at most the instance’s FILE_MAX_BYTES) */
                        maxFileSize?: number;
                        /** @description A file field: extensions (".pdf") and media types ("image/*", "application/pdf") a file may have */
                        accept?: string[];
                    }[];
                    /** @enum {string} */
                    status?: "draft" | "live" | "active" | "disabled" | "archived";
                    /** @description Presentation; members beyond these are kept as given */
                    ui?: {
                        /** @enum {string} */
                        theme?: "auto" | "light" | "dark";
                        /** @enum {string} */
                        progress?: "steps" | "bar" | "none";
                        /** @enum {string} */
                        layout?: "one-by-one" | "classic";
                        submitLabel?: string;
                        successMessage?: string;
                        /** Format: uri */
                        redirectUrl?: string;
                        /** @description Shown under the title */
                        description?: string;
                        /** @description BCP 47: the page’s lang (and dir="rtl" for right-to-left scripts) */
                        language?: string;
                        /** @description #rrggbb; at least 4.5:1 against the theme’s background (#ffffff light, #000000 dark; both for auto) */
                        accentColor?: string;
                        /** @description Origins that may frame the page (/f/{formId}?embed=1), such as https://example.com: scheme://host[:port], no path; any site when absent, none when empty */
                        embedOrigins?: string[];
                        /** @description false hides the "Powered by Intake" line at the foot of the hosted page */
                        branding?: boolean;
                    } & {
                        [key: string]: unknown;
                    };
                    storage?: {
                        /** @enum {string} */
                        mode?: "owner" | "none";
                        /** @enum {string} */
                        pii?: "plain" | "masked" | "hashed" | "encrypted" | "dropped";
                    };
                    logic?: {
                        rules: {
                            when: {
                                field: string;
                                /** @enum {string} */
                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                value?: string | number | boolean | null | (string | number | boolean)[];
                            } | {
                                all: ({
                                    field: string;
                                    /** @enum {string} */
                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                } | {
                                    all: ({
                                        field: string;
                                        /** @enum {string} */
                                        op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                        value?: string | number | boolean | null | (string | number | boolean)[];
                                    } | {
                                        all: {
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        }[];
                                    } | {
                                        any: {
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        }[];
                                    })[];
                                } | {
                                    any: ({
                                        field: string;
                                        /** @enum {string} */
                                        op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                        value?: string | number | boolean | null | (string | number | boolean)[];
                                    } | {
                                        all: {
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        }[];
                                    } | {
                                        any: {
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        }[];
                                    })[];
                                })[];
                            } | {
                                any: ({
                                    field: string;
                                    /** @enum {string} */
                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                } | {
                                    all: ({
                                        field: string;
                                        /** @enum {string} */
                                        op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                        value?: string | number | boolean | null | (string | number | boolean)[];
                                    } | {
                                        all: {
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        }[];
                                    } | {
                                        any: {
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        }[];
                                    })[];
                                } | {
                                    any: ({
                                        field: string;
                                        /** @enum {string} */
                                        op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                        value?: string | number | boolean | null | (string | number | boolean)[];
                                    } | {
                                        all: {
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        }[];
                                    } | {
                                        any: {
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        }[];
                                    })[];
                                })[];
                            };
                            show?: string[];
                            hide?: string[];
                        }[];
                    } | null;
                    retention?: {
                        days: number;
                    } | null;
                    notifications?: {
                        email: {
                            enabled: boolean;
                            to: string[];
                        };
                    } | null;
                    autoResponse?: {
                        enabled: boolean;
                        emailField: string;
                        subject: string;
                        body: string;
                    } | null;
                    spamProtection?: {
                        honeypot?: {
                            field: string;
                        };
                        captcha?: {
                            /** @enum {string} */
                            provider: "turnstile" | "hcaptcha" | "recaptcha";
                            siteKey: string;
                            minScore?: number;
                            secret?: string;
                            /** @description Read-only; ignored on input */
                            hasSecret?: boolean;
                        };
                        rules?: {
                            field: string;
                            /** @enum {string} */
                            op: "contains" | "matches" | "equals";
                            value: string;
                        }[];
                        /** @enum {string} */
                        action: "reject" | "flag" | "quarantine";
                    } | null;
                    webhooks?: {
                        /** @enum {string} */
                        event: "response.created" | "response.updated" | "response.deleted" | "response.partial" | "form.created" | "form.updated" | "form.deleted" | "webhook.test";
                        url: string;
                        secret?: string;
                        /** @enum {string} */
                        format?: "legacy" | "otel";
                        id?: string;
                        formId?: string;
                        environment?: string;
                        enabled?: boolean;
                        hasSecret?: boolean;
                        createdAt?: string;
                    }[];
                    /** @description Texts in other languages by BCP 47 tag (API.md §13); the form’s own are in ui.language. A missing text is shown in that language. */
                    translations?: {
                        [key: string]: {
                            title?: string;
                            description?: string;
                            submitLabel?: string;
                            successMessage?: string;
                            closedMessage?: string;
                            fields?: {
                                [key: string]: {
                                    label?: string;
                                    help?: string;
                                    placeholder?: string;
                                    /** @description An option's label by its value */
                                    options?: {
                                        [key: string]: string;
                                    };
                                };
                            };
                            autoResponse?: {
                                subject?: string;
                                body?: string;
                            };
                        };
                    };
                    access?: {
                        /**
                         * Format: date-time
                         * @description Submissions are refused (form_closed) before this moment
                         */
                        opensAt?: string;
                        /**
                         * Format: date-time
                         * @description Submissions are refused (form_closed) from this moment on; later than opensAt
                         */
                        closesAt?: string;
                        /** @description Accepted submissions after which the form closes; never exceeded */
                        maxSubmissions?: number;
                        /** @description What the closed page says */
                        closedMessage?: string;
                        /**
                         * @description browser: a cookie remembers a submission from the hosted page; email: one submission per address in emailField (409 already_submitted)
                         * @enum {string}
                         */
                        oncePer?: "browser" | "email";
                        /** @description A required email field: what oncePer "email" counts by */
                        emailField?: string;
                        /** @description Write-only, stored hashed: asked for by the hosted page, X-Form-Password on the API. Left out keeps the stored one; null removes it */
                        password?: string | null;
                        /** @description Read-only; ignored on input */
                        hasPassword?: boolean;
                    } | null;
                    environment?: string;
                    userId?: string;
                    version?: unknown;
                    createdAt?: unknown;
                    updatedAt?: unknown;
                    hasDraft?: unknown;
                    draftOf?: unknown;
                };
            };
        };
        responses: {
            /** @description The form updated */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        title: string;
                        environment: string;
                        /** @enum {string} */
                        status: "draft" | "live" | "active" | "disabled" | "archived";
                        version: number;
                        userId: string;
                        fields: {
                            id: string;
                            /** @enum {string} */
                            type: "text" | "email" | "textarea" | "select" | "number" | "checkbox" | "date" | "url" | "phone" | "hidden" | "rating" | "file";
                            label: string;
                            required?: boolean;
                            pii?: boolean;
                            /** @enum {string} */
                            piiMode?: "plain" | "masked" | "hashed" | "encrypted" | "dropped";
                            placeholder?: string;
                            help?: string;
                            options?: (string | {
                                value: string;
                                label: string;
                            })[];
                            multiple?: boolean;
                            /** @enum {string} */
                            display?: "tiles" | "dropdown";
                            minLength?: number;
                            maxLength?: number;
                            pattern?: string;
                            min?: number;
                            max?: number;
                            integer?: boolean;
                            /** @description A file field: files one answer may hold (default 1) */
                            maxFiles?: number;
                            /** @description A file field: the largest file in bytes (default 10 MiB, at most the instance’s FILE_MAX_BYTES) */
                            maxFileSize?: number;
                            /** @description A file field: extensions (".pdf") and media types ("image/*", "application/pdf") a file may have */
                            accept?: string[];
                        }[];
                        /** @description Presentation; members beyond these are kept as given */
                        ui: {
                            /** @enum {string} */
                            theme?: "auto" | "light" | "dark";
                            /** @enum {string} */
                            progress?: "steps" | "bar" | "none";
                            /** @enum {string} */
                            layout?: "one-by-one" | "classic";
                            submitLabel?: string;
                            successMessage?: string;
                            /** Format: uri */
                            redirectUrl?: string;
                            /** @description Shown under the title */
                            description?: string;
                            /** @description BCP 47: the page’s lang (and dir="rtl" for right-to-left scripts) */
                            language?: string;
                            /** @description #rrggbb; at least 4.5:1 against the theme’s background (#ffffff light, #000000 dark; both for auto) */
                            accentColor?: string;
                            /** @description Origins that may frame the page (/f/{formId}?embed=1), such as https://example.com: scheme://host[:port], no path; any site when absent, none when empty */
                            embedOrigins?: string[];
                            /** @description false hides the "Powered by Intake" line at the foot of the hosted page */
                            branding?: boolean;
                        } & {
                            [key: string]: unknown;
                        };
                        storage: {
                            /** @enum {string} */
                            mode?: "owner" | "none";
                            /** @enum {string} */
                            pii?: "plain" | "masked" | "hashed" | "encrypted" | "dropped";
                        };
                        logic: {
                            rules: {
                                when: {
                                    field: string;
                                    /** @enum {string} */
                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                } | {
                                    all: ({
                                        field: string;
                                        /** @enum {string} */
                                        op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                        value?: string | number | boolean | null | (string | number | boolean)[];
                                    } | {
                                        all: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        } | {
                                            any: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        })[];
                                    } | {
                                        any: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        } | {
                                            any: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        })[];
                                    })[];
                                } | {
                                    any: ({
                                        field: string;
                                        /** @enum {string} */
                                        op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                        value?: string | number | boolean | null | (string | number | boolean)[];
                                    } | {
                                        all: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        } | {
                                            any: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        })[];
                                    } | {
                                        any: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        } | {
                                            any: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        })[];
                                    })[];
                                };
                                show?: string[];
                                hide?: string[];
                            }[];
                        };
                        retention: {
                            days: number;
                        } | null;
                        webhooks: {
                            id: string;
                            formId: string;
                            environment: string;
                            event: string;
                            url: string;
                            format: string;
                            enabled: boolean;
                            hasSecret: boolean;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            createdAt: string;
                        }[];
                        notifications: {
                            email: {
                                enabled: boolean;
                                to: string[];
                            };
                        } | null;
                        autoResponse: {
                            enabled: boolean;
                            emailField: string;
                            subject: string;
                            body: string;
                        } | null;
                        spamProtection: {
                            honeypot?: {
                                field: string;
                            };
                            captcha?: {
                                /** @enum {string} */
                                provider: "turnstile" | "hcaptcha" | "recaptcha";
                                siteKey: string;
                                minScore?: number;
                                hasSecret: boolean;
                            };
                            rules?: {
                                field: string;
                                /** @enum {string} */
                                op: "contains" | "matches" | "equals";
                                value: string;
                            }[];
                            /** @enum {string} */
                            action: "reject" | "flag" | "quarantine";
                        } | null;
                        /** @description Texts in other languages by BCP 47 tag (API.md §13); the form’s own are in ui.language. A missing text is shown in that language. */
                        translations: {
                            [key: string]: {
                                title?: string;
                                description?: string;
                                submitLabel?: string;
                                successMessage?: string;
                                closedMessage?: string;
                                fields?: {
                                    [key: string]: {
                                        label?: string;
                                        help?: string;
                                        placeholder?: string;
                                        /** @description An option's label by its value */
                                        options?: {
                                            [key: string]: string;
                                        };
                                    };
                                };
                                autoResponse?: {
                                    subject?: string;
                                    body?: string;
                                };
                            };
                        };
                        access: {
                            /**
                             * Format: date-time
                             * @description Submissions are refused (form_closed) before this moment
                             */
                            opensAt?: string;
                            /**
                             * Format: date-time
                             * @description Submissions are refused (form_closed) from this moment on; later than opensAt
                             */
                            closesAt?: string;
                            /** @description Accepted submissions after which the form closes; never exceeded */
                            maxSubmissions?: number;
                            /** @description What the closed page says */
                            closedMessage?: string;
                            /**
                             * @description browser: a cookie remembers a submission from the hosted page; email: one submission per address in emailField (409 already_submitted)
                             * @enum {string}
                             */
                            oncePer?: "browser" | "email";
                            /** @description A required email field: what oncePer "email" counts by */
                            emailField?: string;
                            hasPassword: boolean;
                        } | null;
                        /** @description The form has a working copy (GET /forms/{id}/draft), not yet published */
                        hasDraft: boolean;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        createdAt: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        updatedAt: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteForm: {
        parameters: {
            query?: {
                /** @description Environment name: ^[a-z0-9_-]{1,50}$, e.g. development or production */
                environment?: string;
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getPublicForm: {
        parameters: {
            query?: {
                /** @description One of the form’s languages (API.md §13); else the best match of Accept-Language, else ui.language */
                lang?: string;
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description An ETag of the form: while it is current the answer is 304, without a body */
                "If-None-Match"?: string;
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                formId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The public view of the form */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        title: string;
                        environment: string;
                        /** @enum {string} */
                        status: "draft" | "live" | "active" | "disabled" | "archived";
                        version: number;
                        fields: {
                            id: string;
                            /** @enum {string} */
                            type: "text" | "email" | "textarea" | "select" | "number" | "checkbox" | "date" | "url" | "phone" | "hidden" | "rating" | "file";
                            label: string;
                            required?: boolean;
                            placeholder?: string;
                            help?: string;
                            options?: (string | {
                                value: string;
                                label: string;
                            })[];
                            multiple?: boolean;
                            /** @enum {string} */
                            display?: "tiles" | "dropdown";
                            minLength?: number;
                            maxLength?: number;
                            pattern?: string;
                            min?: number;
                            max?: number;
                            integer?: boolean;
                            /** @description A file field: files one answer may hold (default 1) */
                            maxFiles?: number;
                            /** @description A file field: the largest file in bytes (default 10 MiB, at most the instance’s FILE_MAX_BYTES) */
                            maxFileSize?: number;
                            /** @description A file field: extensions (".pdf") and media types ("image/*", "application/pdf") a file may have */
                            accept?: string[];
                        }[];
                        /** @description Presentation; members beyond these are kept as given */
                        ui: {
                            /** @enum {string} */
                            theme?: "auto" | "light" | "dark";
                            /** @enum {string} */
                            progress?: "steps" | "bar" | "none";
                            /** @enum {string} */
                            layout?: "one-by-one" | "classic";
                            submitLabel?: string;
                            successMessage?: string;
                            /** Format: uri */
                            redirectUrl?: string;
                            /** @description Shown under the title */
                            description?: string;
                            /** @description BCP 47: the page’s lang (and dir="rtl" for right-to-left scripts) */
                            language?: string;
                            /** @description #rrggbb; at least 4.5:1 against the theme’s background (#ffffff light, #000000 dark; both for auto) */
                            accentColor?: string;
                            /** @description Origins that may frame the page (/f/{formId}?embed=1), such as https://example.com: scheme://host[:port], no path; any site when absent, none when empty */
                            embedOrigins?: string[];
                            /** @description false hides the "Powered by Intake" line at the foot of the hosted page */
                            branding?: boolean;
                        } & {
                            [key: string]: unknown;
                        };
                        logic: {
                            rules: {
                                when: {
                                    field: string;
                                    /** @enum {string} */
                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                } | {
                                    all: ({
                                        field: string;
                                        /** @enum {string} */
                                        op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                        value?: string | number | boolean | null | (string | number | boolean)[];
                                    } | {
                                        all: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        } | {
                                            any: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        })[];
                                    } | {
                                        any: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        } | {
                                            any: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        })[];
                                    })[];
                                } | {
                                    any: ({
                                        field: string;
                                        /** @enum {string} */
                                        op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                        value?: string | number | boolean | null | (string | number | boolean)[];
                                    } | {
                                        all: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        } | {
                                            any: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        })[];
                                    } | {
                                        any: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        } | {
                                            any: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        })[];
                                    })[];
                                };
                                show?: string[];
                                hide?: string[];
                            }[];
                        };
                        spamProtection: {
                            honeypot: {
                                field: string;
                            } | null;
                            captcha: {
                                /** @enum {string} */
                                provider: "turnstile" | "hcaptcha" | "recaptcha";
                                siteKey: string;
                            } | null;
                        };
                        access: {
                            /** @description Whether the form takes submissions now */
                            open: boolean;
                            /**
                             * @description Why not, when it does not
                             * @enum {string}
                             */
                            closedReason?: "not_yet_open" | "closed" | "full";
                            closedMessage?: string;
                            opensAt?: string;
                            closesAt?: string;
                            /** @enum {string} */
                            oncePer?: "browser" | "email";
                            /** @description The form asks for a password (X-Form-Password) */
                            passwordRequired: boolean;
                        };
                        /** @description The language of the texts (API.md §13): ?lang= when the form has it, else ui.language */
                        language: string;
                        /** @description Every language the form is written in, ui.language first */
                        languages: string[];
                    };
                };
            };
            /** @description Not modified: the version in If-None-Match is current */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getFormDraft: {
        parameters: {
            query?: {
                /** @description Environment name: ^[a-z0-9_-]{1,50}$, e.g. development or production */
                environment?: string;
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The working copy */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        title: string;
                        environment: string;
                        /** @enum {string} */
                        status: "draft" | "live" | "active" | "disabled" | "archived";
                        version: number;
                        userId: string;
                        fields: {
                            id: string;
                            /** @enum {string} */
                            type: "text" | "email" | "textarea" | "select" | "number" | "checkbox" | "date" | "url" | "phone" | "hidden" | "rating" | "file";
                            label: string;
                            required?: boolean;
                            pii?: boolean;
                            /** @enum {string} */
                            piiMode?: "plain" | "masked" | "hashed" | "encrypted" | "dropped";
                            placeholder?: string;
                            help?: string;
                            options?: (string | {
                                value: string;
                                label: string;
                            })[];
                            multiple?: boolean;
                            /** @enum {string} */
                            display?: "tiles" | "dropdown";
                            minLength?: number;
                            maxLength?: number;
                            pattern?: string;
                            min?: number;
                            max?: number;
                            integer?: boolean;
                            /** @description A file field: files one answer may hold (default 1) */
                            maxFiles?: number;
                            /** @description A file field: the largest file in bytes (default 10 MiB, at most the instance’s FILE_MAX_BYTES) */
                            maxFileSize?: number;
                            /** @description A file field: extensions (".pdf") and media types ("image/*", "application/pdf") a file may have */
                            accept?: string[];
                        }[];
                        /** @description Presentation; members beyond these are kept as given */
                        ui: {
                            /** @enum {string} */
                            theme?: "auto" | "light" | "dark";
                            /** @enum {string} */
                            progress?: "steps" | "bar" | "none";
                            /** @enum {string} */
                            layout?: "one-by-one" | "classic";
                            submitLabel?: string;
                            successMessage?: string;
                            /** Format: uri */
                            redirectUrl?: string;
                            /** @description Shown under the title */
                            description?: string;
                            /** @description BCP 47: the page’s lang (and dir="rtl" for right-to-left scripts) */
                            language?: string;
                            /** @description #rrggbb; at least 4.5:1 against the theme’s background (#ffffff light, #000000 dark; both for auto) */
                            accentColor?: string;
                            /** @description Origins that may frame the page (/f/{formId}?embed=1), such as https://example.com: scheme://host[:port], no path; any site when absent, none when empty */
                            embedOrigins?: string[];
                            /** @description false hides the "Powered by Intake" line at the foot of the hosted page */
                            branding?: boolean;
                        } & {
                            [key: string]: unknown;
                        };
                        storage: {
                            /** @enum {string} */
                            mode?: "owner" | "none";
                            /** @enum {string} */
                            pii?: "plain" | "masked" | "hashed" | "encrypted" | "dropped";
                        };
                        logic: {
                            rules: {
                                when: {
                                    field: string;
                                    /** @enum {string} */
                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                } | {
                                    all: ({
                                        field: string;
                                        /** @enum {string} */
                                        op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                        value?: string | number | boolean | null | (string | number | boolean)[];
                                    } | {
                                        all: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        } | {
                                            any: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        })[];
                                    } | {
                                        any: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        } | {
                                            any: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        })[];
                                    })[];
                                } | {
                                    any: ({
                                        field: string;
                                        /** @enum {string} */
                                        op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                        value?: string | number | boolean | null | (string | number | boolean)[];
                                    } | {
                                        all: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        } | {
                                            any: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        })[];
                                    } | {
                                        any: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        } | {
                                            any: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        })[];
                                    })[];
                                };
                                show?: string[];
                                hide?: string[];
                            }[];
                        };
                        retention: {
                            days: number;
                        } | null;
                        webhooks: {
                            id: string;
                            formId: string;
                            environment: string;
                            event: string;
                            url: string;
                            format: string;
                            enabled: boolean;
                            hasSecret: boolean;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            createdAt: string;
                        }[];
                        notifications: {
                            email: {
                                enabled: boolean;
                                to: string[];
                            };
                        } | null;
                        autoResponse: {
                            enabled: boolean;
                            emailField: string;
                            subject: string;
                            body: string;
                        } | null;
                        spamProtection: {
                            honeypot?: {
                                field: string;
                            };
                            captcha?: {
                                /** @enum {string} */
                                provider: "turnstile" | "hcaptcha" | "recaptcha";
                                siteKey: string;
                                minScore?: number;
                                hasSecret: boolean;
                            };
                            rules?: {
                                field: string;
                                /** @enum {string} */
                                op: "contains" | "matches" | "equals";
                                value: string;
                            }[];
                            /** @enum {string} */
                            action: "reject" | "flag" | "quarantine";
                        } | null;
                        /** @description Texts in other languages by BCP 47 tag (API.md §13); the form’s own are in ui.language. A missing text is shown in that language. */
                        translations: {
                            [key: string]: {
                                title?: string;
                                description?: string;
                                submitLabel?: string;
                                successMessage?: string;
                                closedMessage?: string;
                                fields?: {
                                    [key: string]: {
                                        label?: string;
                                        help?: string;
                                        placeholder?: string;
                                        /** @description An option's label by its value */
                                        options?: {
                                            [key: string]: string;
                                        };
                                    };
                                };
                                autoResponse?: {
                                    subject?: string;
                                    body?: string;
                                };
                            };
                        };
                        access: {
                            /**
                             * Format: date-time
                             * @description Submissions are refused (form_closed) before this moment
                             */
                            opensAt?: string;
                            /**
                             * Format: date-time
                             * @description Submissions are refused (form_closed) from this moment on; later than opensAt
                             */
                            closesAt?: string;
                            /** @description Accepted submissions after which the form closes; never exceeded */
                            maxSubmissions?: number;
                            /** @description What the closed page says */
                            closedMessage?: string;
                            /**
                             * @description browser: a cookie remembers a submission from the hosted page; email: one submission per address in emailField (409 already_submitted)
                             * @enum {string}
                             */
                            oncePer?: "browser" | "email";
                            /** @description A required email field: what oncePer "email" counts by */
                            emailField?: string;
                            hasPassword: boolean;
                        } | null;
                        /** @description The form has a working copy (GET /forms/{id}/draft), not yet published */
                        hasDraft: boolean;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        createdAt: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        updatedAt: string;
                        /** @description The form's version the working copy was made from */
                        draftOf: number;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    saveFormDraft: {
        parameters: {
            query?: {
                /** @description Environment name: ^[a-z0-9_-]{1,50}$, e.g. development or production */
                environment?: string;
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    id?: string;
                    title?: string;
                    fields?: {
                        id: string;
                        /** @enum {string} */
                        type: "text" | "email" | "textarea" | "select" | "number" | "checkbox" | "date" | "url" | "phone" | "hidden" | "rating" | "file";
                        label: string;
                        required?: boolean;
                        pii?: boolean;
                        /** @enum {string} */
                        piiMode?: "plain" | "masked" | "hashed" | "encrypted" | "dropped";
                        placeholder?: string;
                        help?: string;
                        options?: (string | {
                            value: string;
                            label: string;
                        })[];
                        multiple?: boolean;
                        /** @enum {string} */
                        display?: "tiles" | "dropdown";
                        minLength?: number;
                        maxLength?: number;
                        pattern?: string;
                        min?: number;
                        max?: number;
                        integer?: boolean;
                        /** @description A file field: files one answer may hold (default 1) */
                        maxFiles?: number;
                        /** @description A file field: the largest file in bytes (default 10 MiB, at most the instance’s FILE_MAX_BYTES) */
                        maxFileSize?: number;
                        /** @description A file field: extensions (".pdf") and media types ("image/*", "application/pdf") a file may have */
                        accept?: string[];
                    }[];
                    /** @enum {string} */
                    status?: "draft" | "live" | "active" | "disabled" | "archived";
                    /** @description Presentation; members beyond these are kept as given */
                    ui?: {
                        /** @enum {string} */
                        theme?: "auto" | "light" | "dark";
                        /** @enum {string} */
                        progress?: "steps" | "bar" | "none";
                        /** @enum {string} */
                        layout?: "one-by-one" | "classic";
                        submitLabel?: string;
                        successMessage?: string;
                        /** Format: uri */
                        redirectUrl?: string;
                        /** @description Shown under the title */
                        description?: string;
                        /** @description BCP 47: the page’s lang (and dir="rtl" for right-to-left scripts) */
                        language?: string;
                        /** @description #rrggbb; at least 4.5:1 against the theme’s background (#ffffff light, #000000 dark; both for auto) */
                        accentColor?: string;
                        /** @description Origins that may frame the page (/f/{formId}?embed=1), such as https://example.com: scheme://host[:port], no path; any site when absent, none when empty */
                        embedOrigins?: string[];
                        /** @description false hides the "Powered by Intake" line at the foot of the hosted page */
                        branding?: boolean;
                    } & {
                        [key: string]: unknown;
                    };
                    storage?: {
                        /** @enum {string} */
                        mode?: "owner" | "none";
                        /** @enum {string} */
                        pii?: "plain" | "masked" | "hashed" | "encrypted" | "dropped";
                    };
                    logic?: {
                        rules: {
                            when: {
                                field: string;
                                /** @enum {string} */
                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                value?: string | number | boolean | null | (string | number | boolean)[];
                            } | {
                                all: ({
                                    field: string;
                                    /** @enum {string} */
                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                } | {
                                    all: ({
                                        field: string;
                                        /** @enum {string} */
                                        op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                        value?: string | number | boolean | null | (string | number | boolean)[];
                                    } | {
                                        all: {
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        }[];
                                    } | {
                                        any: {
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        }[];
                                    })[];
                                } | {
                                    any: ({
                                        field: string;
                                        /** @enum {string} */
                                        op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                        value?: string | number | boolean | null | (string | number | boolean)[];
                                    } | {
                                        all: {
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        }[];
                                    } | {
                                        any: {
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        }[];
                                    })[];
                                })[];
                            } | {
                                any: ({
                                    field: string;
                                    /** @enum {string} */
                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                } | {
                                    all: ({
                                        field: string;
                                        /** @enum {string} */
                                        op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                        value?: string | number | boolean | null | (string | number | boolean)[];
                                    } | {
                                        all: {
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        }[];
                                    } | {
                                        any: {
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        }[];
                                    })[];
                                } | {
                                    any: ({
                                        field: string;
                                        /** @enum {string} */
                                        op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                        value?: string | number | boolean | null | (string | number | boolean)[];
                                    } | {
                                        all: {
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        }[];
                                    } | {
                                        any: {
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        }[];
                                    })[];
                                })[];
                            };
                            show?: string[];
                            hide?: string[];
                        }[];
                    } | null;
                    retention?: {
                        days: number;
                    } | null;
                    notifications?: {
                        email: {
                            enabled: boolean;
                            to: string[];
                        };
                    } | null;
                    autoResponse?: {
                        enabled: boolean;
                        emailField: string;
                        subject: string;
                        body: string;
                    } | null;
                    spamProtection?: {
                        honeypot?: {
                            field: string;
                        };
                        captcha?: {
                            /** @enum {string} */
                            provider: "turnstile" | "hcaptcha" | "recaptcha";
                            siteKey: string;
                            minScore?: number;
                            secret?: string;
                            /** @description Read-only; ignored on input */
                            hasSecret?: boolean;
                        };
                        rules?: {
                            field: string;
                            /** @enum {string} */
                            op: "contains" | "matches" | "equals";
                            value: string;
                        }[];
                        /** @enum {string} */
                        action: "reject" | "flag" | "quarantine";
                    } | null;
                    webhooks?: {
                        /** @enum {string} */
                        event: "response.created" | "response.updated" | "response.deleted" | "response.partial" | "form.created" | "form.updated" | "form.deleted" | "webhook.test";
                        url: string;
                        secret?: string;
                        /** @enum {string} */
                        format?: "legacy" | "otel";
                        id?: string;
                        formId?: string;
                        environment?: string;
                        enabled?: boolean;
                        hasSecret?: boolean;
                        createdAt?: string;
                    }[];
                    /** @description Texts in other languages by BCP 47 tag (API.md §13); the form’s own are in ui.language. A missing text is shown in that language. */
                    translations?: {
                        [key: string]: {
                            title?: string;
                            description?: string;
                            submitLabel?: string;
                            successMessage?: string;
                            closedMessage?: string;
                            fields?: {
                                [key: string]: {
                                    label?: string;
                                    help?: string;
                                    placeholder?: string;
                                    /** @description An option's label by its value */
                                    options?: {
                                        [key: string]: string;
                                    };
                                };
                            };
                            autoResponse?: {
                                subject?: string;
                                body?: string;
                            };
                        };
                    };
                    access?: {
                        /**
                         * Format: date-time
                         * @description Submissions are refused (form_closed) before this moment
                         */
                        opensAt?: string;
                        /**
                         * Format: date-time
                         * @description Submissions are refused (form_closed) from this moment on; later than opensAt
                         */
                        closesAt?: string;
                        /** @description Accepted submissions after which the form closes; never exceeded */
                        maxSubmissions?: number;
                        /** @description What the closed page says */
                        closedMessage?: string;
                        /**
                         * @description browser: a cookie remembers a submission from the hosted page; email: one submission per address in emailField (409 already_submitted)
                         * @enum {string}
                         */
                        oncePer?: "browser" | "email";
                        /** @description A required email field: what oncePer "email" counts by */
                        emailField?: string;
                        /** @description Write-only, stored hashed: asked for by the hosted page, X-Form-Password on the API. Left out keeps the stored one; null removes it */
                        password?: string | null;
                        /** @description Read-only; ignored on input */
                        hasPassword?: boolean;
                    } | null;
                    environment?: string;
                    userId?: string;
                    version?: unknown;
                    createdAt?: unknown;
                    updatedAt?: unknown;
                    hasDraft?: unknown;
                    draftOf?: unknown;
                };
            };
        };
        responses: {
            /** @description The working copy */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        title: string;
                        environment: string;
                        /** @enum {string} */
                        status: "draft" | "live" | "active" | "disabled" | "archived";
                        version: number;
                        userId: string;
                        fields: {
                            id: string;
                            /** @enum {string} */
                            type: "text" | "email" | "textarea" | "select" | "number" | "checkbox" | "date" | "url" | "phone" | "hidden" | "rating" | "file";
                            label: string;
                            required?: boolean;
                            pii?: boolean;
                            /** @enum {string} */
                            piiMode?: "plain" | "masked" | "hashed" | "encrypted" | "dropped";
                            placeholder?: string;
                            help?: string;
                            options?: (string | {
                                value: string;
                                label: string;
                            })[];
                            multiple?: boolean;
                            /** @enum {string} */
                            display?: "tiles" | "dropdown";
                            minLength?: number;
                            maxLength?: number;
                            pattern?: string;
                            min?: number;
                            max?: number;
                            integer?: boolean;
                            /** @description A file field: files one answer may hold (default 1) */
                            maxFiles?: number;
                            /** @description A file field: the largest file in bytes (default 10 MiB, at most the instance’s FILE_MAX_BYTES) */
                            maxFileSize?: number;
                            /** @description A file field: extensions (".pdf") and media types ("image/*", "application/pdf") a file may have */
                            accept?: string[];
                        }[];
                        /** @description Presentation; members beyond these are kept as given */
                        ui: {
                            /** @enum {string} */
                            theme?: "auto" | "light" | "dark";
                            /** @enum {string} */
                            progress?: "steps" | "bar" | "none";
                            /** @enum {string} */
                            layout?: "one-by-one" | "classic";
                            submitLabel?: string;
                            successMessage?: string;
                            /** Format: uri */
                            redirectUrl?: string;
                            /** @description Shown under the title */
                            description?: string;
                            /** @description BCP 47: the page’s lang (and dir="rtl" for right-to-left scripts) */
                            language?: string;
                            /** @description #rrggbb; at least 4.5:1 against the theme’s background (#ffffff light, #000000 dark; both for auto) */
                            accentColor?: string;
                            /** @description Origins that may frame the page (/f/{formId}?embed=1), such as https://example.com: scheme://host[:port], no path; any site when absent, none when empty */
                            embedOrigins?: string[];
                            /** @description false hides the "Powered by Intake" line at the foot of the hosted page */
                            branding?: boolean;
                        } & {
                            [key: string]: unknown;
                        };
                        storage: {
                            /** @enum {string} */
                            mode?: "owner" | "none";
                            /** @enum {string} */
                            pii?: "plain" | "masked" | "hashed" | "encrypted" | "dropped";
                        };
                        logic: {
                            rules: {
                                when: {
                                    field: string;
                                    /** @enum {string} */
                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                } | {
                                    all: ({
                                        field: string;
                                        /** @enum {string} */
                                        op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                        value?: string | number | boolean | null | (string | number | boolean)[];
                                    } | {
                                        all: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        } | {
                                            any: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        })[];
                                    } | {
                                        any: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        } | {
                                            any: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        })[];
                                    })[];
                                } | {
                                    any: ({
                                        field: string;
                                        /** @enum {string} */
                                        op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                        value?: string | number | boolean | null | (string | number | boolean)[];
                                    } | {
                                        all: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        } | {
                                            any: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        })[];
                                    } | {
                                        any: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        } | {
                                            any: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        })[];
                                    })[];
                                };
                                show?: string[];
                                hide?: string[];
                            }[];
                        };
                        retention: {
                            days: number;
                        } | null;
                        webhooks: {
                            id: string;
                            formId: string;
                            environment: string;
                            event: string;
                            url: string;
                            format: string;
                            enabled: boolean;
                            hasSecret: boolean;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            createdAt: string;
                        }[];
                        notifications: {
                            email: {
                                enabled: boolean;
                                to: string[];
                            };
                        } | null;
                        autoResponse: {
                            enabled: boolean;
                            emailField: string;
                            subject: string;
                            body: string;
                        } | null;
                        spamProtection: {
                            honeypot?: {
                                field: string;
                            };
                            captcha?: {
                                /** @enum {string} */
                                provider: "turnstile" | "hcaptcha" | "recaptcha";
                                siteKey: string;
                                minScore?: number;
                                hasSecret: boolean;
                            };
                            rules?: {
                                field: string;
                                /** @enum {string} */
                                op: "contains" | "matches" | "equals";
                                value: string;
                            }[];
                            /** @enum {string} */
                            action: "reject" | "flag" | "quarantine";
                        } | null;
                        /** @description Texts in other languages by BCP 47 tag (API.md §13); the form’s own are in ui.language. A missing text is shown in that language. */
                        translations: {
                            [key: string]: {
                                title?: string;
                                description?: string;
                                submitLabel?: string;
                                successMessage?: string;
                                closedMessage?: string;
                                fields?: {
                                    [key: string]: {
                                        label?: string;
                                        help?: string;
                                        placeholder?: string;
                                        /** @description An option's label by its value */
                                        options?: {
                                            [key: string]: string;
                                        };
                                    };
                                };
                                autoResponse?: {
                                    subject?: string;
                                    body?: string;
                                };
                            };
                        };
                        access: {
                            /**
                             * Format: date-time
                             * @description Submissions are refused (form_closed) before this moment
                             */
                            opensAt?: string;
                            /**
                             * Format: date-time
                             * @description Submissions are refused (form_closed) from this moment on; later than opensAt
                             */
                            closesAt?: string;
                            /** @description Accepted submissions after which the form closes; never exceeded */
                            maxSubmissions?: number;
                            /** @description What the closed page says */
                            closedMessage?: string;
                            /**
                             * @description browser: a cookie remembers a submission from the hosted page; email: one submission per address in emailField (409 already_submitted)
                             * @enum {string}
                             */
                            oncePer?: "browser" | "email";
                            /** @description A required email field: what oncePer "email" counts by */
                            emailField?: string;
                            hasPassword: boolean;
                        } | null;
                        /** @description The form has a working copy (GET /forms/{id}/draft), not yet published */
                        hasDraft: boolean;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        createdAt: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        updatedAt: string;
                        /** @description The form's version the working copy was made from */
                        draftOf: number;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    discardFormDraft: {
        parameters: {
            query?: {
                /** @description Environment name: ^[a-z0-9_-]{1,50}$, e.g. development or production */
                environment?: string;
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Discarded */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    publishFormDraft: {
        parameters: {
            query?: {
                /** @description Environment name: ^[a-z0-9_-]{1,50}$, e.g. development or production */
                environment?: string;
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description The ETag of the form read: if it has changed since, the answer is 412 */
                "If-Match"?: string;
                /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The form, as respondents now get it */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        title: string;
                        environment: string;
                        /** @enum {string} */
                        status: "draft" | "live" | "active" | "disabled" | "archived";
                        version: number;
                        userId: string;
                        fields: {
                            id: string;
                            /** @enum {string} */
                            type: "text" | "email" | "textarea" | "select" | "number" | "checkbox" | "date" | "url" | "phone" | "hidden" | "rating" | "file";
                            label: string;
                            required?: boolean;
                            pii?: boolean;
                            /** @enum {string} */
                            piiMode?: "plain" | "masked" | "hashed" | "encrypted" | "dropped";
                            placeholder?: string;
                            help?: string;
                            options?: (string | {
                                value: string;
                                label: string;
                            })[];
                            multiple?: boolean;
                            /** @enum {string} */
                            display?: "tiles" | "dropdown";
                            minLength?: number;
                            maxLength?: number;
                            pattern?: string;
                            min?: number;
                            max?: number;
                            integer?: boolean;
                            /** @description A file field: files one answer may hold (default 1) */
                            maxFiles?: number;
                            /** @description A file field: the largest file in bytes (default 10 MiB, at most the instance’s FILE_MAX_BYTES) */
                            maxFileSize?: number;
                            /** @description A file field: extensions (".pdf") and media types ("image/*", "application/pdf") a file may have */
                            accept?: string[];
                        }[];
                        /** @description Presentation; members beyond these are kept as given */
                        ui: {
                            /** @enum {string} */
                            theme?: "auto" | "light" | "dark";
                            /** @enum {string} */
                            progress?: "steps" | "bar" | "none";
                            /** @enum {string} */
                            layout?: "one-by-one" | "classic";
                            submitLabel?: string;
                            successMessage?: string;
                            /** Format: uri */
                            redirectUrl?: string;
                            /** @description Shown under the title */
                            description?: string;
                            /** @description BCP 47: the page’s lang (and dir="rtl" for right-to-left scripts) */
                            language?: string;
                            /** @description #rrggbb; at least 4.5:1 against the theme’s background (#ffffff light, #000000 dark; both for auto) */
                            accentColor?: string;
                            /** @description Origins that may frame the page (/f/{formId}?embed=1), such as https://example.com: scheme://host[:port], no path; any site when absent, none when empty */
                            embedOrigins?: string[];
                            /** @description false hides the "Powered by Intake" line at the foot of the hosted page */
                            branding?: boolean;
                        } & {
                            [key: string]: unknown;
                        };
                        storage: {
                            /** @enum {string} */
                            mode?: "owner" | "none";
                            /** @enum {string} */
                            pii?: "plain" | "masked" | "hashed" | "encrypted" | "dropped";
                        };
                        logic: {
                            rules: {
                                when: {
                                    field: string;
                                    /** @enum {string} */
                                    op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                    value?: string | number | boolean | null | (string | number | boolean)[];
                                } | {
                                    all: ({
                                        field: string;
                                        /** @enum {string} */
                                        op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                        value?: string | number | boolean | null | (string | number | boolean)[];
                                    } | {
                                        all: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        } | {
                                            any: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        })[];
                                    } | {
                                        any: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        } | {
                                            any: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        })[];
                                    })[];
                                } | {
                                    any: ({
                                        field: string;
                                        /** @enum {string} */
                                        op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                        value?: string | number | boolean | null | (string | number | boolean)[];
                                    } | {
                                        all: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        } | {
                                            any: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        })[];
                                    } | {
                                        any: ({
                                            field: string;
                                            /** @enum {string} */
                                            op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                            value?: string | number | boolean | null | (string | number | boolean)[];
                                        } | {
                                            all: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        } | {
                                            any: {
                                                field: string;
                                                /** @enum {string} */
                                                op: "equals" | "notEquals" | "contains" | "notContains" | "gt" | "gte" | "lt" | "lte" | "in" | "isEmpty" | "isNotEmpty";
                                                value?: string | number | boolean | null | (string | number | boolean)[];
                                            }[];
                                        })[];
                                    })[];
                                };
                                show?: string[];
                                hide?: string[];
                            }[];
                        };
                        retention: {
                            days: number;
                        } | null;
                        webhooks: {
                            id: string;
                            formId: string;
                            environment: string;
                            event: string;
                            url: string;
                            format: string;
                            enabled: boolean;
                            hasSecret: boolean;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            createdAt: string;
                        }[];
                        notifications: {
                            email: {
                                enabled: boolean;
                                to: string[];
                            };
                        } | null;
                        autoResponse: {
                            enabled: boolean;
                            emailField: string;
                            subject: string;
                            body: string;
                        } | null;
                        spamProtection: {
                            honeypot?: {
                                field: string;
                            };
                            captcha?: {
                                /** @enum {string} */
                                provider: "turnstile" | "hcaptcha" | "recaptcha";
                                siteKey: string;
                                minScore?: number;
                                hasSecret: boolean;
                            };
                            rules?: {
                                field: string;
                                /** @enum {string} */
                                op: "contains" | "matches" | "equals";
                                value: string;
                            }[];
                            /** @enum {string} */
                            action: "reject" | "flag" | "quarantine";
                        } | null;
                        /** @description Texts in other languages by BCP 47 tag (API.md §13); the form’s own are in ui.language. A missing text is shown in that language. */
                        translations: {
                            [key: string]: {
                                title?: string;
                                description?: string;
                                submitLabel?: string;
                                successMessage?: string;
                                closedMessage?: string;
                                fields?: {
                                    [key: string]: {
                                        label?: string;
                                        help?: string;
                                        placeholder?: string;
                                        /** @description An option's label by its value */
                                        options?: {
                                            [key: string]: string;
                                        };
                                    };
                                };
                                autoResponse?: {
                                    subject?: string;
                                    body?: string;
                                };
                            };
                        };
                        access: {
                            /**
                             * Format: date-time
                             * @description Submissions are refused (form_closed) before this moment
                             */
                            opensAt?: string;
                            /**
                             * Format: date-time
                             * @description Submissions are refused (form_closed) from this moment on; later than opensAt
                             */
                            closesAt?: string;
                            /** @description Accepted submissions after which the form closes; never exceeded */
                            maxSubmissions?: number;
                            /** @description What the closed page says */
                            closedMessage?: string;
                            /**
                             * @description browser: a cookie remembers a submission from the hosted page; email: one submission per address in emailField (409 already_submitted)
                             * @enum {string}
                             */
                            oncePer?: "browser" | "email";
                            /** @description A required email field: what oncePer "email" counts by */
                            emailField?: string;
                            hasPassword: boolean;
                        } | null;
                        /** @description The form has a working copy (GET /forms/{id}/draft), not yet published */
                        hasDraft: boolean;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        createdAt: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        updatedAt: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getFormQrCode: {
        parameters: {
            query?: {
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The QR code, dark on white, with a quiet zone */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "image/svg+xml": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    submitForm: {
        parameters: {
            query?: {
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description Makes retries safe: the same key and body within 24 h answers the first result and stores nothing new (1 to 255 printable ASCII characters) */
                "Idempotency-Key"?: string;
                /** @description The same as Idempotency-Key */
                "X-Idempotency-Key"?: string;
                /** @description The form’s password (API.md §15 access.password): missing or wrong is 401 password_required; a secret key needs none */
                "X-Form-Password"?: string;
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description fieldId → value */
                    answers: {
                        [key: string]: unknown;
                    };
                    sessionId?: string;
                    captchaToken?: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description Where to send the browser once stored: a page on the origin of the form’s ui.redirectUrl */
                    _redirect?: string;
                    /** @description The session id (sessionId of a JSON submission) */
                    _session?: string;
                    /** @description The CAPTCHA token (captchaToken of a JSON submission) */
                    _captcha?: string;
                    /** @description The CAPTCHA token, under the name its provider’s widget gives it */
                    "cf-turnstile-response"?: string;
                    /** @description The CAPTCHA token, under the name its provider’s widget gives it */
                    "h-captcha-response"?: string;
                    /** @description The CAPTCHA token, under the name its provider’s widget gives it */
                    "g-recaptcha-response"?: string;
                } & {
                    [key: string]: string | string[];
                };
                "multipart/form-data": {
                    /** @description Where to send the browser once stored: a page on the origin of the form’s ui.redirectUrl */
                    _redirect?: string;
                    /** @description The session id (sessionId of a JSON submission) */
                    _session?: string;
                    /** @description The CAPTCHA token (captchaToken of a JSON submission) */
                    _captcha?: string;
                    /** @description The CAPTCHA token, under the name its provider’s widget gives it */
                    "cf-turnstile-response"?: string;
                    /** @description The CAPTCHA token, under the name its provider’s widget gives it */
                    "h-captcha-response"?: string;
                    /** @description The CAPTCHA token, under the name its provider’s widget gives it */
                    "g-recaptcha-response"?: string;
                } & {
                    [key: string]: string | string[];
                };
            };
        };
        responses: {
            /** @description Stored (or the first result of this Idempotency-Key); a form post gets the thank-you page */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        formId: string;
                        environment: string;
                        /** @enum {string} */
                        status: "accepted" | "flagged" | "quarantined" | "partial";
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        createdAt: string;
                    };
                    "text/html": string;
                };
            };
            /** @description A form post with `_redirect` or `ui.redirectUrl`: stored; go to that page */
            303: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Location: components["headers"]["Location"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is invalid: malformed JSON (invalid_json), a path or query parameter (invalid_parameter, invalid_environment) or a body (validation_failed, invalid_form…) that breaks the rules; `errors` lists every failing member */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/html": string;
                };
            };
            /** @description A credential is needed and none was sent, or the one sent is not valid (unknown, revoked, expired): never treated as anonymous */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "Set-Cookie": components["headers"]["Set-Cookie"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/html": string;
                };
            };
            /** @description The credential may not do this (another user’s resource, a key of another environment, a publishable key), or a session cookie without its X-CSRF-Token or from another origin */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/html": string;
                };
            };
            /** @description No such resource (or not one the caller may know of) */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/html": string;
                };
            };
            /** @description The request conflicts with the current state */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/html": string;
                };
            };
            /** @description The body is larger than 1 MiB (payload_too_large) */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/html": string;
                };
            };
            415: components["responses"]["UnsupportedMediaType"];
            /** @description A rate limit (rate_limited) or the monthly quota (quota_exceeded) is used up */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/html": string;
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listResponses: {
        parameters: {
            query?: {
                form_id?: string;
                /** @description Environment name: ^[a-z0-9_-]{1,50}$, e.g. development or production */
                environment?: string;
                limit?: number;
                cursor?: string;
                from?: string;
                to?: string;
                status?: "accepted" | "flagged" | "quarantined" | "partial";
                starred?: boolean;
                read?: boolean;
                /** @description csv, xlsx or ndjson: every matching response as a download; absent: a page of JSON */
                format?: string;
                /** @description format=csv or xlsx: head the field columns with their ids (default) or their labels */
                headers?: "ids" | "labels";
                /** @description format=csv: start the file with a UTF-8 byte-order mark (Excel reads é right) */
                bom?: "1" | "0" | "true" | "false";
                /** @description format=csv or xlsx: add a `notes` column, each response's notes oldest first */
                notes?: "1" | "0" | "true" | "false";
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of submissions; with format=csv, xlsx or ndjson every matching one, as that file */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Content-Disposition": components["headers"]["Content-Disposition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: string;
                            formId: string;
                            environment: string;
                            answers: {
                                [key: string]: string | number | boolean | string[] | {
                                    /** @description fil_…; absent for a hashed file (no bytes kept) */
                                    id?: string;
                                    /** @description The original name (masked under PII masked; sha256:… under hashed) */
                                    name: string;
                                    /** @description The type read from the bytes */
                                    type?: string;
                                    size: number;
                                    sha256: string;
                                    /** @description A signed link, GET /files/{token}: no credential needed; expires (FILE_LINK_TTL_S) */
                                    url?: string;
                                }[];
                            };
                            sessionId: string | null;
                            /** @enum {string} */
                            status: "accepted" | "flagged" | "quarantined" | "partial";
                            read: boolean;
                            starred: boolean;
                            /** @description The language the form was shown in (a BCP 47 tag); null for submissions stored before Intake kept it */
                            language: string | null;
                            notes: {
                                id: string;
                                text: string;
                                /**
                                 * Format: date-time
                                 * @example 2026-11-21T10:02:06.123Z
                                 */
                                createdAt: string;
                                /** @description Who wrote it; null for notes written before Intake kept authors */
                                author: {
                                    userId: string;
                                    /** @description Their address when they wrote the note */
                                    email: string;
                                    /** @description Written with this API key (made by the member named) */
                                    keyId?: string;
                                } | null;
                            }[];
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            createdAt: string;
                        }[];
                        nextCursor: string | null;
                    };
                    "text/csv": string;
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": string;
                    "application/x-ndjson": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listEnvironmentResponses: {
        parameters: {
            query?: {
                form_id?: string;
                limit?: number;
                cursor?: string;
                from?: string;
                to?: string;
                status?: "accepted" | "flagged" | "quarantined" | "partial";
                starred?: boolean;
                read?: boolean;
                /** @description csv, xlsx or ndjson: every matching response as a download; absent: a page of JSON */
                format?: string;
                /** @description format=csv or xlsx: head the field columns with their ids (default) or their labels */
                headers?: "ids" | "labels";
                /** @description format=csv: start the file with a UTF-8 byte-order mark (Excel reads é right) */
                bom?: "1" | "0" | "true" | "false";
                /** @description format=csv or xlsx: add a `notes` column, each response's notes oldest first */
                notes?: "1" | "0" | "true" | "false";
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                environment: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description As GET /responses answers */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    "Content-Disposition": components["headers"]["Content-Disposition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: string;
                            formId: string;
                            environment: string;
                            answers: {
                                [key: string]: string | number | boolean | string[] | {
                                    /** @description fil_…; absent for a hashed file (no bytes kept) */
                                    id?: string;
                                    /** @description The original name (masked under PII masked; sha256:… under hashed) */
                                    name: string;
                                    /** @description The type read from the bytes */
                                    type?: string;
                                    size: number;
                                    sha256: string;
                                    /** @description A signed link, GET /files/{token}: no credential needed; expires (FILE_LINK_TTL_S) */
                                    url?: string;
                                }[];
                            };
                            sessionId: string | null;
                            /** @enum {string} */
                            status: "accepted" | "flagged" | "quarantined" | "partial";
                            read: boolean;
                            starred: boolean;
                            /** @description The language the form was shown in (a BCP 47 tag); null for submissions stored before Intake kept it */
                            language: string | null;
                            notes: {
                                id: string;
                                text: string;
                                /**
                                 * Format: date-time
                                 * @example 2026-11-21T10:02:06.123Z
                                 */
                                createdAt: string;
                                /** @description Who wrote it; null for notes written before Intake kept authors */
                                author: {
                                    userId: string;
                                    /** @description Their address when they wrote the note */
                                    email: string;
                                    /** @description Written with this API key (made by the member named) */
                                    keyId?: string;
                                } | null;
                            }[];
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            createdAt: string;
                        }[];
                        nextCursor: string | null;
                    };
                    "text/csv": string;
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": string;
                    "application/x-ndjson": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getResponse: {
        parameters: {
            query?: {
                form_id?: string;
                /** @description Environment name: ^[a-z0-9_-]{1,50}$, e.g. development or production */
                environment?: string;
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        formId: string;
                        environment: string;
                        answers: {
                            [key: string]: string | number | boolean | string[] | {
                                /** @description fil_…; absent for a hashed file (no bytes kept) */
                                id?: string;
                                /** @description The original name (masked under PII masked; sha256:… under hashed) */
                                name: string;
                                /** @description The type read from the bytes */
                                type?: string;
                                size: number;
                                sha256: string;
                                /** @description A signed link, GET /files/{token}: no credential needed; expires (FILE_LINK_TTL_S) */
                                url?: string;
                            }[];
                        };
                        sessionId: string | null;
                        /** @enum {string} */
                        status: "accepted" | "flagged" | "quarantined" | "partial";
                        read: boolean;
                        starred: boolean;
                        /** @description The language the form was shown in (a BCP 47 tag); null for submissions stored before Intake kept it */
                        language: string | null;
                        notes: {
                            id: string;
                            text: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            createdAt: string;
                            /** @description Who wrote it; null for notes written before Intake kept authors */
                            author: {
                                userId: string;
                                /** @description Their address when they wrote the note */
                                email: string;
                                /** @description Written with this API key (made by the member named) */
                                keyId?: string;
                            } | null;
                        }[];
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        createdAt: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteResponse: {
        parameters: {
            query?: {
                form_id?: string;
                /** @description Environment name: ^[a-z0-9_-]{1,50}$, e.g. development or production */
                environment?: string;
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    markResponseRead: {
        parameters: {
            query?: {
                form_id?: string;
                /** @description Environment name: ^[a-z0-9_-]{1,50}$, e.g. development or production */
                environment?: string;
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    read?: boolean;
                } | null;
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        formId: string;
                        environment: string;
                        answers: {
                            [key: string]: string | number | boolean | string[] | {
                                /** @description fil_…; absent for a hashed file (no bytes kept) */
                                id?: string;
                                /** @description The original name (masked under PII masked; sha256:… under hashed) */
                                name: string;
                                /** @description The type read from the bytes */
                                type?: string;
                                size: number;
                                sha256: string;
                                /** @description A signed link, GET /files/{token}: no credential needed; expires (FILE_LINK_TTL_S) */
                                url?: string;
                            }[];
                        };
                        sessionId: string | null;
                        /** @enum {string} */
                        status: "accepted" | "flagged" | "quarantined" | "partial";
                        read: boolean;
                        starred: boolean;
                        /** @description The language the form was shown in (a BCP 47 tag); null for submissions stored before Intake kept it */
                        language: string | null;
                        notes: {
                            id: string;
                            text: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            createdAt: string;
                            /** @description Who wrote it; null for notes written before Intake kept authors */
                            author: {
                                userId: string;
                                /** @description Their address when they wrote the note */
                                email: string;
                                /** @description Written with this API key (made by the member named) */
                                keyId?: string;
                            } | null;
                        }[];
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        createdAt: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    starResponse: {
        parameters: {
            query?: {
                form_id?: string;
                /** @description Environment name: ^[a-z0-9_-]{1,50}$, e.g. development or production */
                environment?: string;
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    starred: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        formId: string;
                        environment: string;
                        answers: {
                            [key: string]: string | number | boolean | string[] | {
                                /** @description fil_…; absent for a hashed file (no bytes kept) */
                                id?: string;
                                /** @description The original name (masked under PII masked; sha256:… under hashed) */
                                name: string;
                                /** @description The type read from the bytes */
                                type?: string;
                                size: number;
                                sha256: string;
                                /** @description A signed link, GET /files/{token}: no credential needed; expires (FILE_LINK_TTL_S) */
                                url?: string;
                            }[];
                        };
                        sessionId: string | null;
                        /** @enum {string} */
                        status: "accepted" | "flagged" | "quarantined" | "partial";
                        read: boolean;
                        starred: boolean;
                        /** @description The language the form was shown in (a BCP 47 tag); null for submissions stored before Intake kept it */
                        language: string | null;
                        notes: {
                            id: string;
                            text: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            createdAt: string;
                            /** @description Who wrote it; null for notes written before Intake kept authors */
                            author: {
                                userId: string;
                                /** @description Their address when they wrote the note */
                                email: string;
                                /** @description Written with this API key (made by the member named) */
                                keyId?: string;
                            } | null;
                        }[];
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        createdAt: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    addResponseNote: {
        parameters: {
            query?: {
                form_id?: string;
                /** @description Environment name: ^[a-z0-9_-]{1,50}$, e.g. development or production */
                environment?: string;
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    text: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        formId: string;
                        environment: string;
                        answers: {
                            [key: string]: string | number | boolean | string[] | {
                                /** @description fil_…; absent for a hashed file (no bytes kept) */
                                id?: string;
                                /** @description The original name (masked under PII masked; sha256:… under hashed) */
                                name: string;
                                /** @description The type read from the bytes */
                                type?: string;
                                size: number;
                                sha256: string;
                                /** @description A signed link, GET /files/{token}: no credential needed; expires (FILE_LINK_TTL_S) */
                                url?: string;
                            }[];
                        };
                        sessionId: string | null;
                        /** @enum {string} */
                        status: "accepted" | "flagged" | "quarantined" | "partial";
                        read: boolean;
                        starred: boolean;
                        /** @description The language the form was shown in (a BCP 47 tag); null for submissions stored before Intake kept it */
                        language: string | null;
                        notes: {
                            id: string;
                            text: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:02:06.123Z
                             */
                            createdAt: string;
                            /** @description Who wrote it; null for notes written before Intake kept authors */
                            author: {
                                userId: string;
                                /** @description Their address when they wrote the note */
                                email: string;
                                /** @description Written with this API key (made by the member named) */
                                keyId?: string;
                            } | null;
                        }[];
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        createdAt: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getResponseFile: {
        parameters: {
            query?: {
                form_id?: string;
                /** @description Environment name: ^[a-z0-9_-]{1,50}$, e.g. development or production */
                environment?: string;
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                id: string;
                fileId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Content-Disposition": components["headers"]["Content-Disposition"];
                    [name: string]: unknown;
                };
                content: {
                    "*/*": string;
                };
            };
            /** @description The byte range asked for */
            206: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Content-Disposition": components["headers"]["Content-Disposition"];
                    [name: string]: unknown;
                };
                content: {
                    "*/*": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    replyToResponse: {
        parameters: {
            query?: {
                form_id?: string;
                /** @description Environment name: ^[a-z0-9_-]{1,50}$, e.g. development or production */
                environment?: string;
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description With the session cookie (not with a bearer token or key): the `csrfToken` of log-in or GET /auth/me; without it a change is 403 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    subject?: string;
                    message: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The Message-ID of the e-mail sent */
                        messageId: string;
                        /** @description The recipient, shown as the owner may see it (masked if the field is masked) */
                        to: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    summarizeResponses: {
        parameters: {
            query?: {
                /** @description Environment name: ^[a-z0-9_-]{1,50}$, e.g. development or production */
                environment?: string;
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            formId: string;
                            submissions: number;
                            unread: number;
                            lastSubmissionAt: string | null;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    recordFormEvent: {
        parameters: {
            query?: {
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                formId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description view: the form was shown; start: the visitor began filling it in */
                    type: "view" | "start";
                    /** @description The visitor's session: each type counts once per session and form (1-128 visible ASCII) */
                    sessionId: string;
                };
            };
        };
        responses: {
            /** @description Recorded (or already counted for this session); no body */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAnalytics: {
        parameters: {
            query?: {
                /** @description Environment name: ^[a-z0-9_-]{1,50}$, e.g. development or production */
                environment?: string;
                /** @description Only this form */
                form_id?: string;
                /** @description ISO 8601 date or date-time, inclusive (default: 29 days before to, at 00:00 UTC) */
                from?: string;
                /** @description ISO 8601 date or date-time, inclusive; a date covers its whole day (default: end of today, UTC) */
                to?: string;
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        environment: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        from: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        to: string;
                        totals: {
                            views: number;
                            starts: number;
                            /** @description Accepted and flagged submissions (what reached the inbox) */
                            submissions: number;
                            flagged: number;
                            quarantined: number;
                            /** @description submissions / starts, to four decimals; null when there were no starts */
                            completionRate: number | null;
                            /** @description Bytes the files of the environment (of the form, with form_id) take in storage now, whatever the range (API.md §12) */
                            storageBytes: number;
                        };
                        forms: {
                            formId: string;
                            title: string;
                            views: number;
                            starts: number;
                            /** @description Accepted and flagged submissions (what reached the inbox) */
                            submissions: number;
                            flagged: number;
                            quarantined: number;
                            /** @description submissions / starts, to four decimals; null when there were no starts */
                            completionRate: number | null;
                        }[];
                        daily: {
                            /**
                             * Format: date
                             * @description A UTC day, YYYY-MM-DD
                             */
                            date: string;
                            views: number;
                            starts: number;
                            submissions: number;
                        }[];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getQuestionAnalytics: {
        parameters: {
            query?: {
                /** @description Environment name: ^[a-z0-9_-]{1,50}$, e.g. development or production */
                environment?: string;
                /** @description The form (required) */
                form_id?: string;
                /** @description ISO 8601 date or date-time, inclusive (default: 29 days before to, at 00:00 UTC) */
                from?: string;
                /** @description ISO 8601 date or date-time, inclusive; a date covers its whole day (default: end of today, UTC) */
                to?: string;
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        formId: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        from: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        to: string;
                        /** @description Accepted and flagged responses in the range (quarantined ones are left out) */
                        responses: number;
                        /** @description One per field, in the form's order */
                        questions: {
                            fieldId: string;
                            label: string;
                            /** @description The field's type (API.md §5.1) */
                            type: string;
                            /** @description Responses with an answer to it (not empty; a checkbox left unticked is an answer, No). A field kept hashed, encrypted, masked or dropped counts as answered all the same (a dropped answer is stored as a marker holding nothing of it); answers stored before 2026-12-07 under dropped left no marker and are not counted */
                            answered: number;
                            /**
                             * @description Present when the answers are personal data kept this way: no values are shown, only `answered`
                             * @enum {string}
                             */
                            withheld?: "masked" | "hashed" | "encrypted" | "dropped";
                            /** @description select and checkbox: each option in the form's order with how many chose it (a checkbox: Yes `true`, No `false`); values no longer among the options follow */
                            options?: {
                                value: string;
                                label: string;
                                count: number;
                            }[];
                            /** @description number and rating: the mean; null when none answered */
                            mean?: number | null;
                            /** @description number and rating: the median; null when none answered */
                            median?: number | null;
                            /** @description number and rating: the lowest answer; null when none answered */
                            min?: number | null;
                            /** @description number and rating: the highest answer; null when none answered */
                            max?: number | null;
                            /** @description number and rating: buckets in order, from ≤ value < to (the last includes to); from = to is one value. A rating has one per value of its scale; whole numbers spanning at most 20 values one per value; else at most 10 of a round width */
                            distribution?: {
                                from: number;
                                to: number;
                                count: number;
                            }[];
                        }[];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getDropOff: {
        parameters: {
            query?: {
                /** @description Environment name: ^[a-z0-9_-]{1,50}$, e.g. development or production */
                environment?: string;
                /** @description The form (required) */
                form_id?: string;
                /** @description ISO 8601 date or date-time, inclusive (default: 29 days before to, at 00:00 UTC) */
                from?: string;
                /** @description ISO 8601 date or date-time, inclusive; a date covers its whole day (default: end of today, UTC) */
                to?: string;
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        formId: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        from: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        to: string;
                        /**
                         * @description How the form is shown now: one-by-one counts from the hosted page’s steps; classic (one page) counts its views and submissions
                         * @enum {string}
                         */
                        layout: "one-by-one" | "classic";
                        /** @description Sessions that reached any question within the range (a view, or a page sent) */
                        sessions: number;
                        /** @description Of them, those whose session stored a submission (accepted, flagged or quarantined) */
                        completed: number;
                        /** @description One per question (every field but hidden ones), in the form's page order; each session counted once per question */
                        questions: {
                            fieldId: string;
                            label: string;
                            /** @description Sessions that reached the question */
                            reached: number;
                            /** @description Sessions that answered it: one-by-one, a non-blank answer (a ticked box) that Next or the submission accepted; classic, the sessions that sent the page */
                            answered: number;
                            /** @description Sessions that did not complete the form whose furthest question is this one (classic: all on the first question) */
                            leftHere: number;
                        }[];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getEnvironmentAnalytics: {
        parameters: {
            query?: {
                /** @description Only this form */
                form_id?: string;
                /** @description ISO 8601 date or date-time, inclusive (default: 29 days before to, at 00:00 UTC) */
                from?: string;
                /** @description ISO 8601 date or date-time, inclusive; a date covers its whole day (default: end of today, UTC) */
                to?: string;
                /** @description The same as `X-Intake-Workspace`, for links; the header wins when both are sent */
                workspace?: components["parameters"]["WorkspaceQuery"];
            };
            header?: {
                /** @description The workspace a session acts in (API.md §14); without it (or `?workspace=`), the personal one. One the user is no member of is 403, a malformed id 404. A key works in its own workspace only */
                "X-Intake-Workspace"?: components["parameters"]["WorkspaceHeader"];
            };
            path: {
                environment: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The counts, as GET /analytics gives them */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        environment: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        from: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-21T10:02:06.123Z
                         */
                        to: string;
                        totals: {
                            views: number;
                            starts: number;
                            /** @description Accepted and flagged submissions (what reached the inbox) */
                            submissions: number;
                            flagged: number;
                            quarantined: number;
                            /** @description submissions / starts, to four decimals; null when there were no starts */
                            completionRate: number | null;
                            /** @description Bytes the files of the environment (of the form, with form_id) take in storage now, whatever the range (API.md §12) */
                            storageBytes: number;
                        };
                        forms: {
                            formId: string;
                            title: string;
                            views: number;
                            starts: number;
                            /** @description Accepted and flagged submissions (what reached the inbox) */
                            submissions: number;
                            flagged: number;
                            quarantined: number;
                            /** @description submissions / starts, to four decimals; null when there were no starts */
                            completionRate: number | null;
                        }[];
                        daily: {
                            /**
                             * Format: date
                             * @description A UTC day, YYYY-MM-DD
                             */
                            date: string;
                            views: number;
                            starts: number;
                            submissions: number;
                        }[];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
