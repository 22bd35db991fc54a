// What moderation tells the compliance counters as things happen (compliance/counters.ts counts them). Declared here,
// by the feature that decides them, so that moderation names no compliance module: compliance lists moderation's
// grounds and outcomes anyway, and the dependency runs one way (compliance → moderation).
import type { Ground } from './schema.js';

/** Outcomes of a report, a signal or the operator's own check. */
export type DecisionOutcome = 'kept' | 'removed' | 'redacted' | 'dismissed';
export type ComplaintOutcome = 'upheld' | 'reversed';

export type ModerationEvent =
  | { kind: 'review_removed'; ground: Ground; rating: number }
  | { kind: 'review_redacted'; ground: Ground; rating: number }
  /** A removal reversed after a complaint: the per-star table counts the review as removed no more. */
  | { kind: 'removal_reversed'; ground: Ground; rating: number }
  | { kind: 'signal_raised'; signal: string }
  | { kind: 'report_received' }
  | { kind: 'complaint_received' }
  /** A decision on a queue entry: from the public form (`report`), a signal, or the operator's own check. */
  | { kind: 'decided'; source: 'report' | 'signal' | 'check'; signal?: string; outcome: DecisionOutcome }
  | { kind: 'complaint_answered'; outcome: ComplaintOutcome };
