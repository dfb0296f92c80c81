import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { StringEnum, Timestamp } from '../../platform/http/schemas.js';
import type {
  AccessRules,
  CaptchaProvider,
  ClosedReason,
  ConditionOp,
  Condition as ConditionShape,
  FieldType,
  FormStatus,
  Logic as LogicShape,
  OncePer,
  PiiMode,
} from '../../shared/form.js';
import { WebhookInput, WebhookOut } from '../webhooks/schemas.js';

/**
 * The form resource: what a client may send and what it gets back (API.md §5). The shapes
 * anyone may see are the types of shared/form.ts, which schemas.types.test.ts holds equal to
 * these schemas; the lists below are those types' members, spelled once for the schemas.
 */

export const FORM_ID_PATTERN = '^[A-Za-z0-9_-]{1,64}$';
/** An `accept` entry: an extension (`.pdf`) or a media type, its subtype possibly `*` (`image/*`). */
export const ACCEPT_PATTERN =
  '^(\\.[A-Za-z0-9][A-Za-z0-9._+-]{0,30}|[a-z0-9][a-z0-9!#$&^_.+-]{0,62}/(\\*|[a-z0-9][a-z0-9!#$&^_.+-]{0,126}))$';
export const FIELD_TYPES = [
  'text',
  'email',
  'textarea',
  'select',
  'number',
  'checkbox',
  'date',
  'url',
  'phone',
  'hidden',
  'rating',
  'file',
] as const satisfies readonly FieldType[];
export type { FieldType, FormStatus };

export const FORM_STATUSES = [
  'draft',
  'live',
  'active',
  'disabled',
  'archived',
] as const satisfies readonly FormStatus[];

export const PII_MODES = [
  'plain',
  'masked',
  'hashed',
  'encrypted',
  'dropped',
] as const satisfies readonly PiiMode[];

export const CONDITION_OPS = [
  'equals',
  'notEquals',
  'contains',
  'notContains',
  'gt',
  'gte',
  'lt',
  'lte',
  'in',
  'isEmpty',
  'isNotEmpty',
] as const satisfies readonly ConditionOp[];

const Option = Type.Union([
  Type.String({ minLength: 1, maxLength: 500 }),
  Type.Object(
    {
      value: Type.String({ minLength: 1, maxLength: 500 }),
      label: Type.String({ minLength: 1, maxLength: 500 }),
    },
    { additionalProperties: false },
  ),
]);

export const Field = Type.Object(
  {
    id: Type.String({ pattern: FORM_ID_PATTERN }),
    type: StringEnum(FIELD_TYPES),
    label: Type.String({ minLength: 1, maxLength: 500 }),
    required: Type.Optional(Type.Boolean()),
    pii: Type.Optional(Type.Boolean()),
    piiMode: Type.Optional(StringEnum(PII_MODES)),
    placeholder: Type.Optional(Type.String({ maxLength: 500 })),
    help: Type.Optional(Type.String({ maxLength: 2000 })),
    options: Type.Optional(Type.Array(Option, { maxItems: 1000 })),
    multiple: Type.Optional(Type.Boolean()),
    // how a select shows on the page: shared/form.ts `ChoiceDisplay`
    display: Type.Optional(StringEnum(['tiles', 'dropdown'] as const)),
    minLength: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
    maxLength: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
    pattern: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
    min: Type.Optional(Type.Number()),
    max: Type.Optional(Type.Number()),
    integer: Type.Optional(Type.Boolean()),
    // file fields (API.md §12)
    maxFiles: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 20,
        description: 'A file field: files one answer may hold (default 1)',
      }),
    ),
    maxFileSize: Type.Optional(
      Type.Integer({
        minimum: 1,
        description:
          'A file field: the largest file in bytes (default 10 MiB, at most the instance’s FILE_MAX_BYTES)',
      }),
    ),
    accept: Type.Optional(
      Type.Array(Type.String({ pattern: ACCEPT_PATTERN, maxLength: 100 }), {
        maxItems: 50,
        description:
          'A file field: extensions (".pdf") and media types ("image/*", "application/pdf") a file may have',
      }),
    ),
  },
  { additionalProperties: false },
);
export type Field = Static<typeof Field>;

export const Ui = Type.Object(
  {
    theme: Type.Optional(StringEnum(['auto', 'light', 'dark'] as const)),
    progress: Type.Optional(StringEnum(['steps', 'bar', 'none'] as const)),
    layout: Type.Optional(StringEnum(['one-by-one', 'classic'] as const)),
    submitLabel: Type.Optional(Type.String({ maxLength: 200 })),
    successMessage: Type.Optional(Type.String({ maxLength: 5000 })),
    redirectUrl: Type.Optional(Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2000 })),
    description: Type.Optional(Type.String({ maxLength: 5000, description: 'Shown under the title' })),
    language: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$',
        maxLength: 35,
        description: 'BCP 47: the page’s lang (and dir="rtl" for right-to-left scripts)',
      }),
    ),
    accentColor: Type.Optional(
      Type.String({
        pattern: '^#[0-9a-fA-F]{6}$',
        description:
          '#rrggbb; at least 4.5:1 against the theme’s background (#ffffff light, #000000 dark; both for auto)',
      }),
    ),
    embedOrigins: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 300 }), {
        maxItems: 20,
        description:
          'Origins that may frame the page (/f/{formId}?embed=1), such as https://example.com: scheme://host[:port], no path; any site when absent, none when empty',
      }),
    ),
    branding: Type.Optional(
      Type.Boolean({
        description: 'false hides the "Powered by Intake" line at the foot of the hosted page',
      }),
    ),
  },
  { additionalProperties: true, description: 'Presentation; members beyond these are kept as given' },
);

export const Storage = Type.Object(
  {
    mode: Type.Optional(StringEnum(['owner', 'none'] as const)),
    pii: Type.Optional(StringEnum(PII_MODES)),
  },
  { additionalProperties: false },
);

const ConditionValue = Type.Union([
  Type.String({ maxLength: 10_000 }),
  Type.Number(),
  Type.Boolean(),
  Type.Null(),
  Type.Array(Type.Union([Type.String({ maxLength: 10_000 }), Type.Number(), Type.Boolean()]), {
    maxItems: 1000,
  }),
]);

export const ConditionLeaf = Type.Object(
  {
    field: Type.String({ pattern: FORM_ID_PATTERN }),
    op: StringEnum(CONDITION_OPS),
    value: Type.Optional(ConditionValue),
  },
  { additionalProperties: false },
);
const nest = <Inner extends TSchema>(inner: Inner) =>
  Type.Union([
    ConditionLeaf,
    Type.Object({ all: Type.Array(inner, { minItems: 1, maxItems: 100 }) }, { additionalProperties: false }),
    Type.Object({ any: Type.Array(inner, { minItems: 1, maxItems: 100 }) }, { additionalProperties: false }),
  ]);

/**
 * A condition: `{field, op, value?}`, or `{all: [...]}` / `{any: [...]}` of conditions,
 * nested at most four deep (spelled out rather than recursive, so that every schema
 * compiler and the OpenAPI document take it without shared $ids).
 */
export const MAX_CONDITION_DEPTH = 4;
export const Condition = nest(nest(nest(ConditionLeaf)));
export type Condition = ConditionShape;

const FieldIdList = Type.Array(Type.String({ pattern: FORM_ID_PATTERN }), { maxItems: 500 });

export const Logic = Type.Object(
  {
    rules: Type.Array(
      Type.Object(
        { when: Condition, show: Type.Optional(FieldIdList), hide: Type.Optional(FieldIdList) },
        { additionalProperties: false },
      ),
      { maxItems: 500 },
    ),
  },
  { additionalProperties: false },
);

export const Retention = Type.Object(
  { days: Type.Integer({ minimum: 1, maximum: 3650 }) },
  { additionalProperties: false },
);

const EmailAddress = Type.String({ format: 'email', maxLength: 254 });

export const Notifications = Type.Object(
  {
    email: Type.Object(
      { enabled: Type.Boolean(), to: Type.Array(EmailAddress, { maxItems: 20 }) },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const AutoResponse = Type.Object(
  {
    enabled: Type.Boolean(),
    emailField: Type.String({ pattern: FORM_ID_PATTERN }),
    subject: Type.String({ minLength: 1, maxLength: 500 }),
    body: Type.String({ minLength: 1, maxLength: 50_000 }),
  },
  { additionalProperties: false },
);

const CAPTCHA_PROVIDERS = [
  'turnstile',
  'hcaptcha',
  'recaptcha',
] as const satisfies readonly CaptchaProvider[];
const SPAM_ACTIONS = ['reject', 'flag', 'quarantine'] as const;

const captchaMembers = {
  provider: StringEnum(CAPTCHA_PROVIDERS),
  siteKey: Type.String({ minLength: 1, maxLength: 500 }),
  minScore: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
};

const Honeypot = Type.Object(
  { field: Type.String({ pattern: FORM_ID_PATTERN }) },
  { additionalProperties: false },
);
const SpamRule = Type.Object(
  {
    field: Type.String({ pattern: FORM_ID_PATTERN }),
    op: StringEnum(['contains', 'matches', 'equals'] as const),
    value: Type.String({ minLength: 1, maxLength: 1000 }),
  },
  { additionalProperties: false },
);

export const SpamProtection = Type.Object(
  {
    honeypot: Type.Optional(Honeypot),
    captcha: Type.Optional(
      Type.Object(
        {
          ...captchaMembers,
          // Write-only: omitted on a PUT that keeps the provider and site key, the stored one stays.
          secret: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
          hasSecret: Type.Optional(Type.Boolean({ description: 'Read-only; ignored on input' })),
        },
        { additionalProperties: false },
      ),
    ),
    rules: Type.Optional(Type.Array(SpamRule, { maxItems: 100 })),
    action: StringEnum(SPAM_ACTIONS),
  },
  { additionalProperties: false },
);

/** A field's texts in another language (API.md §13): shared/form.ts `FieldTranslation`. */
export const FieldTranslation = Type.Object(
  {
    label: Type.Optional(Type.String({ maxLength: 1000 })),
    help: Type.Optional(Type.String({ maxLength: 5000 })),
    placeholder: Type.Optional(Type.String({ maxLength: 500 })),
    options: Type.Optional(
      Type.Record(Type.String(), Type.String({ maxLength: 1000 }), {
        description: "An option's label by its value",
      }),
    ),
  },
  { additionalProperties: false },
);

/** A form's texts in one language (API.md §13): shared/form.ts `Translation`. */
export const Translation = Type.Object(
  {
    title: Type.Optional(Type.String({ maxLength: 500 })),
    description: Type.Optional(Type.String({ maxLength: 5000 })),
    submitLabel: Type.Optional(Type.String({ maxLength: 200 })),
    successMessage: Type.Optional(Type.String({ maxLength: 5000 })),
    closedMessage: Type.Optional(Type.String({ maxLength: 5000 })),
    fields: Type.Optional(Type.Record(Type.String(), FieldTranslation)),
    autoResponse: Type.Optional(
      Type.Object(
        {
          subject: Type.Optional(Type.String({ maxLength: 200 })),
          body: Type.Optional(Type.String({ maxLength: 10000 })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const Translations = Type.Record(Type.String({ maxLength: 35 }), Translation, {
  maxProperties: 50,
  description:
    'Texts in other languages by BCP 47 tag (API.md §13); the form’s own are in ui.language. A missing text is shown in that language.',
});

const ONCE_PER = ['browser', 'email'] as const satisfies readonly OncePer[];
const CLOSED_REASONS = ['not_yet_open', 'closed', 'full'] as const satisfies readonly ClosedReason[];

/** The rules of `access` (API.md §15): shared/form.ts `AccessRules`. */
const accessRules = {
  opensAt: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'Submissions are refused (form_closed) before this moment',
    }),
  ),
  closesAt: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'Submissions are refused (form_closed) from this moment on; later than opensAt',
    }),
  ),
  maxSubmissions: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 1_000_000_000,
      description: 'Accepted submissions after which the form closes; never exceeded',
    }),
  ),
  closedMessage: Type.Optional(
    Type.String({ minLength: 1, maxLength: 5000, description: 'What the closed page says' }),
  ),
  oncePer: Type.Optional(
    StringEnum(ONCE_PER, {
      description:
        'browser: a cookie remembers a submission from the hosted page; email: one submission per address in emailField (409 already_submitted)',
    }),
  ),
  emailField: Type.Optional(
    Type.String({
      pattern: FORM_ID_PATTERN,
      description: 'A required email field: what oncePer "email" counts by',
    }),
  ),
};

/** `access` as sent (shared/form.ts `FormAccessInput`): the password write-only. */
export const AccessInput = Type.Object(
  {
    ...accessRules,
    password: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Null()], {
        description:
          'Write-only, stored hashed: asked for by the hosted page, X-Form-Password on the API. Left out keeps the stored one; null removes it',
      }),
    ),
    hasPassword: Type.Optional(Type.Boolean({ description: 'Read-only; ignored on input' })),
  },
  { additionalProperties: false },
);

/** `access` as its owner reads it (shared/form.ts `FormAccess`). */
export const AccessOut = Type.Object(
  { ...accessRules, hasPassword: Type.Boolean() },
  { additionalProperties: false },
);

/** `access` in the public view (shared/form.ts `PublicAccess`). */
export const PublicAccessOut = Type.Object(
  {
    open: Type.Boolean({ description: 'Whether the form takes submissions now' }),
    closedReason: Type.Optional(StringEnum(CLOSED_REASONS, { description: 'Why not, when it does not' })),
    closedMessage: Type.Optional(Type.String()),
    opensAt: Type.Optional(Type.String()),
    closesAt: Type.Optional(Type.String()),
    oncePer: Type.Optional(StringEnum(ONCE_PER)),
    passwordRequired: Type.Boolean({ description: 'The form asks for a password (X-Form-Password)' }),
  },
  { additionalProperties: false },
);

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

/** Members a client may set; the rest of a form is server-set. */
const writableMembers = {
  title: Type.String({ minLength: 1, maxLength: 500 }),
  fields: Type.Array(Field, { maxItems: 500 }),
  status: StringEnum(FORM_STATUSES),
  ui: Ui,
  storage: Storage,
  logic: nullable(Logic),
  retention: nullable(Retention),
  notifications: nullable(Notifications),
  autoResponse: nullable(AutoResponse),
  spamProtection: nullable(SpamProtection),
  webhooks: Type.Array(WebhookInput, { maxItems: 20 }),
  translations: Translations,
  access: nullable(AccessInput),
};

/** Server-set members: accepted in a body (so a GET result can be sent back), then ignored or checked. */
const serverMembers = {
  environment: Type.String(),
  userId: Type.String(),
  version: Type.Unknown(),
  createdAt: Type.Unknown(),
  updatedAt: Type.Unknown(),
  // what GET /forms/{id} and GET /forms/{id}/draft add (API.md §5.5), so their answers can be sent back
  hasDraft: Type.Unknown(),
  draftOf: Type.Unknown(),
};

export const CreateFormBody = Type.Object(
  {
    id: Type.Optional(Type.String({ pattern: FORM_ID_PATTERN })),
    title: writableMembers.title,
    environment: Type.String(),
    fields: writableMembers.fields,
    status: Type.Optional(writableMembers.status),
    ui: Type.Optional(writableMembers.ui),
    storage: Type.Optional(writableMembers.storage),
    logic: Type.Optional(writableMembers.logic),
    retention: Type.Optional(writableMembers.retention),
    notifications: Type.Optional(writableMembers.notifications),
    autoResponse: Type.Optional(writableMembers.autoResponse),
    spamProtection: Type.Optional(writableMembers.spamProtection),
    webhooks: Type.Optional(writableMembers.webhooks),
    translations: Type.Optional(writableMembers.translations),
    access: Type.Optional(writableMembers.access),
    userId: Type.Optional(serverMembers.userId),
    version: Type.Optional(serverMembers.version),
    createdAt: Type.Optional(serverMembers.createdAt),
    updatedAt: Type.Optional(serverMembers.updatedAt),
    hasDraft: Type.Optional(serverMembers.hasDraft),
    draftOf: Type.Optional(serverMembers.draftOf),
  },
  { additionalProperties: false },
);
export type CreateFormBody = Static<typeof CreateFormBody>;

export const UpdateFormBody = Type.Object(
  {
    id: Type.Optional(Type.String()),
    ...Object.fromEntries(Object.entries(writableMembers).map(([k, v]) => [k, Type.Optional(v)])),
    ...Object.fromEntries(Object.entries(serverMembers).map(([k, v]) => [k, Type.Optional(v)])),
  },
  { additionalProperties: false },
);

export type Ui = Static<typeof Ui>;
export type Storage = Static<typeof Storage>;
export type Logic = LogicShape;
export type Retention = Static<typeof Retention>;
export type Notifications = Static<typeof Notifications>;
export type AutoResponse = Static<typeof AutoResponse>;
export type SpamProtection = Static<typeof SpamProtection>;

/** What is stored in the `definition` column. */
export interface FormDefinition {
  fields: Field[];
  ui: Ui;
  storage: Required<Storage>;
  logic: Logic;
  retention: Retention | null;
  notifications: Notifications | null;
  autoResponse: AutoResponse | null;
  spamProtection: SpamProtection | null;
  /** Absent in definitions stored before languages (API.md §13): none. */
  translations?: Static<typeof Translations>;
  /** Absent or null: anyone may answer, any number of times (API.md §15). */
  access?: StoredAccess | null;
}

/** `access` as stored: the rules, and the password's scrypt hash (platform/hashing.ts), never the password. */
export interface StoredAccess extends AccessRules {
  passwordHash?: string;
}

// --- output -----------------------------------------------------------------------

const FieldOut = Type.Object(Field.properties, { additionalProperties: false });
export const PublicField = Type.Omit(FieldOut, ['pii', 'piiMode']);

const SpamProtectionOut = Type.Object(
  {
    honeypot: Type.Optional(Honeypot),
    captcha: Type.Optional(
      Type.Object({ ...captchaMembers, hasSecret: Type.Boolean() }, { additionalProperties: false }),
    ),
    rules: Type.Optional(Type.Array(SpamRule)),
    action: StringEnum(SPAM_ACTIONS),
  },
  { additionalProperties: false },
);

// The form's answers are written by JSON.stringify (platform/http/plain-json.ts), which keeps any
// member: closed objects here make every API test's check against the document refuse one a
// presenter let through, as fast-json-stringify would have dropped it.
export const FormOut = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    environment: Type.String(),
    status: StringEnum(FORM_STATUSES),
    version: Type.Integer(),
    userId: Type.String(),
    fields: Type.Array(FieldOut),
    ui: Ui,
    storage: Storage,
    logic: Logic,
    retention: nullable(Retention),
    webhooks: Type.Array(WebhookOut),
    notifications: nullable(Notifications),
    autoResponse: nullable(AutoResponse),
    spamProtection: nullable(SpamProtectionOut),
    translations: Translations,
    access: nullable(AccessOut),
    hasDraft: Type.Boolean({
      description: 'The form has a working copy (GET /forms/{id}/draft), not yet published',
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { additionalProperties: false },
);

/** A published form's working copy (API.md §5.5): the form as it will be once published. */
export const WorkingCopyOut = Type.Object(
  {
    ...FormOut.properties,
    draftOf: Type.Integer({ description: "The form's version the working copy was made from" }),
  },
  { additionalProperties: false },
);

export const PublicFormOut = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    environment: Type.String(),
    status: StringEnum(FORM_STATUSES),
    version: Type.Integer(),
    fields: Type.Array(PublicField),
    ui: Ui,
    logic: Logic,
    spamProtection: Type.Object(
      {
        honeypot: nullable(Honeypot),
        captcha: nullable(
          Type.Object(
            { provider: StringEnum(CAPTCHA_PROVIDERS), siteKey: Type.String() },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false },
    ),
    access: PublicAccessOut,
    language: Type.String({
      description: 'The language of the texts (API.md §13): ?lang= when the form has it, else ui.language',
    }),
    languages: Type.Array(Type.String(), {
      description: 'Every language the form is written in, ui.language first',
    }),
  },
  { additionalProperties: false },
);

/** A list mixes full forms (the owner's) and public views (everyone else's). */
export const FormOrPublicOut = Type.Union([FormOut, PublicFormOut]);
