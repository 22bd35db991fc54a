// Lists the exports that no other file uses, and those that only tests use (issue 9 point 9), with the TypeScript
// compiler's own resolution of every import, so a name imported under another name, a type-only import or a
// re-export still counts. Run: `npx tsx scripts/unused-exports.ts` (add `--json` for machine-readable output).
// Entry points are never listed: what a config file or a bundle entry exports is used by the tool that loads it.
import { relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '..');

/**
 * Files whose exports are read by a tool, not by an import: config files, the vitest and Playwright global setups,
 * the bundle entries, and the embed's form.js stand-in for the app's modules (resolved by vite.config.ts).
 */
const ENTRY_POINTS = [
  /^[^/]+\.config\.ts$/,
  /^server\/main\.ts$/,
  /^test\/global-setup\.ts$/,
  /^e2e\/(hosts\/)?server\.ts$/,
  /^embed\/loader\/sidebar\.ts$/,
  /^embed\/app\/(main\.tsx|more\.ts|more-deps\.ts)$/,
];

/**
 * Exports that only tests import, on purpose: each is a seam a test needs and the public surface cannot give as
 * well. `file#name` → why. Listed apart from the rest; an entry that is no longer a test-only export is reported,
 * so the list only holds what is true.
 */
const RULE = 'a pure rule tested directly, case by case; through a request each case would need a whole scenario';
const LIMIT = 'the limit the code enforces: the test reads it rather than repeating the number';
const DRAIN = "one run of a job's work, awaited: the test calls it rather than waiting for the scheduler";
const STORED = 'the shape or key of what a store writes: the test writes a document as an older version or a crash left it';
const PARSER = 'a parser of outside input, fuzzed directly (fast-check) for its bounds and its time';
const TEST_SEAMS: Record<string, string> = {
  'embed/shared/cache-buster.ts#cacheBuster': RULE,
  'embed/shared/language.ts#langOf': RULE,
  'embed/shared/language.ts#langFromUrl': RULE,
  'embed/shared/order.ts#decodeEntities': RULE,
  'embed/shared/settings.ts#coerce': RULE,
  'server/consents/rules.ts#ReceiptFacts': 'the facts the receipt rules read, built by their unit test',
  'server/consents/signature.ts#phpUrlencode': 'the PHP encoding plugins sign with, checked byte for byte against PHP output',
  'server/consents/signature.ts#signedQuery': 'builds the signed query as a plugin does: the tests act as the plugin',
  'server/customers/erase.ts#ANONYMOUS': "the erased reviewer's name per language: the test checks every language without a second copy",
  'server/customers/erase.ts#ErasureReport': "the erasure endpoint's counts, typed for the test's expected answers",
  'server/customers/redact.ts#REDACTED': RULE,
  'server/customers/redact.ts#nameTerms': RULE,
  'server/db/embedded.ts#findFerretDb': 'where the embedded database binary is looked for: the test checks each place without installing one',
  'server/domains/token-store.ts#DomainToken': STORED,
  'server/feed/feed.ts#FeedContext': RULE,
  'server/feed/feed.ts#gtinOf': RULE,
  'server/feed/feed.ts#faviconOf': RULE,
  'server/feed/feed.ts#productScore': RULE,
  'server/feed/feed.ts#productContent': RULE,
  'server/feed/feed.ts#renderFeed': 'the feed as one string, validated against the XSD without a database',
  'server/http/body.ts#jsonOverCaps': PARSER,
  'server/http/body.ts#parseFormEncoded': PARSER,
  'server/http/body.ts#FormFields': PARSER,
  'server/http/local.ts#isLocalHost': RULE,
  'server/invitations/input.ts#MAX_PRODUCTS': LIMIT,
  'server/invitations/input.ts#text': PARSER,
  'server/invitations/input.ts#httpUrl': RULE,
  'server/invitations/order-data.ts#PRODUCT_ENTRIES': LIMIT,
  'server/invitations/reminders.ts#ReminderFacts': RULE,
  'server/invitations/reminders.ts#reminderDecision': RULE,
  'server/invitations/reminders.ts#drainReminders': DRAIN,
  'server/invitations/store.ts#dedupeKey': STORED,
  'server/jobs/scheduler.ts#WAKE_UPS': STORED,
  'server/jobs/transient.ts#MAX_BACKOFF_MS': LIMIT,
  'server/jobs/transient.ts#backoffMs': RULE,
  'server/mail/outbox.ts#parseHeaders': PARSER,
  'server/mail/outbox.ts#decodeWords': PARSER,
  'server/mail/recipient-limit-store.ts#MAILS_PER_RECIPIENT_PER_DAY': LIMIT,
  'server/mail/recipient-limit-store.ts#mailboxOf': RULE,
  'server/mail/recipient-limit-store.ts#utcDay': RULE,
  'server/mail/recipient-limit-store.ts#placeId': STORED,
  'server/mail/recipient-limit-store.ts#secondsUntilNextDay': RULE,
  'server/mail/review-queue.ts#outstandingMails': RULE,
  'server/mail/reviews.ts#verdictFor': RULE,
  'server/mail/reviews.ts#mayQuoteWriter': RULE,
  'server/mail/transport.ts#outboxFileName': RULE,
  'server/moderation/form-token.ts#FORM_TOKEN_TTL_MS': LIMIT,
  'server/moderation/routes.ts#REPORTS_PER_ADDRESS_PER_HOUR': LIMIT,
  'server/moderation/routes.ts#REPORTS_PER_REVIEW_PER_HOUR': LIMIT,
  'server/moderation/service.ts#redacted': RULE,
  'server/pages/strings.ts#PAGE_STRINGS': 'the texts of every language: the test checks each has every key',
  'server/policy/routes.ts#requestedLanguage': RULE,
  'server/reviews/rules.ts#wholeYears': RULE,
  'server/time.ts#DAY_MS': 'a unit: tests move clocks by days',
  'server/webhooks/delivery.ts#dispatchWritten': DRAIN,
  'server/webhooks/delivery.ts#queueSends': DRAIN,
  'server/webhooks/delivery.ts#outcomeOf': RULE,
  'server/webhooks/ssrf.ts#isForbiddenAddress': PARSER,
  'server/widget/css.ts#CSS_MAX_LENGTH': LIMIT,
  'server/widget/css.ts#httpsStylesheetUrl': RULE,
  'server/widget/css.ts#decodeCssEscapes': PARSER,
  'server/widget/params.ts#DEFAULTS': 'the defaults every fuzzed parameter set must fall back to',
  'widget/color.ts#contrast': RULE,
  'widget/components.tsx#WidgetReview': 'the review a layout renders, built by the label tests',
  'widget/strings.ts#STRINGS': 'the texts of every language: the tests check each has every key',
};

type Role = 'product' | 'test' | 'tool';

/** Test code: test files, the harness and browser tests, and fixtures beside the code they feed. */
function roleOf(file: string): Role {
  if (/\.test\.tsx?$/.test(file) || /^(test|e2e)\//.test(file) || /\/test\//.test(file) || /-fixtures\.tsx?$/.test(file)) return 'test';
  if (/^(bench|scripts)\//.test(file) || /^[^/]+\.ts$/.test(file)) return 'tool';
  return 'product';
}

interface ExportUse {
  file: string;
  name: string;
  line: number;
  /** Types vanish from the build; an unused exported type costs a reader, not a byte. */
  kind: 'value' | 'type';
  /** Other files that import it, by role. */
  users: Record<Role, string[]>;
}

function findExportUses(configPath = resolve(ROOT, 'tsconfig.json')): ExportUse[] {
  const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!config) throw new Error(`cannot read ${configPath}`);
  const program = ts.createProgram(config.fileNames, config.options);
  const checker = program.getTypeChecker();
  const own = program.getSourceFiles().filter((f) => !f.isDeclarationFile && !f.fileName.includes('/node_modules/'));
  const rel = (f: ts.SourceFile) => relative(ROOT, f.fileName);

  // The original declaration behind an alias (import, re-export), so every route to one export meets in one key.
  const original = (symbol: ts.Symbol): ts.Symbol =>
    symbol.flags & ts.SymbolFlags.Alias ? original(checker.getAliasedSymbol(symbol)) : symbol;

  const users = new Map<ts.Symbol, Set<string>>();
  const use = (symbol: ts.Symbol | undefined, by: string) => {
    if (!symbol) return;
    const key = original(symbol);
    let set = users.get(key);
    if (!set) users.set(key, (set = new Set()));
    set.add(by);
  };
  const useAllOf = (moduleSpecifier: ts.Expression, by: string) => {
    const moduleSymbol = checker.getSymbolAtLocation(moduleSpecifier);
    if (moduleSymbol) for (const e of checker.getExportsOfModule(moduleSymbol)) use(e, by);
  };

  const exportNamed = (moduleSpecifier: ts.Expression, name: string): ts.Symbol | undefined => {
    const moduleSymbol = checker.getSymbolAtLocation(moduleSpecifier);
    return moduleSymbol ? checker.getExportsOfModule(moduleSymbol).find((e) => e.name === name) : undefined;
  };

  for (const file of own) {
    const by = rel(file);
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && node.importClause) {
        const clause = node.importClause;
        if (clause.name) use(checker.getSymbolAtLocation(clause.name), by);
        const bindings = clause.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) useAllOf(node.moduleSpecifier, by);
        if (bindings && ts.isNamedImports(bindings)) for (const s of bindings.elements) use(checker.getSymbolAtLocation(s.name), by);
      } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
        if (!node.exportClause) useAllOf(node.moduleSpecifier, by);
        else if (ts.isNamedExports(node.exportClause)) for (const s of node.exportClause.elements) use(checker.getSymbolAtLocation(s.name), by);
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0]) {
        // `const { a, b } = await import('./x.js')` uses a and b; any other dynamic import may use every export.
        const names = destructuredNames(node);
        if (names) for (const name of names) use(exportNamed(node.arguments[0], name), by);
        else useAllOf(node.arguments[0], by);
      } else if (ts.isImportTypeNode(node) && node.qualifier) {
        use(checker.getSymbolAtLocation(node.qualifier), by);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }

  const result: ExportUse[] = [];
  for (const file of own) {
    const path = rel(file);
    if (ENTRY_POINTS.some((p) => p.test(path))) continue;
    const moduleSymbol = checker.getSymbolAtLocation(file);
    if (!moduleSymbol) continue;
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const declaration = exported.declarations?.[0];
      // Re-exports are listed where they are declared.
      if (!declaration || declaration.getSourceFile() !== file || exported.flags & ts.SymbolFlags.Alias) continue;
      const others = [...(users.get(original(exported)) ?? [])].filter((f) => f !== path).sort();
      const byRole: Record<Role, string[]> = { product: [], test: [], tool: [] };
      for (const f of others) byRole[roleOf(f)].push(f);
      const line = file.getLineAndCharacterOfPosition(declaration.getStart()).line + 1;
      const kind = exported.flags & ts.SymbolFlags.Value ? 'value' : 'type';
      result.push({ file: path, name: exported.name, line, kind, users: byRole });
    }
  }
  return result.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}

/** The names taken by `const { a, b: c } = await import(…)` (a, b); undefined for any other use of the import. */
function destructuredNames(call: ts.CallExpression): string[] | undefined {
  const awaited = ts.isAwaitExpression(call.parent) ? call.parent : undefined;
  const declaration = awaited && ts.isVariableDeclaration(awaited.parent) ? awaited.parent : undefined;
  if (!declaration || !ts.isObjectBindingPattern(declaration.name)) return undefined;
  const names: string[] = [];
  for (const element of declaration.name.elements) {
    if (element.dotDotDotToken) return undefined;
    const key = element.propertyName ?? element.name;
    if (!ts.isIdentifier(key)) return undefined;
    names.push(key.text);
  }
  return names;
}

function main(): void {
  const uses = findExportUses();
  const unused = uses.filter((u) => !u.users.product.length && !u.users.test.length && !u.users.tool.length);
  // A test helper's exports are for tests: only product code that tests alone use is listed.
  const testOnlyAll = uses.filter(
    (u) => roleOf(u.file) !== 'test' && !u.users.product.length && !u.users.tool.length && u.users.test.length,
  );
  const seamKey = (u: ExportUse) => `${u.file}#${u.name}`;
  const seams = testOnlyAll.filter((u) => seamKey(u) in TEST_SEAMS);
  const testOnly = testOnlyAll.filter((u) => !(seamKey(u) in TEST_SEAMS));
  const stale = Object.keys(TEST_SEAMS).filter((key) => !seams.some((u) => seamKey(u) === key));
  const toolOnly = uses.filter((u) => !u.users.product.length && u.users.tool.length);
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ unused, testOnly, seams, stale, toolOnly }, null, 2));
    return;
  }
  const list = (title: string, items: ExportUse[], detail: (u: ExportUse) => string = () => '') => {
    const values = items.filter((u) => u.kind === 'value').length;
    console.log(`\n## ${title} (${items.length}: ${values} values, ${items.length - values} types)`);
    for (const u of items) console.log(`${u.file}:${u.line} ${u.kind === 'type' ? 'type ' : ''}${u.name}${detail(u)}`);
  };
  list('Used by no other file', unused);
  list('Used only by tests', testOnly, (u) => `  ← ${u.users.test.join(', ')}`);
  list('Test seams (allow-listed in TEST_SEAMS)', seams, (u) => `: ${TEST_SEAMS[seamKey(u)]}`);
  if (stale.length) console.log(`\n## TEST_SEAMS entries that are no longer test-only exports (remove them)\n${stale.join('\n')}`);
  list('Used only by bench/ or scripts/ (and perhaps tests)', toolOnly, (u) => `  ← ${u.users.tool.join(', ')}`);
  console.log(`\n${uses.length} exports in ${new Set(uses.map((u) => u.file)).size} files.`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
