// Reading the classic endpoints' query parameters. Numbers arrive as strings (with leading zeros or blanks);
// out-of-range values are clamped into the documented range, non-numbers are an application error.
import { ClassicError } from './errors.js';

export function intParam(
  value: unknown,
  name: string,
  { min, max, fallback }: { min: number; max: number; fallback: number },
): number {
  if (value === undefined || value === '') return fallback;
  if (typeof value !== 'string' || !/^\s*-?\d{1,15}\s*$/.test(value)) {
    throw new ClassicError(`The parameter ${name} must be an integer from ${min} to ${max}.`);
  }
  return Math.min(max, Math.max(min, Number(value)));
}

/** A single string parameter; arrays and objects (e.g. `x[$ne]=1`) are refused. */
export function stringParam(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new ClassicError(`The parameter ${name} must be a single text value.`);
  return value;
}
