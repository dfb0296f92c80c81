import type { FieldError } from '../../platform/problem.js';
import { conditionMisfit } from '../../shared/condition-fit.js';
import type { ConditionLeaf } from '../../shared/form.js';
import type { Field } from './schemas.js';

/**
 * A logic condition that can never match its field (API.md §5.4) is refused when the form is
 * saved, as 400 `invalid_form` naming the rule's condition and member (`logic.rules[0].when.op`).
 * Which tests fit which field is `shared/condition-fit.ts`, read by the builder too.
 */
export function checkConditionFit(
  field: Field,
  condition: ConditionLeaf,
  at: string,
): FieldError | undefined {
  const misfit = conditionMisfit(field, condition);
  return misfit && { field: `${at}.${misfit.member}`, code: misfit.code, message: misfit.message };
}
