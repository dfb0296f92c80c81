import type { Migration } from 'kysely';
import * as m001 from './001-accounts-environments-keys-forms.js';
import * as m002 from './002-webhooks.js';
import * as m003 from './003-submissions-outbox-usage.js';
import * as m004 from './004-webhook-deliveries.js';
import * as m005 from './005-analytics.js';
import * as m006 from './006-webhook-delivery-retention.js';
import * as m007 from './007-password-resets.js';
import * as m008 from './008-submission-summary.js';
import * as m009 from './009-submission-summary-covering.js';
import * as m010 from './010-form-working-copies.js';
import * as m011 from './011-files.js';
import * as m012 from './012-workspaces.js';
import * as m013 from './013-submission-language.js';
import * as m014 from './014-invitations-audit-note-authors.js';
import * as m015 from './015-response-controls.js';
import * as m016 from './016-saved-progress.js';
import * as m017 from './017-form-steps.js';
import * as m018 from './018-submissions-list-session.js';
import * as m019 from './019-form-counters.js';
import * as m020 from './020-response-address-log.js';
import * as m021 from './021-completed-progress.js';
import * as m022 from './022-address-claims-unbound.js';
import * as m023 from './023-address-log-kept.js';

/** Every migration, in order. Names are stored in the database: never rename one. */
export const migrations: Record<string, Migration> = {
  '001-accounts-environments-keys-forms': m001,
  '002-webhooks': m002,
  '003-submissions-outbox-usage': m003,
  '004-webhook-deliveries': m004,
  '005-analytics': m005,
  '006-webhook-delivery-retention': m006,
  '007-password-resets': m007,
  '008-submission-summary': m008,
  '009-submission-summary-covering': m009,
  '010-form-working-copies': m010,
  '011-files': m011,
  '012-workspaces': m012,
  '013-submission-language': m013,
  '014-invitations-audit-note-authors': m014,
  '015-response-controls': m015,
  '016-saved-progress': m016,
  '017-form-steps': m017,
  '018-submissions-list-session': m018,
  '019-form-counters': m019,
  '020-response-address-log': m020,
  '021-completed-progress': m021,
  '022-address-claims-unbound': m022,
  '023-address-log-kept': m023,
};
