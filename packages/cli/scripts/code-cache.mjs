// Makes the V8 code cache of the CLI bundle (scripts/bundle.mjs runs it in a child process):
// loads the bundle as bin/syclkit.js does, under the CLI's V8 flags, runs a compile to three
// targets and an opt round trip of the demo's sample program, so that V8 has compiled what
// those commands run, and writes the cache beside the bundle (bin/load-bundle.js).
//
// Usage: node scripts/code-cache.mjs <dist/syclkit.bundle.cjs>
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { CLI_V8_FLAGS, loadBundle, writeCodeCache } from '../bin/load-bundle.js';

setFlagsFromString(CLI_V8_FLAGS);
const bundle = resolve(process.argv[2] ?? '');
const { exports: cli, script } = loadBundle(bundle, { useCache: false });
const work = mkdtempSync(join(tmpdir(), 'syclkit-code-cache-'));
try {
  const run = async (argv) => {
    const status = await cli.main(argv);
    if (status !== 0) throw new Error(`syclkit ${argv.join(' ')} exited with ${status}`);
  };
  await run(['demo', '-write-sample', work]);
  const units = readdirSync(work).filter((f) => f.endsWith('.ll')).sort().map((f) => join(work, f));
  const targets = '-fsycl-targets=spir64,intel_gpu_pvc,nvidia_gpu_sm_80';
  await run(['compile', ...units, targets, '-fsycl-device-code-split=per_kernel', '-fsycl-device-obj=llvmir', '-aot', 'nvidia_gpu_sm_80=ir', '-o', join(work, 'app.fatbin')]);
  await run(['opt', '-S', units[0], '-o', join(work, 'round-trip.ll')]);
} finally {
  rmSync(work, { recursive: true, force: true });
}
writeCodeCache(bundle, script);
