import type { Static } from '@sinclair/typebox';
import { describe, expectTypeOf, it } from 'vitest';
import type { FieldErrorSchema } from '../../platform/http/schemas.js';
import type {
  AccessRules,
  Condition,
  ConditionLeaf,
  FieldError,
  FormAccess,
  FormAccessInput,
  FormField,
  FormUi,
  Logic,
  OwnerField,
  PublicForm,
  Translation,
  Translations,
} from '../../shared/form.js';
import type {
  AccessInput as AccessInputSchema,
  AccessOut as AccessOutSchema,
  ConditionLeaf as ConditionLeafSchema,
  Condition as ConditionSchema,
  Field as FieldSchema,
  Logic as LogicSchema,
  PublicField as PublicFieldSchema,
  PublicFormOut,
  Translation as TranslationSchema,
  Translations as TranslationsSchema,
  Ui as UiSchema,
} from './schemas.js';

/**
 * The form's contract is written twice on purpose: as TypeBox schemas (what the server checks
 * and documents) and as shared/form.ts's plain types (what the browser may import: TypeBox is
 * not bundled). This test holds them equal in both directions: it fails to compile (npm run
 * check, and vitest's typecheck of this file) the moment one changes without the other.
 */

/** The shared recursive condition, cut where the schema stops nesting (MAX_CONDITION_DEPTH, 4). */
type Nested<Inner> = ConditionLeaf | { all: Inner[] } | { any: Inner[] };
type ConditionToDepth4 = Nested<Nested<Nested<ConditionLeaf>>>;
type LogicToDepth4 = { rules: Array<{ when: ConditionToDepth4; show?: string[]; hide?: string[] }> };

describe('the form contract (shared/form.ts) and the schemas (forms/schemas.ts)', () => {
  it('describe the same public field', () => {
    expectTypeOf<Static<typeof PublicFieldSchema>>().toEqualTypeOf<FormField>();
  });

  it("describe the same owner's field: the public one with its PII handling", () => {
    expectTypeOf<Static<typeof FieldSchema>>().toEqualTypeOf<OwnerField>();
  });

  it('describe the same ui', () => {
    expectTypeOf<Static<typeof UiSchema>>().toEqualTypeOf<FormUi>();
  });

  it('describe the same condition, to the depth the schema allows', () => {
    expectTypeOf<Static<typeof ConditionLeafSchema>>().toEqualTypeOf<ConditionLeaf>();
    expectTypeOf<Static<typeof ConditionSchema>>().toEqualTypeOf<ConditionToDepth4>();
    expectTypeOf<ConditionToDepth4>().toMatchTypeOf<Condition>();
  });

  it('describe the same logic', () => {
    expectTypeOf<Static<typeof LogicSchema>>().toEqualTypeOf<LogicToDepth4>();
    expectTypeOf<LogicToDepth4>().toMatchTypeOf<Logic>();
  });

  it('describe the same public view of a form', () => {
    type PublicFormToDepth4 = { [K in keyof PublicForm]: K extends 'logic' ? LogicToDepth4 : PublicForm[K] };
    expectTypeOf<Static<typeof PublicFormOut>>().toEqualTypeOf<PublicFormToDepth4>();
  });

  it('describe the same translations (API.md §13)', () => {
    expectTypeOf<Static<typeof TranslationSchema>>().toEqualTypeOf<Translation>();
    expectTypeOf<Static<typeof TranslationsSchema>>().toEqualTypeOf<Translations>();
  });

  it('describe the same access, as written and as read (API.md §15)', () => {
    expectTypeOf<Static<typeof AccessInputSchema>>().toEqualTypeOf<FormAccessInput>();
    expectTypeOf<Static<typeof AccessOutSchema>>().toEqualTypeOf<FormAccess>();
    expectTypeOf<FormAccess>().toMatchTypeOf<AccessRules>();
  });

  it("describe the same field error (a problem's errors[])", () => {
    expectTypeOf<Static<typeof FieldErrorSchema>>().toEqualTypeOf<FieldError>();
  });
});
