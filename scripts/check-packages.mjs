// npm run check:packages — each publishable package as it would be published: `publint --strict`
// (package.json fields, exports map, files) and `attw --pack --profile esm-only` (the types resolve
// for ESM consumers under node16 and bundler resolution). Offline: both pack locally.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { publishablePackages, requireBuilt, root } from './packages.mjs';

const bin = (name) => join(root, 'node_modules', '.bin', name);
const packages = publishablePackages();
requireBuilt(packages);
let failed = 0;
for (const { path, manifest } of packages) {
  const checks = [
    ['publint', [bin('publint'), '--strict', path]],
    ['attw', [bin('attw'), '--pack', path, '--profile', 'esm-only', '--format', 'ascii']],
  ];
  for (const [label, [command, ...args]] of checks) {
    const r = spawnSync(command, args, { cwd: path, encoding: 'utf8' });
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
