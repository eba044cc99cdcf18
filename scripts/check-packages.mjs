// npm run check:packages — each publishable package as it would be published: `publint --strict`
// (package.json fields, exports map, files) and `attw --pack --profile esm-only` (the types resolve
// for ESM consumers under node16 and bundler resolution); for a package with a `bin`, that the
// packed files hold what its bin loads (the cli: bin/load-bundle.js, the bundle and its code
// cache, and dist/main.js it falls back to) and not the bundle's stamp (it names this checkout's
// files). Offline: all three pack locally.
import { spawnSync } from 'node:child_process';
import { join, posix } from 'node:path';
import { publishablePackages, requireBuilt, root } from './packages.mjs';

/** What a package's bin needs at run time, beyond its own file: the cli's bin loads these. */
const BIN_LOADS = { '@syclkit/cli': () => ['bin/load-bundle.js', 'dist/syclkit.bundle.cjs', 'dist/syclkit.bundle.cache', 'dist/main.js'] };
/** Build outputs that must not be published. */
const NOT_PUBLISHED = { '@syclkit/cli': ['dist/syclkit.bundle.stamp.json'] };

const bin = (name) => join(root, 'node_modules', '.bin', name);
const packages = publishablePackages();
requireBuilt(packages);
let failed = 0;
for (const { path, manifest } of packages) {
  const checks = [
    ['publint', [bin('publint'), '--strict', path]],
    ['attw', [bin('attw'), '--pack', path, '--profile', 'esm-only', '--format', 'ascii']],
    ...(manifest.bin === undefined ? [] : [['bin', binFilesCheck(manifest)]]),
  ];
  for (const [label, check] of checks) {
    const r = typeof check === 'function' ? check(path) : spawnSync(check[0], check.slice(1), { cwd: path, encoding: 'utf8' });
    if (r.status === 0) {
      process.stdout.write(`ok    ${label.padEnd(8)} ${manifest.name}\n`);
    } else {
      failed++;
      process.stdout.write(`FAIL  ${label.padEnd(8)} ${manifest.name}\n${r.stdout}${r.stderr}\n`);
    }
  }
}
process.stdout.write(`${packages.length} packages, ${failed === 0 ? 'all checks passed' : `${failed} check(s) failed`}\n`);
process.exitCode = failed === 0 ? 0 : 1;

/** Checks the packed file list (`npm pack --dry-run`) against the bin and what it loads. */
function binFilesCheck(manifest) {
  return (path) => {
    const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: path, encoding: 'utf8' });
    if (r.status !== 0) return r;
    const packed = new Set(JSON.parse(r.stdout)[0].files.map((f) => f.path));
    const bins = typeof manifest.bin === 'string' ? [manifest.bin] : Object.values(manifest.bin);
    const problems = [
      ...[...bins.map((b) => posix.normalize(b)), ...(BIN_LOADS[manifest.name]?.(path) ?? [])].filter((f) => !packed.has(f)).map((f) => `not packed: ${f} (run npm run build; check "files")`),
      ...(NOT_PUBLISHED[manifest.name] ?? []).filter((f) => packed.has(f)).map((f) => `packed, but must not be: ${f}`),
    ];
    return { status: problems.length === 0 ? 0 : 1, stdout: problems.join('\n'), stderr: '' };
  };
}
