// The CLI bundle: dist/bundle-entry.js (tsc's output of src/bundle-entry.ts) and every module it
// reaches, @syclkit packages included, as dist/syclkit.bundle.js plus the chunks it loads on
// demand in dist/bundle-chunks/ (esbuild's code splitting: each command's code is loaded when it
// runs, as with the modules of dist/). bin/syclkit.js loads it: Node then reads and links a few
// files instead of about 235 modules. Run after tsc (`npm run build` does both).
//
// What bundled code finds relative to its own file must hold there, so every use of
// import.meta.url is listed below with where it must land, and the build fails on a new one:
// main.ts reads '../package.json' (it stays in the entry, in dist/ as main.js is); image workers
// import the bundle's entry (src/driver/worker-entry.ts); the yaml and koffi packages are required
// through createRequire(import.meta.url), so from the cli package, whose dependencies must name
// them (checked here, as are the packages the bundle imports).
//
// Also writes dist/syclkit.bundle.stamp.json (not published): the mtimes of the .tsbuildinfo of
// every package the bundle was made from and of this script, so that bin/syclkit.js skips a
// bundle older than a later `tsc -b` in this checkout, and --if-stale rebuilds only then.
//
// Usage: node scripts/bundle.mjs [--if-stale] [--out DIR (default dist)]
import { build } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('..', import.meta.url));
const entry = join(cli, 'dist', 'bundle-entry.js');
const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
const out = outIndex >= 0 ? resolve(args[outIndex + 1]) : join(cli, 'dist');
const ENTRY_NAME = 'syclkit.bundle';
const CHUNKS = 'bundle-chunks';
const outfile = join(out, `${ENTRY_NAME}.js`);
const stampFile = join(out, `${ENTRY_NAME}.stamp.json`);

/**
 * Where bundled code uses import.meta.url (the file of the chunk it lands in, not the module's),
 * why that holds, and whether it must land in the entry (dist/syclkit.bundle.js, beside main.js).
 */
const IMPORT_META_URL = new Map([
  ['cli/dist/main.js', { inEntry: true, why: "reads '../package.json'" }],
  ['cli/dist/bundle-entry.js', { inEntry: true, why: 'names itself the module image workers import' }],
  ['cli/dist/driver/image-workers.js', { inEntry: false, why: 'workers import the module worker-entry.ts names: the bundle entry' }],
  ['device-config/dist/yaml.js', { inEntry: false, why: "createRequire('yaml'): a dependency of the cli package too" }],
  ['runtime/dist/cuda/koffi-driver.js', { inEntry: false, why: "createRequire('koffi'): a dependency of the cli package too" }],
]);

/** The packages' .tsbuildinfo files the inputs come from and this script, with their mtimes (the stamp). */
function stampOf(inputs) {
  const infos = new Set();
  for (const input of inputs) {
    const m = /^(.*?[\\/]dist)[\\/]/.exec(join(cli, input));
    if (m !== null && existsSync(join(m[1], '.tsbuildinfo'))) infos.add(join(m[1], '.tsbuildinfo'));
  }
  infos.add(fileURLToPath(import.meta.url)); // this script: a change of options makes a new bundle
  return Object.fromEntries([...infos].sort().map((path) => [relative(out, path).split(sep).join('/'), statSync(path).mtimeMs]));
}

function isFresh() {
  if (!existsSync(outfile) || !existsSync(stampFile)) return false;
  const entries = Object.entries(JSON.parse(readFileSync(stampFile, 'utf8')).inputs ?? {});
  return entries.length > 0 && entries.every(([path, mtime]) => statSync(resolve(out, path), { throwIfNoEntry: false })?.mtimeMs === mtime);
}

if (!existsSync(entry)) {
  process.stderr.write(`bundle: ${relative(process.cwd(), entry)} is missing; run tsc -b first\n`);
  process.exit(1);
}
if (args.includes('--if-stale') && isFresh()) process.exit(0);

const manifest = JSON.parse(readFileSync(join(cli, 'package.json'), 'utf8'));
const tmp = join(out, `.bundle-tmp-${process.pid}`);
rmSync(tmp, { recursive: true, force: true });
const result = await build({
  absWorkingDir: cli, // the paths in the bundle's comments are relative to it: the same in any checkout
  entryPoints: { [ENTRY_NAME]: entry },
  bundle: true,
  splitting: true,
  chunkNames: `${CHUNKS}/[name]-[hash]`,
  platform: 'node',
  format: 'esm',
  target: `node${manifest.engines?.node?.replace(/^>=/, '') ?? '20.19'}`,
  external: ['node:*'],
  outdir: tmp,
  metafile: true,
  logLevel: 'warning',
});

const problems = [];
const declared = new Set(Object.keys(manifest.dependencies ?? {}));
const outputs = Object.entries(result.metafile.outputs);
const entryOutput = relative(cli, join(tmp, `${ENTRY_NAME}.js`)).split(sep).join('/');
for (const [path, output] of outputs) {
  for (const input of Object.keys(output.inputs)) {
    const key = relative(dirname(cli), join(cli, input)).split(sep).join('/');
    const text = readFileSync(join(cli, input), 'utf8');
    if (text.includes('import.meta.url')) {
      const rule = IMPORT_META_URL.get(key);
      if (rule === undefined) problems.push(`${input} uses import.meta.url, which is its chunk's file in the bundle: make it hold there and list it in scripts/bundle.mjs`);
      else if (rule.inEntry && path !== entryOutput) problems.push(`${input} must be in the bundle's entry (${rule.why}), but esbuild put it in ${path}`);
    }
    for (const m of text.matchAll(/createRequire\([^)]*\)\(\s*['"]([^'"]+)['"]/g)) {
      if (!m[1].startsWith('node:') && !declared.has(m[1])) problems.push(`${input} requires '${m[1]}' from the bundle's location: add it to the cli package's dependencies`);
    }
  }
  for (const imported of output.imports ?? []) {
    if (imported.external && !imported.path.startsWith('node:') && !declared.has(imported.path.replace(/^((@[^/]+\/)?[^/]+).*/, '$1'))) {
      problems.push(`${path} imports '${imported.path}': add it to the cli package's dependencies`);
    }
  }
}
if (problems.length > 0) {
  rmSync(tmp, { recursive: true, force: true });
  process.stderr.write(problems.map((p) => `bundle: ${p}\n`).join(''));
  process.exit(1);
}

// Into place: the new chunks beside the old ones (names carry a content hash), then the entry (a
// rename: a syclkit starting meanwhile runs the old bundle or the new one, whole), then the old
// chunks go.
const chunks = readdirSync(join(tmp, CHUNKS)).sort();
mkdirSync(join(out, CHUNKS), { recursive: true });
for (const chunk of chunks) renameSync(join(tmp, CHUNKS, chunk), join(out, CHUNKS, chunk));
renameSync(join(tmp, `${ENTRY_NAME}.js`), outfile);
for (const old of readdirSync(join(out, CHUNKS))) if (!chunks.includes(old)) rmSync(join(out, CHUNKS, old));
rmSync(tmp, { recursive: true, force: true });
const inputs = Object.keys(result.metafile.inputs);
writeFileSync(stampFile, `${JSON.stringify({ inputs: stampOf(inputs) }, null, 2)}\n`);
