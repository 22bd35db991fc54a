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

type Role = 'product' | 'test' | 'tool';

function roleOf(file: string): Role {
  if (/\.test\.tsx?$/.test(file) || /^(test|e2e)\//.test(file) || /\/test\//.test(file)) return 'test';
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
        useAllOf(node.arguments[0], by);
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

function main(): void {
  const uses = findExportUses();
  const unused = uses.filter((u) => !u.users.product.length && !u.users.test.length && !u.users.tool.length);
  const testOnly = uses.filter((u) => !u.users.product.length && !u.users.tool.length && u.users.test.length);
  const toolOnly = uses.filter((u) => !u.users.product.length && u.users.tool.length);
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ unused, testOnly, toolOnly }, null, 2));
    return;
  }
  const list = (title: string, items: ExportUse[], detail: (u: ExportUse) => string = () => '') => {
    const values = items.filter((u) => u.kind === 'value').length;
    console.log(`\n## ${title} (${items.length}: ${values} values, ${items.length - values} types)`);
    for (const u of items) console.log(`${u.file}:${u.line} ${u.kind === 'type' ? 'type ' : ''}${u.name}${detail(u)}`);
  };
  list('Used by no other file', unused);
  list('Used only by tests', testOnly, (u) => `  ← ${u.users.test.join(', ')}`);
  list('Used only by bench/ or scripts/ (and perhaps tests)', toolOnly, (u) => `  ← ${u.users.tool.join(', ')}`);
  console.log(`\n${uses.length} exports in ${new Set(uses.map((u) => u.file)).size} files.`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
