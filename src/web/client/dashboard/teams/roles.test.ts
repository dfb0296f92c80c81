import { describe, expect, it } from 'vitest';
import { chosenWorkspace, may, mayManageMember, needs, rolesGivenBy, type Workspace } from './roles.js';

const workspace = (id: string, personal: boolean, role: Workspace['role'] = 'owner'): Workspace => ({
  id,
  name: id,
  personal,
  role,
  createdAt: '2026-11-26T10:00:00.000Z',
});

describe('what a role may do (API.md §14)', () => {
  it('follows the table row by row', () => {
    expect(
      ['owner', 'admin', 'editor', 'viewer'].map((role) => may(role as Workspace['role'], 'manageForms')),
    ).toEqual([true, true, true, false]);
    expect(may('admin', 'manageAccess')).toBe(true);
    expect(may('editor', 'manageAccess')).toBe(false);
    expect(may('owner', 'own')).toBe(true);
    expect(may('admin', 'own')).toBe(false);
    expect(needs('viewer', 'manageForms')).toBe(
      'Your role here (viewer) does not allow this: it needs editor or above.',
    );
  });

  it('lets only an owner touch owners, and admins everyone else', () => {
    expect(rolesGivenBy('owner')).toEqual(['owner', 'admin', 'editor', 'viewer']);
    expect(rolesGivenBy('admin')).toEqual(['admin', 'editor', 'viewer']);
    expect(rolesGivenBy('editor')).toEqual([]);
    expect(mayManageMember('admin', 'owner')).toBe(false);
    expect(mayManageMember('admin', 'editor')).toBe(true);
    expect(mayManageMember('owner', 'owner')).toBe(true);
    expect(mayManageMember('viewer', 'viewer')).toBe(false);
  });
});

describe('chosenWorkspace', () => {
  const list = [workspace('wsp_personal', true), workspace('wsp_team', false, 'viewer')];
  it('keeps the remembered one while the person is its member, else the personal one', () => {
    expect(chosenWorkspace(list, 'wsp_team')?.id).toBe('wsp_team');
    expect(chosenWorkspace(list, 'wsp_gone')?.id).toBe('wsp_personal');
    expect(chosenWorkspace(list, undefined)?.id).toBe('wsp_personal');
    expect(chosenWorkspace([], 'wsp_team')).toBeUndefined();
  });
});
