// npm run release:dry — what a release would do, without publishing or changing anything:
// 1. `changeset status --verbose`: the pending changesets and the version each package would get;
// 2. `npm pack --dry-run` per publishable package: the tarball's name, size and files, checked to
//    hold the built entry point and its types and no test files.
// Offline: changeset reads .changeset/ and git; npm pack only packs locally.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { publishablePackages, requireBuilt, root } from './packages.mjs';

const packages = publishablePackages();
requireBuilt(packages);

process.stdout.write('== changeset status --verbose\n');
const status = spawnSync(join(root, 'node_modules', '.bin', 'changeset'), ['status', '--verbose'], { cwd: root, encoding: 'utf8' });
process.stdout.write(`${status.stdout}${status.stderr}`);
if (status.status !== 0) {
  process.stdout.write('changeset status failed\n');
  process.exit(1);
}

process.stdout.write('\n== npm pack --dry-run (nothing is written or published)\n');
let failed = 0;
for (const { path, manifest } of packages) {
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: path, encoding: 'utf8' });
  let info;
  try {
    info = JSON.parse(r.stdout)[0];
  } catch {
    failed++;
    process.stdout.write(`FAIL  ${manifest.name}: npm pack --dry-run failed\n${r.stderr}\n`);
    continue;
  }
  const files = info.files.map((f) => f.path);
  const problems = [];
  const entry = manifest.exports?.['.']?.import ?? manifest.main;
  const types = manifest.exports?.['.']?.types ?? manifest.types;
  for (const needed of [entry, types, 'package.json']) {
    if (needed !== undefined && !files.includes(needed.replace(/^\.\//, ''))) problems.push(`missing ${needed}`);
  }
  const tests = files.filter((f) => /\.test\.|\.tsbuildinfo$/.test(f));
  if (tests.length > 0) problems.push(`ships ${tests.length} test or build-info file(s), e.g. ${tests[0]}`);
  if (problems.length > 0) {
    failed++;
    process.stdout.write(`FAIL  ${info.filename}: ${problems.join('; ')}\n`);
  } else {
    process.stdout.write(`ok    ${info.filename.padEnd(40)} ${String(info.entryCount).padStart(4)} files  ${(info.size / 1024).toFixed(1).padStart(7)} KiB packed  ${(info.unpackedSize / 1024).toFixed(1).padStart(8)} KiB unpacked\n`);
  }
}
process.stdout.write(
  `\n${packages.length} packages would be packed${failed === 0 ? '' : `; ${failed} with problems`} (tarballs carry today's versions; 'changeset version' sets the ones above).\n` +
    'To release for real: npx changeset version && npm run build && npx changeset publish\n',
);
process.exitCode = failed === 0 ? 0 : 1;
