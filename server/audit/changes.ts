// What an audit entry says about a change of stored values. Scores, flags, numbers and settings chosen from a list
// are recorded as they were and as they are; a text (a review's comment, a writer's name, a shop's name) only as
// changed, with its lengths: the trail must not become a second copy of what an erasure or a redaction removes.
import { isDeepStrictEqual } from 'node:util';
import type { AuditActor } from './store.js';

/** The operator, as the trail names them (there is one operator token, so no id). */
export const OPERATOR: AuditActor = { kind: 'operator' };

export type FieldChange =
  | { from: unknown; to: unknown }
  | { changed: true; length_before: number; length_after: number }
  | { [key: string]: FieldChange };

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);

const textLength = (v: unknown) => (typeof v === 'string' ? v.length : 0);

function changeOf(from: unknown, to: unknown, text: boolean): FieldChange | undefined {
  if (isDeepStrictEqual(from, to)) return undefined;
  // An object (sub-scores, sidebar settings, an address) is told key by key, so one change does not repeat the rest.
  if (isObject(from) || isObject(to)) {
    const before = isObject(from) ? from : {};
    const after = isObject(to) ? to : {};
    const changes = changesOf(
      before,
      after,
      [...new Set([...Object.keys(before), ...Object.keys(after)])],
      text ? 'all' : [],
    );
    return Object.keys(changes).length > 0 ? changes : undefined;
  }
  if (text) return { changed: true, length_before: textLength(from), length_after: textLength(to) };
  return { from: from ?? null, to: to ?? null };
}

/**
 * The fields among `fields` whose value differs between `before` and `after`, each as `{from, to}`, or for the
 * fields named in `texts` (at any depth below them; 'all': every field) as `{changed: true, length_before,
 * length_after}`. Unchanged fields are left out.
 */
export function changesOf(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  fields: readonly string[],
  texts: readonly string[] | 'all',
): Record<string, FieldChange> {
  const out: Record<string, FieldChange> = {};
  for (const field of fields) {
    const change = changeOf(before[field], after[field], texts === 'all' || texts.includes(field));
    if (change) out[field] = change;
  }
  return out;
}
