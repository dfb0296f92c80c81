import type { FieldError, FileDescriptor } from '../../shared/form.js';
import { type Answers, hiddenFields, isEmptyAnswer } from '../../shared/logic.js';
import { FIELD_MESSAGES, requiredMessageOf } from '../../shared/messages.js';
import { refusal } from '../../shared/refusals.js';
import { anchoredPattern } from '../forms/patterns.js';
import type { Field, FormDefinition } from '../forms/schemas.js';

/**
 * Submission validation driven by the form's own definition (API.md §6.1), compiled once
 * per form version: regexes, option sets and per-field checks are built here, so that a
 * submission only runs closures. Every failure is reported at once.
 */

/** An answer as kept: a file field's upload ids become descriptors once the submit path has judged them. */
export type AnswerValue = string | number | boolean | string[] | FileDescriptor[];

export interface ValidationResult {
  errors: FieldError[];
  /** The answers to keep: visible fields with a non-empty answer, normalised. */
  answers: Record<string, AnswerValue>;
}

export type SubmissionValidator = (answers: Answers) => ValidationResult;

type Check = (value: unknown) => { value: AnswerValue } | FieldError;

// The WHATWG e-mail rule (what <input type=email> accepts), with a dot required in the domain.
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;
const PHONE = /^\+?[0-9 ().-]{3,32}$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The error of `field`, in the words of shared/messages.ts (which the hosted page's script says too). */
const fail = refusal;
const M = FIELD_MESSAGES;

function isValidDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // setUTCFullYear, as Date.UTC reads years 0..99 as 1900..1999
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return (
    year >= 1 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day
  );
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Code points, not UTF-16 units: "é" and "😀" are one character each (a lone surrogate counts as
 * one, as in `[...text].length`). Spreading the text into an array of characters to count them
 * cost 1.5 % of the submit path's CPU (a 2,000-character textarea made 2,000 strings): text
 * without surrogates, nearly all of it, has as many code points as units.
 */
export function lengthOf(text: string): number {
  if (!SURROGATE.test(text)) return text.length;
  let length = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length--;
        i++;
      }
    }
  }
  return length;
}

function stringCheck(field: Field): Check {
  const pattern = field.pattern === undefined ? undefined : anchoredPattern(field.pattern);
  return (value) => {
    if (typeof value !== 'string') return fail(field.id, M.notText);
    // Addresses, links and numbers get no meaning from surrounding blanks: they are trimmed.
    const text =
      field.type === 'email' || field.type === 'url' || field.type === 'phone' ? value.trim() : value;
    const length = lengthOf(text);
    if (field.minLength !== undefined && length < field.minLength) {
      return fail(field.id, M.tooShort, field.minLength);
    }
    if (field.maxLength !== undefined && length > field.maxLength) {
      return fail(field.id, M.tooLong, field.maxLength);
    }
    if (field.type === 'email' && (text.length > 254 || !EMAIL.test(text))) {
      return fail(field.id, M.notEmail);
    }
    if (field.type === 'url' && !isHttpUrl(text)) return fail(field.id, M.notUrl);
    if (field.type === 'phone' && (!PHONE.test(text) || text.replace(/\D/g, '').length < 3)) {
      return fail(field.id, M.notPhone);
    }
    if (pattern && !pattern.test(text)) return fail(field.id, M.notPattern);
    return { value: text };
  };
}

function numberCheck(field: Field): Check {
  const rating = field.type === 'rating';
  const min = field.min ?? (rating ? 1 : undefined);
  const max = field.max ?? (rating ? 5 : undefined);
  const integer = field.integer ?? rating;
  return (value) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) return fail(field.id, M.notNumber);
    if (integer && !Number.isInteger(value)) return fail(field.id, M.notWhole);
    if (min !== undefined && value < min) return fail(field.id, M.belowMinimum, min);
    if (max !== undefined && value > max) return fail(field.id, M.aboveMaximum, max);
    return { value };
  };
}

function selectCheck(field: Field): Check {
  const options = new Set(
    (field.options ?? []).map((option) => (typeof option === 'string' ? option : option.value)),
  );
  const list = [...options].slice(0, 10).join(', ');
  return (value) => {
    if (field.multiple) {
      if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
        return fail(field.id, M.notOptionList);
      }
      const unknown = value.find((item) => !options.has(item));
      if (unknown !== undefined) return fail(field.id, M.unknownOption, unknown, list);
      return { value: [...new Set(value)] };
    }
    if (typeof value !== 'string') return fail(field.id, M.notOption);
    if (!options.has(value)) return fail(field.id, M.notOneOf, list);
    return { value };
  };
}

const UPLOAD_ID = /^upl_[A-Za-z0-9_-]{1,64}$/;

/** A file field's answer: upload ids (API.md §12), at most `maxFiles`; the submit path then judges each upload. */
function fileCheck(field: Field): Check {
  const maxFiles = field.maxFiles ?? 1;
  return (value) => {
    const ids = typeof value === 'string' ? [value] : value;
    if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string' && UPLOAD_ID.test(id))) {
      return fail(field.id, M.notFiles);
    }
    const unique = [...new Set(ids as string[])];
    if (unique.length > maxFiles) return fail(field.id, M.tooManyFiles, maxFiles);
    return { value: unique };
  };
}

function checkFor(field: Field): Check {
  switch (field.type) {
    case 'file':
      return fileCheck(field);
    case 'number':
    case 'rating':
      return numberCheck(field);
    case 'select':
      return selectCheck(field);
    case 'checkbox':
      return (value) => (typeof value === 'boolean' ? { value } : fail(field.id, M.notBoolean));
    case 'date': {
      return (value) =>
        typeof value === 'string' && isValidDate(value) ? { value } : fail(field.id, M.notDate);
    }
    default:
      return stringCheck(field);
  }
}

/**
 * A required checkbox is a consent: it must be ticked. An optional one left unticked
 * (`false`) is an answer like any other, and is kept.
 */
const isMissing = (field: Field, value: unknown) =>
  isBlank(field, value) || (field.required === true && field.type === 'checkbox' && value === false);

/**
 * No answer: nothing, null, blank text; an empty list only where the field takes a list (files,
 * several options). `[]` given to a field of one value is of the wrong type, not left out.
 */
const isBlank = (field: Field, value: unknown) =>
  isEmptyAnswer(value) && !(Array.isArray(value) && field.type !== 'file' && !field.multiple);

export function compileValidator(definition: FormDefinition): SubmissionValidator {
  const fields = definition.fields.map((field) => ({ field, check: checkFor(field) }));
  const known = new Set(definition.fields.map((field) => field.id));
  const hasLogic = definition.logic.rules.length > 0;

  return (given) => {
    const errors: FieldError[] = [];
    const answers: Record<string, AnswerValue> = {};
    // Each answer is checked on its own first; the logic then reads the answers as they will
    // be kept (blank ones gone, e-mail addresses trimmed, repeated options once), so that the
    // stored answers satisfy the rules they were judged by. Invalid answers are read as given.
    const checks = fields.map(({ field, check }) => {
      // own members only: an unanswered field named `toString` must not read Object.prototype's
      const value = Object.hasOwn(given, field.id) ? given[field.id] : undefined;
      return { field, value, checked: isBlank(field, value) ? undefined : check(value) };
    });
    let hidden: Set<string> | undefined;
    if (hasLogic) {
      const view: Record<string, unknown> = Object.assign(Object.create(null), given);
      for (const { field, checked } of checks) {
        if (checked === undefined) delete view[field.id];
        else if ('value' in checked) view[field.id] = checked.value;
      }
      hidden = hiddenFields(definition.logic, view);
    }

    for (const id of Object.keys(given)) {
      if (!known.has(id)) errors.push(fail(id, M.unknownField));
    }
    for (const { field, value, checked } of checks) {
      if (hidden?.has(field.id)) {
        // `[]` to a field of one value is an answer of the wrong type, hidden or not
        if (!isBlank(field, value)) errors.push(fail(field.id, M.hiddenField));
        continue;
      }
      if (checked === undefined || isMissing(field, value)) {
        if (field.required) errors.push(fail(field.id, M[requiredMessageOf(field)]));
        continue;
      }
      if (!('value' in checked)) errors.push(checked);
      else if (field.id === '__proto__') {
        // a field may be called so; assigning it would set the object's prototype instead
        Object.defineProperty(answers, field.id, { value: checked.value, enumerable: true, writable: true });
      } else answers[field.id] = checked.value;
    }
    return { errors, answers };
  };
}

const compiled = new Map<string, SubmissionValidator>();

/**
 * The validator of one form version, compiled on first use and kept: a version never
 * changes. `updatedAt` is part of the key, so a form deleted and created again under the
 * same id and version never meets its predecessor's validator.
 */
export function validatorFor(form: {
  id: string;
  version: number;
  updatedAt: string;
  definition: FormDefinition;
}): SubmissionValidator {
  const key = `${form.id}\u0000${form.version}\u0000${form.updatedAt}`;
  let validator = compiled.get(key);
  if (!validator) {
    validator = compileValidator(form.definition);
    compiled.set(key, validator);
    // A bounded cache: the oldest compiled versions go first.
    if (compiled.size > 5000) compiled.delete(compiled.keys().next().value as string);
  }
  return validator;
}
