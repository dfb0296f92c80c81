import type { FieldError } from '../../platform/problem.js';
import { conditionMisfit } from '../../shared/condition-fit.js';
import type { ConditionLeaf } from '../../shared/form.js';
import type { Condition, Field, Logic } from './schemas.js';

/**
 * The rules of a definition's `logic` beyond its shape (API.md §5.4). A condition that can never
 * match its field is refused when the form is saved, as 400 `invalid_form` naming the rule's
 * condition and member (`logic.rules[0].when.op`); which tests fit which field is
 * `shared/condition-fit.ts`, which the builder reads too.
 */

function checkConditionFit(field: Field, condition: ConditionLeaf, at: string): FieldError | undefined {
  const misfit = conditionMisfit(field, condition);
  return misfit && { field: `${at}.${misfit.member}`, code: misfit.code, message: misfit.message };
}

const error = (field: string, code: string, message: string): FieldError => ({ field, code, message });

const VALUELESS_OPS = new Set(['isEmpty', 'isNotEmpty']);

/**
 * A definition's logic (API.md §5.4): conditions name real fields and fit them, take a value when
 * their test needs one, and rules show or hide real fields. Every problem, each at its path.
 */
export function checkLogic(logic: Logic, byId: Map<string, Field>, fitConditions: boolean): FieldError[] {
  const errors: FieldError[] = [];
  const checkCondition = (condition: Condition, at: string) => {
    if ('all' in condition) {
      for (const [i, c] of condition.all.entries()) checkCondition(c, `${at}.all[${i}]`);
    } else if ('any' in condition) {
      for (const [i, c] of condition.any.entries()) checkCondition(c, `${at}.any[${i}]`);
    } else {
      const field = byId.get(condition.field);
      if (!field) {
        errors.push(
          error(`${at}.field`, 'unknown_field', `names no field of this form ("${condition.field}")`),
        );
      } else if (fitConditions) {
        const misfit = checkConditionFit(field, condition, at);
        if (misfit) {
          errors.push(misfit);
          return;
        }
      }
      if (!VALUELESS_OPS.has(condition.op) && condition.value === undefined) {
        errors.push(error(`${at}.value`, 'required', `is required by the operator ${condition.op}`));
      }
      if (condition.op === 'in' && condition.value !== undefined && !Array.isArray(condition.value)) {
        errors.push(error(`${at}.value`, 'type', 'must be an array for the operator in'));
      }
    }
  };
  for (const [i, rule] of logic.rules.entries()) {
    const at = `logic.rules[${i}]`;
    checkCondition(rule.when, `${at}.when`);
    if ((rule.show?.length ?? 0) + (rule.hide?.length ?? 0) === 0) {
      errors.push(error(at, 'required', 'a rule needs show or hide (or both)'));
    }
    for (const member of ['show', 'hide'] as const) {
      for (const [j, id] of (rule[member] ?? []).entries()) {
        if (!byId.has(id))
          errors.push(
            error(`${at}.${member}[${j}]`, 'unknown_field', `names no field of this form ("${id}")`),
          );
      }
    }
  }
  return errors;
}
