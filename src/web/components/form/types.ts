/**
 * TODO(form contract, issue 19): the dashboard's builder (client/dashboard/views/builder.tsx,
 * client/dashboard/builder/preview.tsx) still imports `PublicForm` from here. Once they import
 * `PageForm` from shared/form.ts, delete this file and its entry in test/support/imports.ts
 * (`FORM_SHAPE_ALLOWED_TODO`). Nothing else may import it.
 */
export type { PageForm as PublicForm } from '../../../shared/form.js';
