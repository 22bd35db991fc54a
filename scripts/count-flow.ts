// Which project files one Add invitation touches, from the router to the e-mail sent. Follows the static imports,
// type imports included (issue 18: a reader following the path meets them as much as the code; 155 files when the
// routes and the sender took the whole Services bag, 33 since each takes its own deps), from the route module and
// from the job that sends the e-mail, which the route reaches through the scheduler by name. `--values` follows
// value imports only (the code that runs; issue 9's "done when" was at most 10 of those).
// Prints each file once (feature files, then shared plumbing), then the counts. `--max N` makes it exit 1 when the
// total is above N.
//
//   npx tsx scripts/count-flow.ts [--max 35] [--values] [entry files…]
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '..');
const DEFAULT_ENTRIES = ['server/invitations/routes.ts', 'server/invitations/send.ts'];

/**
 * The module specifiers of a file's imports and re-exports; with `withTypes` false, value ones only (`import type`,
 * `{ type X }` only: skipped).
 */
function importsOf(source: string, fileName = 'file.ts', withTypes = true): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  for (const node of file.statements) {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      if (clause?.isTypeOnly && !withTypes) continue;
      const named = clause?.namedBindings;
      const onlyTypes =
        clause !== undefined &&
        clause.name === undefined &&
        named !== undefined &&
        ts.isNamedImports(named) &&
        named.elements.length > 0 &&
        named.elements.every((e) => e.isTypeOnly);
      if (!onlyTypes || withTypes) found.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      if (node.isTypeOnly && !withTypes) continue;
      const clause = node.exportClause;
      if (
        !withTypes &&
        clause &&
        ts.isNamedExports(clause) &&
        clause.elements.length > 0 &&
        clause.elements.every((e) => e.isTypeOnly)
      )
        continue;
      found.push(node.moduleSpecifier.text);
    }
  }
  return found;
}

/** A relative specifier as the project file it names (`./x.js` → `x.ts` or `x.tsx`); null for packages. */
function resolveSpecifier(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier).replace(/\.js$/, '');
  for (const candidate of [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`])
    if (existsSync(candidate)) return candidate;
  throw new Error(`cannot resolve ${specifier} from ${relative(ROOT, from)}`);
}

/** Every project file reachable from the entries by imports (value ones only: `withTypes` false), in the order first reached. */
export function flowFiles(entries: readonly string[] = DEFAULT_ENTRIES, withTypes = true): string[] {
  const seen = new Set<string>();
  const queue = entries.map((e) => resolve(ROOT, e));
  while (queue.length) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of importsOf(readFileSync(file, 'utf8'), file, withTypes)) {
      const target = resolveSpecifier(file, spec);
      if (target && !seen.has(target)) queue.push(target);
    }
  }
  return [...seen].map((f) => relative(ROOT, f));
}

/** Shared plumbing: HTTP framing, database helpers, the scheduler's helpers, shared contracts, top-level utilities. */
const isPlumbing = (file: string): boolean =>
  /^server\/(?:http|db|jobs)\//.test(file) || file.startsWith('embed/shared/') || /^server\/[^/]+\.tsx?$/.test(file);

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const args = process.argv.slice(2);
  const maxAt = args.indexOf('--max');
  const max = maxAt >= 0 ? Number(args.splice(maxAt, 2)[1]) : undefined;
  // Type imports count by default: a `Services` or a store's type named in a signature sends the reader there too.
  // `--types` is still accepted (the default now); `--values` leaves type-only imports out.
  const valuesAt = args.indexOf('--values');
  const withTypes = !(valuesAt >= 0 && args.splice(valuesAt, 1).length > 0);
  const typesAt = args.indexOf('--types');
  if (typesAt >= 0) args.splice(typesAt, 1);
  const files = flowFiles(args.length ? args : DEFAULT_ENTRIES, withTypes);
  const feature = files.filter((f) => !isPlumbing(f));
  const plumbing = files.filter(isPlumbing);
  for (const f of feature) console.log(f);
  console.log(`-- shared plumbing:`);
  for (const f of plumbing) console.log(f);
  console.log(`${files.length} files (${feature.length} feature files, ${plumbing.length} shared plumbing)`);
  if (max !== undefined && files.length > max) {
    console.error(`more than ${max}`);
    process.exit(1);
  }
}
