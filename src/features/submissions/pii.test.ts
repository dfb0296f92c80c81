import { describe, expect, it } from 'vitest';
import type { Envelope } from '../../platform/crypto/envelope.js';
import type { FormDefinition } from '../forms/schemas.js';
import { ownerAnswers, protectAnswers, revealAnswers, revealAnswersInPlace } from './pii.js';

/**
 * PII `dropped` (API.md §5.4, §8): the stored answer is a marker holding nothing of the value, so
 * that analytics count it as answered, and no output (the owner's view, exports, the webhook
 * payload made from the plain answers) ever shows it.
 */

const definition = {
  fields: [
    { id: 'name', type: 'text', label: 'Name' },
    { id: 'salary', type: 'number', label: 'Salary', pii: true, piiMode: 'dropped' },
  ],
  storage: { mode: 'owner', pii: 'plain' },
} as unknown as FormDefinition;

const envelope = {} as Envelope;

describe('a dropped answer', () => {
  it('is stored as a marker with nothing of the value, and shown by no output', async () => {
    const plain = { name: 'Ada', salary: 91_234 };
    const stored = await protectAnswers(plain, definition, envelope);
    expect(stored).toEqual({ name: 'Ada', salary: { $dropped: true } });
    expect(JSON.stringify(stored)).not.toContain('91234');
    // the webhook payload is made from the plain answers beside the stored ones
    expect(ownerAnswers(stored, plain)).toEqual({ name: 'Ada' });
    expect(await revealAnswers(stored, envelope)).toEqual({ name: 'Ada' });
    expect(revealAnswersInPlace({ ...stored })).toEqual({ name: 'Ada' });
  });
});
