import type { Role } from '../../platform/roles.js';
import type { StoredInvitation, StoredWorkspace } from './repo.js';

export function presentWorkspace(workspace: StoredWorkspace & { role: Role }) {
  return {
    id: workspace.id,
    name: workspace.name,
    personal: workspace.personal,
    role: workspace.role,
    createdAt: workspace.createdAt,
  };
}

export function presentMember(member: { userId: string; email: string; role: Role; joinedAt: string }) {
  return { userId: member.userId, email: member.email, role: member.role, joinedAt: member.joinedAt };
}

export function presentInvitation(invitation: StoredInvitation) {
  return {
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    createdAt: invitation.createdAt,
    expiresAt: invitation.expiresAt,
  };
}
