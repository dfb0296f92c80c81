import { describe, expect, it } from 'vitest';
import {
  actionWords,
  actorWords,
  auditQuery,
  filtered,
  knownNames,
  NO_AUDIT_FILTER,
  refusalWords,
} from './model.js';

const names = {
  members: new Map([['usr_bob', 'bob@example.com']]),
  forms: new Map([['frm_1', 'Contact']]),
};

describe('the audit log in words', () => {
  it('names who acted: a person by the address they had, a key by its id', () => {
    expect(actorWords({ type: 'user', id: 'usr_ada', email: 'ada@example.com' })).toBe('ada@example.com');
    expect(actorWords({ type: 'user', id: 'usr_bob' }, names)).toBe('bob@example.com');
    expect(actorWords({ type: 'key', id: 'key_1' })).toBe('API key key_1');
  });

  it('says what was done to what, by name where the view knows it, else by id', () => {
    expect(actionWords({ action: 'form.updated', target: { type: 'form', id: 'frm_1' } }, names)).toBe(
      'updated form Contact',
    );
    expect(actionWords({ action: 'form.deleted', target: { type: 'form', id: 'frm_gone' } }, names)).toBe(
      'deleted form frm_gone',
    );
    expect(
      actionWords({ action: 'member.role_changed', target: { type: 'member', id: 'usr_bob' } }, names),
    ).toBe('changed the role of bob@example.com');
    expect(actionWords({ action: 'member.left', target: { type: 'member', id: 'usr_bob' } }, names)).toBe(
      'left the workspace',
    );
    // an action this dashboard does not know yet still reads
    expect(actionWords({ action: 'form.translated_anew', target: { type: 'form', id: 'frm_2' } })).toBe(
      'form translated anew frm_2',
    );
  });

  it('knows members who left by the address they acted with, and members by their current one', () => {
    const known = knownNames(
      [{ userId: 'usr_ada', email: 'ada@new.example' }],
      [
        { actor: { type: 'user', id: 'usr_bob', email: 'bob@example.com' } },
        { actor: { type: 'user', id: 'usr_ada', email: 'ada@old.example' } },
        { actor: { type: 'key', id: 'key_1' } },
      ],
      [['frm_1', 'Contact']],
    );
    expect(actionWords({ action: 'member.removed', target: { type: 'member', id: 'usr_bob' } }, known)).toBe(
      'removed bob@example.com',
    );
    expect(known.members.get('usr_ada')).toBe('ada@new.example');
    expect(known.forms.get('frm_1')).toBe('Contact');
  });

  it('asks only for what the filter sets', () => {
    expect(auditQuery(NO_AUDIT_FILTER)).toEqual({ limit: 50 });
    expect(filtered({ ...NO_AUDIT_FILTER })).toBe(false);
    expect(filtered({ ...NO_AUDIT_FILTER, to: '2026-11-02' })).toBe(true);
    expect(auditQuery({ action: 'form', actor: 'usr_ada', from: '2026-11-01', to: '' }, 'c1')).toEqual({
      limit: 50,
      cursor: 'c1',
      action: 'form',
      actor: 'usr_ada',
      from: '2026-11-01',
    });
  });
});

describe('refusalWords', () => {
  it('says what to do about the last owner, and the server’s words otherwise', () => {
    expect(refusalWords({ code: 'last_owner', message: 'The last owner cannot leave' })).toMatch(
      /another member an owner/,
    );
    expect(refusalWords({ code: 'forbidden', message: 'Your role does not allow this' })).toBe(
      'Your role does not allow this',
    );
  });
});
