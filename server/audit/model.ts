// Who did something the audit trail records (store.ts keeps the trail): types only, so a feature that records an
// action imports no store.

type AuditActorKind = 'operator' | 'user' | 'writer' | 'system';

export interface AuditActor {
  kind: AuditActorKind;
  id?: string;
}
