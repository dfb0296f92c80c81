import type { Ajv } from 'ajv';
import { fieldErrorsFromAjv } from '../../platform/errors.js';
import { createAjv } from '../../platform/http/validation.js';
import { badRequest, type FieldError } from '../../platform/problem.js';
import type { WebhookInput } from '../webhooks/schemas.js';
import { accessFrom, checkAccess } from './access-rules.js';
import { checkLogic } from './logic-rules.js';
import { checkPattern, isPatternKnown, MAX_NEW_PATTERNS_PER_SAVE } from './patterns.js';
import {
  CreateFormBody,
  type Field,
  type FieldType,
  type FormDefinition,
  type FormStatus,
  type SpamProtection,
  UpdateFormBody,
} from './schemas.js';
import { checkTranslations } from './translations.js';
import { checkAccentColor, checkEmbedOrigins } from './ui-rules.js';

/**
 * Form definitions are checked in two passes whose problems are reported together:
 * the shape (JSON Schema), then the rules that span members (unique ids, options,
 * ranges, safe patterns, logic and spam rules that name real fields).
 */

/**
 * Compiled on first use, not at import: the two definition schemas take a few hundred
 * milliseconds to compile, which start-up (and every process that never writes a form,
 * like a test of the submit path) should not pay.
 */
let shapeValidators: { create: ReturnType<Ajv['compile']>; update: ReturnType<Ajv['compile']> } | undefined;
function shapes() {
  if (!shapeValidators) {
    const ajv = createAjv({ coerceTypes: false, useDefaults: false });
    shapeValidators = { create: ajv.compile(CreateFormBody), update: ajv.compile(UpdateFormBody) };
  }
  return shapeValidators;
}

export interface FormDraft {
  title: string;
  status: FormStatus;
  definition: FormDefinition;
  /** Present when the body set the form's webhooks (they replace the stored ones). */
  webhooks: WebhookInput[] | undefined;
}

type StoredDraft = Omit<FormDraft, 'webhooks'>;

export interface CreateInput extends FormDraft {
  id: string | undefined;
  environment: string;
}

/** Ids that collide with what every object already has: answers keyed by them would be lost or unsafe. */
const RESERVED_IDS: ReadonlySet<string> = new Set(['__proto__']);
const STRING_TYPES: ReadonlySet<FieldType> = new Set(['text', 'email', 'textarea', 'url', 'phone', 'hidden']);
const NUMBER_TYPES: ReadonlySet<FieldType> = new Set(['number', 'rating']);

function invalidForm(errors: FieldError[]) {
  const first = errors[0];
  const summary = first ? `${first.field} ${first.message}` : 'the definition is invalid';
  const more =
    errors.length > 1 ? ` (and ${errors.length - 1} more problem${errors.length > 2 ? 's' : ''})` : '';
  return badRequest('invalid_form', `The form definition is invalid: ${summary}${more}`, { errors });
}

function assertObject(body: unknown): asserts body is Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidForm([{ field: '(body)', code: 'type', message: 'must be a JSON object' }]);
  }
}

/** Encrypts a secret for storage (the envelope of platform/crypto). */
export type Encrypt = (plaintext: string) => Promise<string>;

/** The instance's limits a definition is held to (config.ts). */
export interface DefinitionLimits {
  /** FILE_MAX_BYTES: no file field may accept more. */
  fileMaxBytes: number;
  /** Hashes a form's new password (`access.password`, API.md §15) as account passwords are. */
  hashPassword?: (password: string) => Promise<string>;
}

const DEFAULT_LIMITS: DefinitionLimits = { fileMaxBytes: 100 * 1024 * 1024 };

export async function parseCreateInput(
  body: unknown,
  encrypt: Encrypt,
  limits: DefinitionLimits = DEFAULT_LIMITS,
): Promise<CreateInput> {
  assertObject(body);
  const validateCreateShape = shapes().create;
  const shapeErrors = validateCreateShape(body) ? [] : fieldErrorsFromAjv(validateCreateShape.errors ?? []);
  const input = body as Partial<CreateFormBody>;
  const { draft, newPassword } = draftFrom(input, undefined);
  const ruleErrors =
    shapeErrors.length === 0
      ? await checkRules(draft, { fileMaxBytes: limits.fileMaxBytes })
      : await checkRulesLeniently(draft, shapeErrors, { fileMaxBytes: limits.fileMaxBytes });
  const errors = [...shapeErrors, ...ruleErrors];
  if (errors.length > 0) throw invalidForm(errors);
  await encryptNewCaptchaSecret(input, draft, encrypt);
  await hashNewPassword(draft, newPassword, limits);
  return { ...draft, id: input.id, environment: String(input.environment) };
}

export async function parseUpdateInput(
  body: unknown,
  stored: StoredDraft,
  encrypt: Encrypt,
  limits: DefinitionLimits = DEFAULT_LIMITS,
): Promise<FormDraft> {
  assertObject(body);
  const validateUpdateShape = shapes().update;
  const shapeErrors = validateUpdateShape(body) ? [] : fieldErrorsFromAjv(validateUpdateShape.errors ?? []);
  const { draft, newPassword } = draftFrom(body as Partial<CreateFormBody>, stored);
  // A stored rule that does not fit its field (saved before conditions had to fit) is judged
  // when the logic or the fields it compares are sent again, not on every change of status or title.
  const options = {
    fitConditions: Object.hasOwn(body, 'logic') || Object.hasOwn(body, 'fields'),
    fileMaxBytes: limits.fileMaxBytes,
  };
  const ruleErrors =
    shapeErrors.length === 0
      ? await checkRules(draft, options)
      : await checkRulesLeniently(draft, shapeErrors, options);
  const errors = [...shapeErrors, ...ruleErrors];
  if (errors.length > 0) throw invalidForm(errors);
  await encryptNewCaptchaSecret(body as Partial<CreateFormBody>, draft, encrypt);
  await hashNewPassword(draft, newPassword, limits);
  return draft;
}

/** A form's new password is stored as its scrypt hash, made once the definition is known to be valid. */
async function hashNewPassword(draft: FormDraft, password: string | undefined, limits: DefinitionLimits) {
  const access = draft.definition.access;
  if (password === undefined || !access) return;
  if (!limits.hashPassword) throw new Error('a form password was sent, and no hasher was handed over');
  access.passwordHash = await limits.hashPassword(password);
}

/** A CAPTCHA secret sent in the body is stored encrypted; a kept one is stored already. */
async function encryptNewCaptchaSecret(input: Partial<CreateFormBody>, draft: FormDraft, encrypt: Encrypt) {
  const sent = input.spamProtection?.captcha?.secret;
  const captcha = draft.definition.spamProtection?.captcha;
  if (sent !== undefined && captcha) captcha.secret = await encrypt(sent);
}

/** Body members over the stored ones (or the defaults), member by member. */
function draftFrom(
  input: Partial<CreateFormBody>,
  stored: StoredDraft | undefined,
): { draft: FormDraft; newPassword: string | undefined } {
  const previous = stored?.definition;
  const has = (member: string) => Object.hasOwn(input, member);
  const pick = <T>(member: string, fallback: T): T =>
    has(member) ? ((input as Record<string, T>)[member] as T) : fallback;
  const ui = pick('ui', previous?.ui ?? {});
  const storage = pick('storage', previous?.storage ?? {});
  const definition: FormDefinition = {
    fields: pick('fields', previous?.fields ?? []),
    ui: { theme: 'auto', progress: 'steps', layout: 'one-by-one', ...ui },
    storage: { mode: 'owner', pii: 'plain', ...storage },
    logic: pick('logic', previous?.logic ?? null) ?? { rules: [] },
    retention: pick('retention', previous?.retention ?? null),
    notifications: pick('notifications', previous?.notifications ?? null),
    autoResponse: pick('autoResponse', previous?.autoResponse ?? null),
    spamProtection: keepCaptchaSecret(
      pick('spamProtection', previous?.spamProtection ?? null),
      previous?.spamProtection ?? null,
    ),
    translations: pick('translations', previous?.translations ?? {}),
  };
  // access: sent, it replaces the stored one (its password kept unless sent or null); else the stored one stays
  const access = has('access')
    ? accessFrom(input.access ?? null, previous?.access)
    : { access: previous?.access ?? null, newPassword: undefined };
  if (access.access) definition.access = access.access;
  const draft = {
    title: pick('title', stored?.title ?? ''),
    status: pick('status', stored?.status ?? 'draft'),
    definition,
    webhooks: has('webhooks') ? input.webhooks : undefined,
  };
  return { draft, newPassword: access.newPassword };
}

/**
 * The CAPTCHA secret is write-only: a client that sends back the form it read has no
 * secret to send, so the stored one stays while provider and site key are the same
 * (a secret belongs to one site key).
 */
function keepCaptchaSecret(
  next: SpamProtection | null,
  previous: SpamProtection | null,
): SpamProtection | null {
  if (!next?.captcha) return next;
  const { hasSecret: _readOnly, ...captcha } = next.captcha;
  if (
    captcha.secret === undefined &&
    previous?.captcha?.secret &&
    previous.captcha.provider === captcha.provider &&
    previous.captcha.siteKey === captcha.siteKey
  ) {
    captcha.secret = previous.captcha.secret;
  }
  return { ...next, captcha };
}

/**
 * When the shape is wrong, cross-member rules still run on the members whose shape is
 * right, so that every problem is listed at once: the well-formed fields, and each other
 * member (logic, spamProtection, ...) without a shape error of its own.
 */
async function checkRulesLeniently(
  draft: FormDraft,
  shapeErrors: FieldError[],
  options?: RuleOptions,
): Promise<FieldError[]> {
  const broken = (member: string) =>
    shapeErrors.some(
      (e) => e.field === member || e.field.startsWith(`${member}.`) || e.field.startsWith(`${member}[`),
    );
  // Without a well-formed list of fields (missing, not an array, too long), nothing that
  // refers to fields can be judged; otherwise each field without a shape error of its own is.
  const fieldsKnown =
    Array.isArray(draft.definition.fields) && !shapeErrors.some((e) => e.field === 'fields');
  // Broken fields become holes, so that the others keep their index in error paths.
  const fields = fieldsKnown
    ? draft.definition.fields.map((field, i) => (broken(`fields[${i}]`) ? undefined : field))
    : [];
  const definition = draft.definition;
  const lenient: CheckedDraft = {
    ...draft,
    definition: {
      ...definition,
      fields,
      logic: broken('logic') || !fieldsKnown ? { rules: [] } : definition.logic,
      spamProtection: broken('spamProtection') || !fieldsKnown ? null : definition.spamProtection,
      autoResponse: broken('autoResponse') || !fieldsKnown ? null : definition.autoResponse,
      notifications: broken('notifications') ? null : definition.notifications,
      translations: broken('translations') || !fieldsKnown ? {} : definition.translations,
      access: broken('access') || !fieldsKnown ? null : definition.access,
    },
    // each webhook judged on its own, as the fields are: a wrong event does not hide a wrong url
    webhooks:
      Array.isArray(draft.webhooks) && !shapeErrors.some((e) => e.field === 'webhooks')
        ? draft.webhooks.map((webhook, i) =>
            broken(`webhooks[${i}].url`) || typeof webhook?.url !== 'string' ? undefined : webhook,
          )
        : undefined,
  };
  return checkRules(lenient, options);
}

/** A draft whose shape may have holes: fields that failed the shape check are left out. */
type CheckedDraft = Omit<FormDraft, 'definition' | 'webhooks'> & {
  definition: Omit<FormDefinition, 'fields'> & { fields: ReadonlyArray<Field | undefined> };
  /** Holes where a webhook's url cannot be judged (its shape is wrong). */
  webhooks: ReadonlyArray<WebhookInput | undefined> | undefined;
};

export interface RuleOptions {
  /** Whether each condition must fit its field's type (API.md §5.4); the default. */
  fitConditions?: boolean;
  /** FILE_MAX_BYTES: the largest `maxFileSize` a file field may have. */
  fileMaxBytes?: number;
}

export async function checkRules(draft: CheckedDraft, options: RuleOptions = {}): Promise<FieldError[]> {
  const { fields, logic, spamProtection, autoResponse, notifications, ui, translations, access } =
    draft.definition;
  const patterns = patternChecker();
  const errors = await checkFields(fields, patterns, options.fileMaxBytes ?? DEFAULT_LIMITS.fileMaxBytes);
  errors.push(...checkAccentColor(ui), ...checkEmbedOrigins(ui));
  const byId = new Map(fields.flatMap((field) => (field ? [[field.id, field] as const] : [])));
  errors.push(...checkLogic(logic, byId, options.fitConditions ?? true));
  errors.push(...checkAccess(access, byId, logic));
  errors.push(...checkTranslations(translations, fields, ui));
  errors.push(...(await checkSpamProtection(patterns, spamProtection, byId)));
  if (autoResponse) {
    const target = byId.get(autoResponse.emailField);
    if (!target) {
      errors.push(
        error(
          'autoResponse.emailField',
          'unknown_field',
          `names no field of this form ("${autoResponse.emailField}")`,
        ),
      );
    } else if (target.type !== 'email') {
      errors.push(
        error(
          'autoResponse.emailField',
          'invalid',
          `must name an email field ("${target.id}" is ${target.type})`,
        ),
      );
    }
  }
  if (notifications?.email.enabled && notifications.email.to.length === 0) {
    errors.push(
      error(
        'notifications.email.to',
        'required',
        'needs at least one address when e-mail notifications are enabled',
      ),
    );
  }
  for (const [i, webhook] of (draft.webhooks ?? []).entries()) {
    if (webhook && !isHttpUrl(webhook.url)) {
      errors.push(error(`webhooks[${i}].url`, 'invalid_url', 'must be an http:// or https:// URL'));
    }
  }
  return errors;
}

const error = (field: string, code: string, message: string): FieldError => ({ field, code, message });

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

async function checkFields(
  fields: ReadonlyArray<Field | undefined>,
  patterns: PatternChecker,
  fileMaxBytes: number,
): Promise<FieldError[]> {
  const errors: FieldError[] = [];
  const patternChecks: Array<Promise<FieldError | undefined>> = [];
  const seen = new Set<string>();
  for (const [i, field] of fields.entries()) {
    if (!field) continue;
    const at = (member: string) => `fields[${i}].${member}`;
    if (RESERVED_IDS.has(field.id)) {
      errors.push(
        error(
          at('id'),
          'reserved',
          `"${field.id}" is reserved: no JSON body may carry an answer under that name`,
        ),
      );
    }
    if (seen.has(field.id))
      errors.push(error(at('id'), 'duplicate', `"${field.id}" is used by another field`));
    seen.add(field.id);

    const isString = STRING_TYPES.has(field.type);
    const isNumber = NUMBER_TYPES.has(field.type);
    const notApplicable = (member: string, kinds: string) =>
      errors.push(
        error(at(member), 'not_applicable', `applies only to ${kinds} fields, not to ${field.type}`),
      );

    if (field.type === 'select') {
      if (!field.options || field.options.length === 0) {
        errors.push(error(at('options'), 'required', 'a select field needs at least one option'));
      } else {
        const values = new Set<string>();
        for (const [j, option] of field.options.entries()) {
          const value = typeof option === 'string' ? option : option.value;
          if (values.has(value))
            errors.push(error(`${at('options')}[${j}]`, 'duplicate', `"${value}" is listed twice`));
          values.add(value);
        }
      }
    } else {
      if (field.options !== undefined) notApplicable('options', 'select');
      if (field.multiple !== undefined) notApplicable('multiple', 'select');
      if (field.display !== undefined) notApplicable('display', 'select');
    }

    for (const member of ['minLength', 'maxLength', 'pattern'] as const) {
      if (field[member] !== undefined && !isString) notApplicable(member, 'text-like');
    }
    if (field.type === 'file') {
      if (field.maxFileSize !== undefined && field.maxFileSize > fileMaxBytes) {
        errors.push(
          error(
            at('maxFileSize'),
            'range',
            `must not exceed this instance's largest file (FILE_MAX_BYTES: ${fileMaxBytes} bytes)`,
          ),
        );
      }
    } else {
      for (const member of ['maxFiles', 'maxFileSize', 'accept'] as const) {
        if (field[member] !== undefined) notApplicable(member, 'file');
      }
    }
    for (const member of ['min', 'max', 'integer'] as const) {
      if (field[member] !== undefined && !isNumber) notApplicable(member, 'number and rating');
    }
    if (field.minLength !== undefined && field.maxLength !== undefined && field.minLength > field.maxLength) {
      errors.push(
        error(
          at('minLength'),
          'range',
          `must not exceed maxLength (${field.minLength} > ${field.maxLength})`,
        ),
      );
    }
    if (field.min !== undefined && field.max !== undefined && field.min > field.max) {
      errors.push(error(at('min'), 'range', `must not exceed max (${field.min} > ${field.max})`));
    }
    if (field.pattern !== undefined && isString) {
      patternChecks.push(patterns(field.pattern, field.maxLength, at('pattern')));
    }
  }
  for (const found of await Promise.all(patternChecks)) if (found) errors.push(found);
  return errors;
}

async function checkSpamProtection(
  patterns: PatternChecker,
  spam: SpamProtection | null,
  byId: Map<string, Field>,
): Promise<FieldError[]> {
  if (!spam) return [];
  const errors: FieldError[] = [];
  if (spam.honeypot && byId.has(spam.honeypot.field)) {
    errors.push(
      error(
        'spamProtection.honeypot.field',
        'conflict',
        `"${spam.honeypot.field}" is a real field; the honeypot needs a name of its own`,
      ),
    );
  }
  if (spam.captcha && !spam.captcha.secret) {
    errors.push(
      error(
        'spamProtection.captcha.secret',
        'required',
        'is required to verify CAPTCHA tokens with the provider',
      ),
    );
  }
  for (const [i, rule] of (spam.rules ?? []).entries()) {
    if (!byId.has(rule.field)) {
      errors.push(
        error(
          `spamProtection.rules[${i}].field`,
          'unknown_field',
          `names no field of this form ("${rule.field}")`,
        ),
      );
    } else if (byId.get(rule.field)?.type === 'file') {
      // a rule reads an answer as text; a file's answer is its upload, not words to match
      errors.push(
        error(
          `spamProtection.rules[${i}].field`,
          'not_applicable',
          `"${rule.field}" is a file field: a spam rule reads text answers`,
        ),
      );
    }
    if (rule.op === 'matches') {
      const found = await patterns(rule.value, undefined, `spamProtection.rules[${i}].value`);
      if (found) errors.push(found);
    }
  }
  return errors;
}

type PatternChecker = (
  pattern: string,
  maxLength: number | undefined,
  at: string,
) => Promise<FieldError | undefined>;

/**
 * Pattern analysis costs up to a second per new pattern, so one save may bring only so
 * many patterns the service has not seen before; the rest are refused with a clear error.
 */
function patternChecker(): PatternChecker {
  let newAllowed = MAX_NEW_PATTERNS_PER_SAVE;
  return async (pattern, maxLength, at) => {
    if (!isPatternKnown(pattern)) {
      if (newAllowed <= 0) {
        return error(
          at,
          'too_many_patterns',
          `was not checked: one save may bring at most ${MAX_NEW_PATTERNS_PER_SAVE} new patterns; save the form in steps`,
        );
      }
      newAllowed--;
    }
    const verdict = await checkPattern(pattern, maxLength);
    return verdict.ok ? undefined : error(at, verdict.code, verdict.message);
  };
}
