// Recording an action in the audit trail, as the features' routes do it: they call this rather than the trail's
// store, so a route module reaches no other feature's store (docs/architecture.md).
import { OPERATOR } from './changes.js';
import type { NewAuditEntry } from './model.js';

/** What recording takes: the trail's `record` (store.ts). */
export interface AuditDeps {
  audit: { record(entry: NewAuditEntry): Promise<void> };
}

/** Records what the operator did through the operator API (one operator token, so the operator has no id). */
export function recordOperatorAction(deps: AuditDeps, entry: Omit<NewAuditEntry, 'actor'>): Promise<void> {
  return deps.audit.record({ ...entry, actor: OPERATOR });
}
