// Each bench owns one section of BENCHMARKS.md, between `<!-- name:start -->` and `<!-- name:end -->` (the section
// text includes both markers): a new run replaces it, and a section not there yet is appended.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export const BENCHMARKS_FILE = 'BENCHMARKS.md';

export function replaceSection(name: string, section: string): void {
  const current = existsSync(BENCHMARKS_FILE) ? readFileSync(BENCHMARKS_FILE, 'utf8') : '# Benchmarks\n';
  const pattern = new RegExp(`<!-- ${name}:start -->[\\s\\S]*<!-- ${name}:end -->`);
  // A function as replacement: the section's own `$` characters must not be read as patterns.
  const next = pattern.test(current) ? current.replace(pattern, () => section) : `${current.trimEnd()}\n\n${section}\n`;
  writeFileSync(BENCHMARKS_FILE, next);
}
