// Where the embed's bytes go: each bundle is built again with a source map into a temporary directory, and every
// byte of the minified output is attributed to the source file it came from (as source-map-explorer does). The gzip
// column is each file's share of the bundle's gzip size, in proportion to its minified bytes (gzip cannot be split
// exactly by file). Run: npx tsx bench/embed-bytes.ts   (prints Markdown; bench/embed.ts puts it into BENCHMARKS.md)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { eachMapping, TraceMap } from '@jridgewell/trace-mapping';
import { build } from 'vite';

const BUNDLES = [
  { mode: 'loader', file: 'sidebar.js' },
  { mode: 'app', file: 'app.js' },
  { mode: 'more', file: 'form.js' },
] as const;

/**
 * The same count on the build before the embed was slimmed (commit abe1757: loader and app only, no click queue,
 * no origin labels): ≈ gzip bytes per source file, to show the figures side by side.
 */
const BEFORE: Record<string, Record<string, number>> = {
  'sidebar.js': {
    total: 1496,
    'embed/loader/sidebar.ts': 680,
    'embed/shared/settings.ts': 537,
    'embed/shared/language.ts': 251,
    '(glue)': 28,
  },
  'app.js': {
    total: 14820,
    preact: 4135,
    'embed/app/styles.ts': 1919,
    'embed/app/App.tsx': 1742,
    'embed/app/ui.tsx': 1423,
    'embed/app/form.tsx': 1215,
    'preact/hooks': 1022,
    'embed/app/popups.tsx': 857,
    'embed/app/consent.tsx': 721,
    'embed/shared/order.ts': 561,
    'embed/app/env.ts': 310,
    'embed/app/placement.ts': 256,
    'embed/shared/consent-memory.ts': 232,
    'embed/app/main.tsx': 209,
    'preact/jsx-runtime': 135,
    '(glue)': 41,
    'embed/strings/index.ts': 30,
    'embed/shared/context.ts': 11,
  },
};

/** Minified bytes per source file (paths relative to the project, node_modules folded to the package). */
function attribute(code: string, map: string, mapDir: string): Map<string, number> {
  const traced = new TraceMap(map);
  const lineStarts = [0];
  for (let i = 0; i < code.length; i++) if (code[i] === '\n') lineStarts.push(i + 1);
  const marks: { at: number; source: string }[] = [];
  eachMapping(traced, (m) => {
    marks.push({
      at: lineStarts[m.generatedLine - 1]! + m.generatedColumn,
      source: m.source ? owner(relative(process.cwd(), join(mapDir, m.source))) : '(glue)',
    });
  });
  marks.sort((a, b) => a.at - b.at);
  const bytes = new Map<string, number>();
  const add = (source: string, n: number) => bytes.set(source, (bytes.get(source) ?? 0) + n);
  add('(glue)', marks[0]?.at ?? code.length);
  marks.forEach((mark, i) => {
    add(mark.source, (marks[i + 1]?.at ?? code.length) - mark.at);
  });
  return bytes;
}

function owner(path: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(path);
  if (!pkg) return path;
  // preact's hooks live in their own folder of the same package.
  return pkg[1] === 'preact' && pkg[2]!.startsWith('hooks')
    ? 'preact/hooks'
    : pkg[1] === 'preact' && pkg[2]!.startsWith('jsx')
      ? 'preact/jsx-runtime'
      : pkg[1]!;
}

interface Measured {
  file: string;
  minified: number;
  gzip: number;
  /** ≈ gzip bytes per source file. */
  bySource: Map<string, number>;
}

async function measure(): Promise<Measured[]> {
  const out: Measured[] = [];
  for (const { mode, file } of BUNDLES) {
    const dir = mkdtempSync(join(tmpdir(), 'embed-bytes-'));
    try {
      await build({ mode, logLevel: 'silent', build: { outDir: dir, emptyOutDir: true, sourcemap: true } });
      const code = readFileSync(join(dir, file), 'utf8');
      const bytes = attribute(code, readFileSync(join(dir, `${file}.map`), 'utf8'), dir);
      const gzip = gzipSync(code, { level: 9 }).length;
      const bySource = new Map([...bytes].map(([source, n]) => [source, Math.round((gzip * n) / code.length)]));
      out.push({ file, minified: code.length, gzip, bySource });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return out;
}

/** A Markdown table: ≈ gzip bytes per source file in each bundle, before and now, largest first. */
export async function breakdown(): Promise<string[]> {
  const now = await measure();
  const files = ['sidebar.js', 'app.js', 'form.js'];
  const cell = (n: number | undefined) => (n === undefined ? '' : String(n));
  const sources = new Set<string>();
  for (const m of now) for (const source of m.bySource.keys()) sources.add(source);
  for (const before of Object.values(BEFORE))
    for (const source of Object.keys(before)) if (source !== 'total') sources.add(source);
  const nowOf = (file: string) => now.find((m) => m.file === file);
  const weight = (source: string) =>
    Math.max(...files.map((f) => Math.max(nowOf(f)?.bySource.get(source) ?? 0, BEFORE[f]?.[source] ?? 0)));
  const rows = [
    '| source | sidebar.js before | sidebar.js now | app.js before | app.js now | form.js now |',
    '|---|---|---|---|---|---|',
    `| **whole bundle, gzip** | ${BEFORE['sidebar.js']!.total} | ${nowOf('sidebar.js')!.gzip} | ${BEFORE['app.js']!.total} | ${nowOf('app.js')!.gzip} | ${nowOf('form.js')!.gzip} |`,
  ];
  for (const source of [...sources].sort((a, b) => weight(b) - weight(a))) {
    const [l, a, f] = files.map((file) => nowOf(file)?.bySource.get(source));
    rows.push(
      `| ${source} | ${cell(BEFORE['sidebar.js']![source])} | ${cell(l)} | ${cell(BEFORE['app.js']![source])} | ${cell(a)} | ${cell(f)} |`,
    );
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log((await breakdown()).join('\n'));
