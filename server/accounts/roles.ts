// Who may do what in the merchant dashboard. Pure and import-free, so the browser app (dashboard/) imports this
// very table to hide the controls a role may not use, and the server enforces the same table (middleware.ts).

export const ROLES = ['owner', 'manager', 'support'] as const;
export type Role = (typeof ROLES)[number];

export const DASHBOARD_ACTIONS = [
  'read',
  'reply',
  'notify',
  'report',
  'mark_read',
  'invite',
  'widget',
  'integration',
  'team',
  'export',
  'import',
  'google',
] as const;
/**
 * `notify`: a reply that e-mails the reviewer (the shop speaking to a customer's inbox, not only on its page);
 * `integration`: the API code, webhooks and require_signed_order_data; `team`: users, roles and their sessions;
 * `export`: download the shop's reviews and invitations as a file (server/exports/dashboard.ts says whose addresses).
 * `import`: bulk review imports from another platform's file (server/imports/).
 * `google`: the Google section (the product review feed's address with its key, rotating it, readiness figures).
 */
export type DashboardAction = (typeof DASHBOARD_ACTIONS)[number];

const SUPPORT: readonly DashboardAction[] = ['read', 'reply', 'report', 'mark_read'];
const MANAGER: readonly DashboardAction[] = [...SUPPORT, 'notify', 'invite', 'widget', 'export', 'import', 'google'];

const ALLOWED: Record<Role, readonly DashboardAction[]> = {
  support: SUPPORT,
  manager: MANAGER,
  owner: DASHBOARD_ACTIONS,
};

export function can(role: Role, action: DashboardAction): boolean {
  return ALLOWED[role].includes(action);
}
