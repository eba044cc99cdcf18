// The CLI bundle: dist/bundle-entry.js (tsc's output of src/bundle-entry.ts) and every module it
// reaches, @syclkit packages included, as one CommonJS file, dist/syclkit.bundle.cjs, and its V8
// code cache, dist/syclkit.bundle.cache. bin/syclkit.js loads both (bin/load-bundle.js): Node then
// reads two files instead of about 235 modules, and V8 neither parses the bundle nor compiles the
// functions a run needs again. Commands' modules are still initialized only when the command runs
// (esbuild turns their dynamic imports into lazy initializers). Run after tsc (`npm run build`
// does both).
//
// The code cache: a child process loads the new bundle through bin/load-bundle.js under the
// CLI's V8 flags, runs a compile and an opt round trip of the demo's sample program (so that the
// functions those run are compiled), and writes what V8 compiled. It is not reproducible byte for
// byte, is checked against the bundle's bytes when loaded, and is an optimisation only: if it
// cannot be made the build says so and the CLI runs without it.
//
// What bundled code finds relative to its own file must hold there, so every use of
// import.meta.url (the bundle's own file URL in the bundle) is listed below with why it holds,
// and the build fails on a new one: main.ts reads '../package.json' (the bundle is in dist/, as
// main.js is); image workers import the module worker-entry.ts names (the bundle, which exports
// imageWorkerMain); the yaml and koffi packages are required through createRequire(import.meta.url),
// so from the cli package, whose dependencies must name them (checked here, as are the packages
// the bundle imports).
//
// Also writes dist/syclkit.bundle.stamp.json (not published): the mtimes of the .tsbuildinfo of
// every package the bundle was made from and of this script, so that bin/syclkit.js skips a
// bundle older than a later `tsc -b` in this checkout, and --if-stale rebuilds only then.
//
// Usage: node scripts/bundle.mjs [--if-stale] [--out DIR (default dist)]; --clean removes the bundle
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('..', import.meta.url));
const entry = join(cli, 'dist', 'bundle-entry.js');
const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
const out = outIndex >= 0 ? resolve(args[outIndex + 1]) : join(cli, 'dist');
const ENTRY_NAME = 'syclkit.bundle';
const outfile = join(out, `${ENTRY_NAME}.cjs`);
const cacheFile = join(out, `${ENTRY_NAME}.cache`);
const stampFile = join(out, `${ENTRY_NAME}.stamp.json`);
/** What an earlier build (ESM with code splitting) made: removed by a build and by --clean. */
const OLD_OUTPUTS = [`${ENTRY_NAME}.js`, 'bundle-chunks'];
/** The name the bundle's code reads its own file URL from (import.meta.url in the sources). */
const BUNDLE_URL = '__syclkitBundleUrl';

/** Where bundled code uses import.meta.url (the bundle's file, not the module's) and why that holds. */
const IMPORT_META_URL = new Map([
  ['cli/dist/main.js', "reads '../package.json': the bundle is in dist/, beside main.js"],
  ['cli/dist/bundle-entry.js', 'names itself (the bundle) the module image workers import'],
  ['cli/dist/driver/image-workers.js', 'workers import the module worker-entry.ts names: the bundle'],
  ['device-config/dist/yaml.js', "createRequire('yaml'): a dependency of the cli package too"],
  ['runtime/dist/cuda/koffi-driver.js', "createRequire('koffi'): a dependency of the cli package too"],
]);

/**
 * Node built-in modules that few runs use and that cost start-up time to load (`child_process`
 * brings `net` and streams, `crypto` its key and hash modules: about 4 ms each on a tiny `opt -S`
 * of ~55 ms of its own work). Bundled code reaches them through a stand-in module whose exports
 * are getters that load the real module on first use, so a run loads only those it calls into.
 */
const LAZY_BUILTINS = ['node:child_process', 'node:crypto', 'node:os', 'node:worker_threads'];

/** The source of the stand-in for `name` (one of {@link LAZY_BUILTINS}): every export, loaded when first read. */
async function lazyBuiltinSource(name) {
  const keys = Object.keys(await import(name)).filter((key) => key !== 'default');
  return [
    `let loaded;`,
    `const load = () => (loaded ??= require(${JSON.stringify(name)}));`,
    `for (const key of ${JSON.stringify(keys)}) Object.defineProperty(exports, key, { enumerable: true, get: () => load()[key] });`,
    '',
  ].join('\n');
}

const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(build) {
    const filter = new RegExp(`^(${LAZY_BUILTINS.join('|')})$`);
    // the stand-in's own require of the module stays external
    build.onResolve({ filter }, (args) => (args.namespace === 'lazy-builtin' ? { path: args.path, external: true } : { path: args.path, namespace: 'lazy-builtin' }));
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, async (args) => ({ contents: await lazyBuiltinSource(args.path), loader: 'js' }));
  },
};

/** The packages' .tsbuildinfo files the inputs come from and this script, with their mtimes (the stamp). */
function stampOf(inputs) {
  const infos = new Set();
  for (const input of inputs) {
    const m = /^(.*?[\\/]dist)[\\/]/.exec(join(cli, input));
    if (m !== null && existsSync(join(m[1], '.tsbuildinfo'))) infos.add(join(m[1], '.tsbuildinfo'));
  }
  // this script and what makes the code cache: a change of options makes a new bundle
  for (const script of [import.meta.url, new URL('code-cache.mjs', import.meta.url), new URL('../bin/load-bundle.js', import.meta.url)]) infos.add(fileURLToPath(script));
  return Object.fromEntries([...infos].sort().map((path) => [relative(out, path).split(sep).join('/'), statSync(path).mtimeMs]));
}

function isFresh() {
  if (!existsSync(outfile) || !existsSync(stampFile)) return false;
  const entries = Object.entries(JSON.parse(readFileSync(stampFile, 'utf8')).inputs ?? {});
  return entries.length > 0 && entries.every(([path, mtime]) => statSync(resolve(out, path), { throwIfNoEntry: false })?.mtimeMs === mtime);
}

if (args.includes('--clean')) {
  for (const path of [outfile, cacheFile, stampFile, ...OLD_OUTPUTS.map((f) => join(out, f))]) rmSync(path, { recursive: true, force: true });
  process.exit(0);
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
  platform: 'node',
  format: 'cjs',
  outExtension: { '.js': '.cjs' },
  target: `node${manifest.engines?.node?.replace(/^>=/, '') ?? '20.19'}`,
  external: ['node:*'],
  define: { 'import.meta.url': BUNDLE_URL },
  banner: { js: `var ${BUNDLE_URL} = require('node:url').pathToFileURL(__filename).href;` },
  outdir: tmp,
  metafile: true,
  logLevel: 'warning',
  // without comments and layout the bundle is a quarter smaller (less to read, check and hash at
  // each start) and, its comments' non-ASCII characters gone, ASCII, which bin/load-bundle.js
  // reads as one-byte text: about 5% of a tiny `opt -S` in all. Names and code stay as they are.
  minifyWhitespace: true,
  plugins: [lazyBuiltins],
});

const problems = [];
const declared = new Set(Object.keys(manifest.dependencies ?? {}));
const outputs = Object.entries(result.metafile.outputs);
for (const [path, output] of outputs) {
  for (const input of Object.keys(output.inputs)) {
    if (input.startsWith('lazy-builtin:')) continue; // a stand-in made above, no file
    const key = relative(dirname(cli), join(cli, input)).split(sep).join('/');
    const text = readFileSync(join(cli, input), 'utf8');
    if (text.includes('import.meta') && !IMPORT_META_URL.has(key)) {
      problems.push(`${input} uses import.meta, which in the bundle is the bundle's file URL (import.meta.url) or nothing: make it hold there and list it in scripts/bundle.mjs`);
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

// Into place: the entry by a rename (a syclkit starting meanwhile runs the old bundle or the new
// one, whole; the old cache does not match the new bundle's bytes and is not used), then its
// cache, then the stamp.
renameSync(join(tmp, `${ENTRY_NAME}.cjs`), outfile);
rmSync(tmp, { recursive: true, force: true });
for (const old of OLD_OUTPUTS) rmSync(join(out, old), { recursive: true, force: true });
makeCodeCache();
const inputs = Object.keys(result.metafile.inputs);
writeFileSync(stampFile, `${JSON.stringify({ inputs: stampOf(inputs) }, null, 2)}\n`);

/**
 * Runs scripts/code-cache.mjs in a child: it must run under the CLI's V8 flags and only them (V8
 * rejects a cache made under others), so without this process's NODE_OPTIONS.
 */
function makeCodeCache() {
  rmSync(cacheFile, { force: true });
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const r = spawnSync(process.execPath, [join(cli, 'scripts', 'code-cache.mjs'), outfile], { encoding: 'utf8', env, stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0 || !existsSync(cacheFile)) {
    process.stderr.write(`bundle: warning: no code cache made (the CLI runs without it, starting slower):\n${r.stderr ?? r.error?.message ?? ''}\n`);
  }
}
