import { describe, expect, it } from 'vitest';
import type { WalkedForm } from '../../shared/walk.js';
import { stepsSaved } from './steps.js';

/** "Save and continue later" as drop-off counts it (API.md §15): what the partial keeps is answered. */

const form = {
  fields: [
    { id: 'name', type: 'text', label: 'Name' },
    { id: 'cv', type: 'file', label: 'CV' },
    { id: 'ref', type: 'hidden', label: 'Ref' },
  ],
  ui: { layout: 'one-by-one' },
} as unknown as WalkedForm;

describe('stepsSaved', () => {
  it('counts the question saved from as reached, and answered when the partial keeps its answer', () => {
    expect(stepsSaved(form, { questionId: 'name', answers: { name: 'Ada' } })).toEqual([
      { fieldId: 'name', answered: true },
    ]);
    expect(stepsSaved(form, { questionId: 'name', answers: { name: '  ' } })).toEqual([
      { fieldId: 'name', answered: false },
    ]);
  });

  it('never counts a file as answered (a partial keeps no files), and knows no hidden or unknown question', () => {
    expect(stepsSaved(form, { questionId: 'cv', answers: { cv: ['upl_1'] } })).toEqual([
      { fieldId: 'cv', answered: false },
    ]);
    expect(stepsSaved(form, { questionId: 'ref', answers: { ref: 'x' } })).toEqual([]);
    expect(stepsSaved(form, { questionId: 'nope', answers: {} })).toEqual([]);
  });
});
