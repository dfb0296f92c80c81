import { describe, expect, it } from 'vitest';
import {
  bodyOf,
  copyOf,
  draftOf,
  embedOriginsOf,
  embedOriginsText,
  HONEYPOT,
  withFields,
  withoutNulls,
} from './draft.js';
import type { StoredForm } from './model.js';

const stored = (partial: Partial<StoredForm> = {}): StoredForm => ({
  id: 'frm_1',
  title: 'Feedback',
  environment: 'development',
  status: 'draft',
  version: 3,
  userId: 'usr_1',
  fields: [
    { id: 'name', type: 'text', label: 'Name' },
    { id: 'email', type: 'email', label: 'E-mail', pii: true },
  ],
  ui: { layout: 'classic' },
  storage: { mode: 'owner', pii: 'encrypted' },
  logic: { rules: [{ when: { field: 'name', op: 'isNotEmpty' }, show: ['email'] }] },
  retention: { days: 30 },
  webhooks: [],
  hasDraft: false,
  translations: {},
  access: null,
  notifications: { email: { enabled: true, to: ['me@example.com', 'you@example.com'] } },
  autoResponse: null,
  spamProtection: {
    honeypot: { field: 'company_site' },
    captcha: { provider: 'turnstile', siteKey: 'site', hasSecret: true, minScore: 0.5 },
    action: 'flag',
  },
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-02T00:00:00.000Z',
  ...partial,
});

describe('draftOf', () => {
  it('reads every member the builder edits from the stored form', () => {
    const draft = draftOf(stored());
    expect(draft).toMatchObject({
      title: 'Feedback',
      piiDefault: 'encrypted',
      honeypot: true,
      honeypotField: 'company_site',
      captcha: { provider: 'turnstile', siteKey: 'site', secret: '', hasSecret: true, minScore: '0.5' },
      spamAction: 'flag',
      notify: true,
      notifyTo: 'me@example.com, you@example.com',
      retentionDays: '30',
      autoResponse: { enabled: false, emailField: '' },
    });
    expect(draft.rules).toEqual([
      {
        match: 'all',
        conditions: [{ field: 'name', op: 'isNotEmpty', value: '' }],
        action: 'show',
        targets: ['email'],
      },
    ]);
  });
  it('gives what is not set the builder’s defaults', () => {
    const draft = draftOf(
      stored({ spamProtection: null, notifications: null, retention: null, storage: {} }),
    );
    expect(draft).toMatchObject({
      honeypot: false,
      honeypotField: HONEYPOT,
      spamAction: 'reject',
      notify: false,
      notifyTo: '',
      retentionDays: '',
      piiDefault: 'plain',
    });
  });
});

describe('bodyOf', () => {
  it('sends back what it read unchanged, the stored secret kept by sending none', () => {
    const form = stored();
    const body = bodyOf(draftOf(form), form);
    expect(body).toMatchObject({
      title: 'Feedback',
      storage: { mode: 'owner', pii: 'encrypted' },
      logic: form.logic,
      spamProtection: {
        honeypot: { field: 'company_site' },
        captcha: { provider: 'turnstile', siteKey: 'site', minScore: 0.5 },
        action: 'flag',
      },
      notifications: { email: { enabled: true, to: ['me@example.com', 'you@example.com'] } },
      retention: { days: 30 },
      autoResponse: null,
    });
    expect(body.spamProtection?.captcha).not.toHaveProperty('secret');
  });
  it('clears with null what was emptied, and addresses the automatic reply to the first e-mail field', () => {
    const form = stored();
    const draft = { ...draftOf(form), notify: false, notifyTo: '', retentionDays: ' ' };
    const body = bodyOf({ ...draft, autoResponse: { ...draft.autoResponse, enabled: true } }, form);
    expect(body).toMatchObject({
      notifications: null,
      retention: null,
      autoResponse: { enabled: true, emailField: 'email' },
    });
  });
});

describe('bodyOf: access', () => {
  it('sends a stored access back without hasPassword or password (the password kept)', () => {
    const form = stored({
      access: { maxSubmissions: 10, oncePer: 'email', emailField: 'email', hasPassword: true },
    });
    const body = bodyOf(draftOf(form), form);
    expect(body.access).toEqual({ maxSubmissions: 10, oncePer: 'email', emailField: 'email' });
  });
  it('is null with nothing set, a new password when typed, null as the password to remove it', () => {
    const form = stored({ access: { closedMessage: 'Shut.', hasPassword: true } });
    const draft = draftOf(form);
    expect(
      bodyOf({ ...draft, access: { ...draft.access, closedMessage: '', removePassword: true } }, form).access,
    ).toBeNull();
    expect(bodyOf({ ...draft, access: { ...draft.access, password: 'pw' } }, form).access).toEqual({
      closedMessage: 'Shut.',
      password: 'pw',
    });
    expect(bodyOf({ ...draft, access: { ...draft.access, removePassword: true } }, form).access).toEqual({
      closedMessage: 'Shut.',
      password: null,
    });
  });
  it('leaves access out of a copy’s POST body when there is none', () => {
    const { body } = copyOf(draftOf(stored()), stored(), 'production');
    expect(body).not.toHaveProperty('access');
  });
});

describe('bodyOf: translations', () => {
  it('sends the translations back, the texts of a removed field left out', () => {
    const form = stored({
      translations: { de: { title: 'Rückmeldung', fields: { name: { label: 'Name' } } } },
    });
    const draft = draftOf(form);
    expect(bodyOf(draft, form).translations).toEqual(form.translations);
    expect(bodyOf({ ...draft, fields: draft.fields.slice(1) }, form).translations).toEqual({
      de: { title: 'Rückmeldung' },
    });
  });
  it('takes a renamed field’s texts along', () => {
    const draft = draftOf(stored({ translations: { de: { fields: { email: { label: 'E-Mail' } } } } }));
    const renamed = withFields(draft, [
      draft.fields[0] ?? { id: 'name', type: 'text', label: 'Name' },
      { id: 'mail', type: 'email', label: 'E-mail' },
    ]);
    expect(renamed.translations).toEqual({ de: { fields: { mail: { label: 'E-Mail' } } } });
  });
});

describe('copyOf', () => {
  it('is a POST body for the other environment, without nulls', () => {
    const { body } = copyOf(draftOf(stored({ retention: null })), stored({ retention: null }), 'production');
    expect(body).toMatchObject({ title: 'Feedback', environment: 'production' });
    expect(Object.values(body)).not.toContain(null);
  });
  it('leaves a CAPTCHA out when its secret was not typed again (the stored one is never read back)', () => {
    const form = stored();
    const left = copyOf(draftOf(form), form, 'production');
    expect(left.captchaLeft).toBe(true);
    expect(left.body.spamProtection?.captcha).toBeUndefined();
    const draft = draftOf(form);
    const typed = copyOf(
      { ...draft, captcha: { ...draft.captcha, secret: 'new secret' } },
      form,
      'production',
    );
    expect(typed.captchaLeft).toBe(false);
    expect(typed.body.spamProtection?.captcha).toMatchObject({ secret: 'new secret' });
  });
});

describe('withFields', () => {
  it('takes a renamed field’s references along: rules, spam rules, the reply’s address field', () => {
    const draft = {
      ...draftOf(stored()),
      spamRules: [{ field: 'email', op: 'contains' as const, value: 'viagra' }],
    };
    const renamed = withFields({ ...draft, autoResponse: { ...draft.autoResponse, emailField: 'email' } }, [
      draft.fields[0] ?? { id: 'name', type: 'text', label: 'Name' },
      { id: 'mail', type: 'email', label: 'E-mail' },
    ]);
    expect(renamed.rules[0]?.targets).toEqual(['mail']);
    expect(renamed.spamRules[0]?.field).toBe('mail');
    expect(renamed.autoResponse.emailField).toBe('mail');
  });
  it('takes a renamed e-mail question along as the one that one response per address counts by', () => {
    const draft = draftOf(stored({ access: { oncePer: 'email', emailField: 'email', hasPassword: false } }));
    const renamed = withFields(draft, [
      draft.fields[0] ?? { id: 'name', type: 'text', label: 'Name' },
      { id: 'mail', type: 'email', label: 'E-mail', required: true },
    ]);
    expect(renamed.access.emailField).toBe('mail');
  });
  it('changes nothing else when fields are added or removed', () => {
    const draft = draftOf(stored());
    const fewer = withFields(draft, draft.fields.slice(0, 1));
    expect(fewer.rules).toBe(draft.rules);
  });
  it('renames nothing when fields only move: a rule keeps naming the field it named', () => {
    const draft = draftOf(stored());
    const swapped = withFields(draft, draft.fields.slice().reverse());
    expect(swapped.rules).toBe(draft.rules);
    expect(swapped.rules[0]?.targets).toEqual(['email']);
  });
});

describe('embed origins and null members', () => {
  it('shows a line per origin, "none" for an empty list, nothing when unset', () => {
    expect(embedOriginsText(['https://a.example', 'https://b.example'])).toBe(
      'https://a.example\nhttps://b.example',
    );
    expect(embedOriginsText([])).toBe('none');
    expect(embedOriginsText(undefined)).toBe('');
  });
  it('reads them back: blank is unset (any site), "none" is no site', () => {
    expect(embedOriginsOf(' https://a.example \n\n')).toEqual(['https://a.example']);
    expect(embedOriginsOf('None')).toEqual([]);
    expect(embedOriginsOf('  ')).toBeUndefined();
  });
  it('drops null and undefined members only', () => {
    expect(withoutNulls({ a: null, b: undefined, c: 0, d: '' })).toEqual({ c: 0, d: '' });
  });
});
