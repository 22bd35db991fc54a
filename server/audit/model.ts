// The audit trail's entries and who did what (store.ts keeps the trail): types only, so a feature that records or
// shows an action imports no store.

type AuditActorKind = 'operator' | 'user' | 'writer' | 'system';

export interface AuditActor {
  kind: AuditActorKind;
  id?: string;
}

export interface AuditEntry {
  id: string;
  at: Date;
  shopId: number | null;
  actor: AuditActor;
  action: string;
  target: string | null;
  details: Record<string, unknown>;
}

/** What a feature records (store.ts adds the time and the id). */
export interface NewAuditEntry {
  shopId: number | null;
  actor: AuditActor;
  action: string;
  target?: string;
  details?: Record<string, unknown>;
}
