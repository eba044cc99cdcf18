// The CLI bundle: dist/bundle.js (tsc's output of src/bundle.ts) and every @syclkit module it
// reaches, in one file, dist/syclkit.bundle.js, which bin/syclkit.js loads. Node then reads and
// links one module at start-up instead of about 235. Run after tsc (`npm run build` does both).
//
// The bundle stays in dist/, beside main.js, so that what the bundled code finds relative to its
// own file is what it finds unbundled: main.ts reads '../package.json'; image-workers.ts starts
// its workers on the module its code is in (the bundle exports imageWorkerMain too); the yaml and
// koffi packages are required through createRequire(import.meta.url), so from the cli package,
// whose dependencies must name them (checked here, as is every other use of import.meta.url).
//
// Also writes dist/syclkit.bundle.stamp.json (not published): the mtimes of the .tsbuildinfo of
// every package the bundle was made from and of this script, so that bin/syclkit.js skips a
// bundle older than a later `tsc -b` in this checkout, and --if-stale rebuilds only then.
//
// Usage: node scripts/bundle.mjs [--if-stale] [--outfile PATH]
import { build } from 'esbuild';
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('..', import.meta.url));
const dist = join(cli, 'dist');
const entry = join(dist, 'bundle.js');
const args = process.argv.slice(2);
const outIndex = args.indexOf('--outfile');
const outfile = outIndex >= 0 ? resolve(args[outIndex + 1]) : join(dist, 'syclkit.bundle.js');
const stampFile = outfile.replace(/\.js$/, '.stamp.json');

/**
 * Where bundled code uses import.meta.url, and why that holds in the bundle. A new use fails the
 * build: in the bundle, import.meta.url is the bundle's file, not the module's.
 */
const IMPORT_META_URL = new Map([
  ['cli/dist/main.js', "reads '../package.json': the bundle is in dist/ as main.js is"],
  ['cli/dist/driver/image-workers.js', 'workers import the module the code is in and call imageWorkerMain, which the bundle exports'],
  ['device-config/dist/yaml.js', "createRequire('yaml'): a dependency of the cli package too"],
  ['runtime/dist/cuda/koffi-driver.js', "createRequire('koffi'): a dependency of the cli package too"],
]);

/** The packages' .tsbuildinfo files the inputs come from and this script, with their mtimes (the stamp). */
function stampOf(inputs) {
  const infos = new Set();
  for (const input of inputs) {
    const m = /^(.*?[\\/]dist)[\\/]/.exec(join(cli, input));
    if (m !== null && existsSync(join(m[1], '.tsbuildinfo'))) infos.add(join(m[1], '.tsbuildinfo'));
  }
  infos.add(fileURLToPath(import.meta.url)); // this script: a change of options makes a new bundle
  return Object.fromEntries([...infos].sort().map((path) => [relative(dirname(outfile), path).split(sep).join('/'), statSync(path).mtimeMs]));
}

function isFresh() {
  if (!existsSync(outfile) || !existsSync(stampFile)) return false;
  const stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
  const entries = Object.entries(stamp.inputs ?? {});
  return entries.length > 0 && entries.every(([path, mtime]) => {
    const file = resolve(dirname(outfile), path);
    return existsSync(file) && statSync(file).mtimeMs === mtime;
  });
}

if (!existsSync(entry)) {
  process.stderr.write(`bundle: ${relative(process.cwd(), entry)} is missing; run tsc -b first\n`);
  process.exit(1);
}
if (args.includes('--if-stale') && isFresh()) process.exit(0);

const manifest = JSON.parse(readFileSync(join(cli, 'package.json'), 'utf8'));
const result = await build({
  absWorkingDir: cli, // the paths in the bundle's comments are relative to it: the same in any checkout
  entryPoints: [entry],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: `node${manifest.engines?.node?.replace(/^>=/, '') ?? '20.19'}`,
  external: ['node:*'],
  outfile: `${outfile}.tmp`,
  metafile: true,
  logLevel: 'warning',
});

const problems = [];
const inputs = Object.keys(result.metafile.inputs);
const declared = new Set(Object.keys(manifest.dependencies ?? {}));
for (const input of inputs) {
  const key = relative(dirname(cli), join(cli, input)).split(sep).join('/');
  const text = readFileSync(join(cli, input), 'utf8');
  if (text.includes('import.meta.url') && !IMPORT_META_URL.has(key)) {
    problems.push(`${input} uses import.meta.url, which is the bundle's file in the bundle: make it hold there and list it in scripts/bundle.mjs`);
  }
  for (const m of text.matchAll(/createRequire\([^)]*\)\(\s*['"]([^'"]+)['"]/g)) {
    if (!m[1].startsWith('node:') && !declared.has(m[1])) problems.push(`${input} requires '${m[1]}' from the bundle's location: add it to the cli package's dependencies`);
  }
}
for (const [path, output] of Object.entries(result.metafile.outputs)) {
  for (const imported of output.imports ?? []) {
    if (imported.external && !imported.path.startsWith('node:') && !declared.has(imported.path.replace(/^((@[^/]+\/)?[^/]+).*/, '$1'))) {
      problems.push(`${path} imports '${imported.path}': add it to the cli package's dependencies`);
    }
  }
}
if (problems.length > 0) {
  rmSync(`${outfile}.tmp`, { force: true });
  process.stderr.write(problems.map((p) => `bundle: ${p}\n`).join(''));
  process.exit(1);
}
renameSync(`${outfile}.tmp`, outfile);
writeFileSync(stampFile, `${JSON.stringify({ inputs: stampOf(inputs) }, null, 2)}\n`);
