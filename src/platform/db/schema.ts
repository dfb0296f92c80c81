/**
 * Row types of every table, as Kysely sees them. Column names are snake_case here
 * and never leave the repositories: presenters decide the JSON shape.
 * Timestamps are ISO 8601 UTC text on both engines (they sort as text, and
 * `substr(created_at, 1, 10)` is the UTC day on both); JSON documents are text.
 */
export interface UsersTable {
  id: string;
  email: string;
  /** Lowercased e-mail: uniqueness is case-insensitive. */
  email_key: string;
  password_hash: string;
  created_at: string;
}

export interface SessionsTable {
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
}

export interface PasswordResetsTable {
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
}

export interface EnvironmentsTable {
  /** The workspace that owns the row (API.md §14). */
  workspace_id: string;
  name: string;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  /** The workspace that owns the row (API.md §14). */
  workspace_id: string;
  /** Who made the key. */
  user_id: string;
  environment: string;
  kind: 'secret' | 'publishable';
  key_hash: string;
  last4: string;
  created_at: string;
  last_used_at: string | null;
}

export interface FormsTable {
  id: string;
  /** The workspace that owns the row (API.md §14). */
  workspace_id: string;
  /** Who made the form (its `userId`). */
  user_id: string;
  environment: string;
  title: string;
  status: string;
  version: number;
  /** JSON of the definition members: fields, ui, storage, logic, retention, ... */
  definition: string;
  created_at: string;
  updated_at: string;
}

/** A published form's working copy (API.md §5.5): one per form at most, never served publicly. */
export interface FormWorkingCopiesTable {
  form_id: string;
  /** The form's version the copy was made from. */
  draft_of: number;
  title: string;
  /** JSON of the definition, as in `forms.definition`. */
  definition: string;
  created_at: string;
  updated_at: string;
}

/** An uploaded file (migration 011-files.ts): `writing` → `uploaded` → `attached` (or `forwarded`). */
export interface FilesTable {
  id: string;
  upload_id: string;
  /** The workspace that owns the row (API.md §14). */
  workspace_id: string;
  environment: string;
  form_id: string;
  field_id: string;
  submission_id: string | null;
  state: 'writing' | 'uploaded' | 'attached' | 'forwarded';
  name: string;
  type: string;
  /** A bigint: PostgreSQL's driver gives it as a string. */
  size: number | string;
  sha256: string;
  storage_key: string | null;
  encryption: string | null;
  created_at: string;
  expires_at: string | null;
}

export interface WebhooksTable {
  id: string;
  /** The workspace that owns the row (API.md §14). */
  workspace_id: string;
  environment: string;
  form_id: string;
  event: string;
  url: string;
  secret_ciphertext: string | null;
  format: string;
  /** 0 or 1: booleans are integers on both engines. */
  enabled: number;
  created_at: string;
}

export interface SubmissionsTable {
  id: string;
  /** The workspace that owns the row (API.md §14). */
  workspace_id: string;
  environment: string;
  form_id: string;
  form_version: number;
  answers: string;
  session_id: string | null;
  status: 'accepted' | 'flagged' | 'quarantined' | 'partial';
  read: number;
  starred: number;
  /** The language the form was shown in (API.md §13); null before migration 013. */
  language: string | null;
  created_at: string;
}

export interface SubmissionNotesTable {
  id: string;
  submission_id: string;
  /** Who wrote it: the session's user, or the creator of the key it was written with. */
  user_id: string;
  text: string;
  created_at: string;
  /** The author's address when written; null for notes written before migration 014 (author unknown). */
  author_email: string | null;
  /** The key a note was written with; null when a session wrote it. */
  key_id: string | null;
}

export interface IdempotencyKeysTable {
  form_id: string;
  key: string;
  request_hash: string;
  response: string;
  created_at: string;
}

/** Accepted submissions of a form, counted with them (API.md §15 `maxSubmissions`). */
export interface FormCountsTable {
  form_id: string;
  /** Accepted submissions, counted against `maxSubmissions` (kept also when no copy is stored). */
  accepted: number;
  /** Stored submissions the inbox lists (accepted and flagged), of them unread, and the newest's time. */
  listed: number;
  unread: number;
  last_at: string | null;
}

/** What only a partial submission has (API.md §15 saved progress): its resume token's hash, where it was left, its expiry. */
export interface PartialProgressTable {
  submission_id: string;
  form_id: string;
  token_hash: string;
  question_id: string | null;
  updated_at: string;
  expires_at: string;
}

/** The resume tokens of completed partials, until they would have expired (migration 021). */
export interface CompletedProgressTable {
  token_hash: string;
  form_id: string;
  submission_id: string;
  expires_at: string;
}

/** The keyed hash of each address a form with `oncePer: "email"` took a submission from (API.md §15). */
export interface ResponseAddressesTable {
  form_id: string;
  address_hash: string;
  submission_id: string;
  created_at: string;
}

export interface UsageTable {
  /** The workspace that owns the row (API.md §14). */
  workspace_id: string;
  environment: string;
  /** `YYYY-MM`, UTC. */
  month: string;
  submissions: number;
}

export interface OutboxTable {
  id: string;
  kind: string;
  payload: string;
  status: 'pending' | 'done' | 'failed';
  attempts: number;
  next_attempt_at: string;
  lease_until: string | null;
  last_error: string | null;
  created_at: string;
  done_at: string | null;
}

export interface WebhookDeliveriesTable {
  id: string;
  /** No foreign key: a delivery outlives its webhook (form.deleted), see migration 004. */
  webhook_id: string;
  /** The workspace that owns the row (API.md §14). */
  workspace_id: string;
  environment: string;
  form_id: string;
  /** The event's id: the `webhook-id` header, the same on every attempt and redelivery. */
  event_id: string;
  event: string;
  /** Snapshots of the webhook at enqueue, used when the webhook is gone by send time. */
  url: string;
  format: string;
  secret_ciphertext: string | null;
  /** The rendered JSON body, envelope-encrypted. */
  body_ciphertext: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  outbox_id: string;
  redelivery_of: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookDeliveryAttemptsTable {
  delivery_id: string;
  attempt: number;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  attempted_at: string;
}

/** One row per form, event type and visitor session: the first report counts, repeats are skipped. */
export interface FormEventsTable {
  form_id: string;
  /** `view`, `start`; and a submission of a form that stores nothing, by its status (its id the session). */
  type: 'view' | 'start' | 'forwarded' | 'forwarded_flagged' | 'forwarded_quarantined';
  session_id: string;
  /** The workspace that owns the row (API.md §14). */
  workspace_id: string;
  environment: string;
  created_at: string;
}

/**
 * Drop-off (API.md §15): a question a session reached on a one-by-one hosted page, once per
 * (form, session, question); `answered` only ever goes from 0 to 1.
 */
export interface FormStepsTable {
  form_id: string;
  session_id: string;
  field_id: string;
  /** 1 once the session's answer to it was accepted (Next or the submission), else 0. */
  answered: number;
  /** When the session first reached it, ISO 8601 UTC. */
  reached_at: string;
}

/** Who works together (API.md §14): everything is owned by a workspace. */
export interface WorkspacesTable {
  id: string;
  name: string;
  /** 1 for a user's personal workspace (made at sign-up, never shared nor deleted), else 0. */
  personal: number;
  created_at: string;
}

export interface WorkspaceMembersTable {
  workspace_id: string;
  user_id: string;
  role: 'owner' | 'admin' | 'editor' | 'viewer';
  joined_at: string;
}

export interface WorkspaceInvitationsTable {
  id: string;
  workspace_id: string;
  /** Lowercased. */
  email: string;
  role: 'owner' | 'admin' | 'editor' | 'viewer';
  /** SHA-256 of the mailed token: the token itself is never stored. */
  token_hash: string;
  invited_by: string;
  created_at: string;
  expires_at: string;
}

export interface AuditLogTable {
  id: string;
  workspace_id: string;
  at: string;
  actor_type: 'user' | 'key';
  actor_id: string;
  actor_email: string | null;
  action: string;
  target_type: string;
  target_id: string;
  ip: string;
}

export interface Schema {
  workspaces: WorkspacesTable;
  workspace_members: WorkspaceMembersTable;
  workspace_invitations: WorkspaceInvitationsTable;
  audit_log: AuditLogTable;
  users: UsersTable;
  sessions: SessionsTable;
  password_resets: PasswordResetsTable;
  environments: EnvironmentsTable;
  api_keys: ApiKeysTable;
  forms: FormsTable;
  form_working_copies: FormWorkingCopiesTable;
  files: FilesTable;
  webhooks: WebhooksTable;
  submissions: SubmissionsTable;
  submission_notes: SubmissionNotesTable;
  idempotency_keys: IdempotencyKeysTable;
  usage: UsageTable;
  form_counts: FormCountsTable;
  response_addresses: ResponseAddressesTable;
  /** SQLite's claims not yet merged into `response_addresses` (migration 020): the same columns. */
  response_address_log: ResponseAddressesTable;
  partial_progress: PartialProgressTable;
  completed_progress: CompletedProgressTable;
  outbox: OutboxTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptsTable;
  form_events: FormEventsTable;
  form_steps: FormStepsTable;
}
