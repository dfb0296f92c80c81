/** The roles of a workspace's members, highest first (API.md §14). */
export const ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];
