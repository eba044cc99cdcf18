/**
 * `-j`: images shared among threads give the output of one thread, byte for byte — container,
 * files, tables, diagnostics and their order — and the worker threads do take images.
 * (The worker threads load the built CLI, so these tests need `npm run build`.)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DeviceConfig } from '@syclkit/device-config';
import { Context, parseModule } from '@syclkit/ir';
import { ContainerWriter, keepIrCompiler, type AotCompiler } from '@syclkit/offload-wrapper';
import { AOT_COMPILERS, AOT_JOBS, builtinRegistry, CONTAINER, IMAGE_PREFIXES } from '@syclkit/passes';
import { ImageSet, imageSetKind } from '@syclkit/post-link';
import { kernelsProgram, scratchDir } from '../../test/testing.js';

const dist = (path: string): string => fileURLToPath(new URL(`../../dist/${path}`, import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/syclkit.js', import.meta.url));
const built = existsSync(dist('driver/image-workers.js'));

const outputs = [{ name: 'spir64' }, { name: 'intel_gpu_tgllp', target: 'intel_gpu_tgllp' }];
const pipeline = 'split<kernel;bundling=design;kernels-only>,image(image-requirements<check-sycl-external>,filter-targets<empty-module>,image-properties,emit-ir,aot,wrap)';

describe.runIf(built)('image sets shared among threads', () => {
  it('give the container and the diagnostics of one thread, and the workers take images', async () => {
    const { runSharedSet } = (await import(dist('driver/image-workers.js'))) as typeof import('./image-workers.js');
    const text = kernelsProgram(60);
    const registry = builtinRegistry();
    const config = DeviceConfig.builtin();

    const single = new ImageSet(parseModule(text, { filename: 'p.ll' }), { outputs, deviceConfig: config });
    const one = ContainerWriter.toMemory();
    for (const o of outputs) one.addBundle(o.name);
    single.set(CONTAINER, one);
    single.set(IMAGE_PREFIXES, ['p_spir64', 'p_intel_gpu_tgllp']);
    const expected = await registry.build<ImageSet>(pipeline, { unit: imageSetKind }).runAsync(single);
    one.finish();

    const shared = ContainerWriter.toMemory();
    for (const o of outputs) shared.addBundle(o.name);
    let firstImage = true;
    let flags: Int32Array | undefined;
    const run = await runSharedSet({
      program: parseModule(text, { filename: 'p.ll' }),
      job: { filename: 'p.ll', pipeline, outputs, loadPass: [], wrap: { backends: ['ir', 'ir'], prefixes: ['p_spir64', 'p_intel_gpu_tgllp'] } },
      pipeline: registry.build<ImageSet>(pipeline, { unit: imageSetKind }),
      config,
      jobs: 3,
      container: shared,
      configure: (set) => set.set(IMAGE_PREFIXES, ['p_spir64', 'p_intel_gpu_tgllp']),
      onClaims: (view) => (flags = view),
      // The main thread holds its first image (its one claim) until a worker (parsing meanwhile)
      // has claimed another, whatever the host's load (a fixed wait failed on a busy host).
      instrumentations: [
        {
          name: 'slow-start',
          beforePass: (event) => {
            if (!firstImage || event.kind.name !== 'image') return;
            firstImage = false;
            const until = Date.now() + 60_000;
            while (Date.now() < until && claimedIds(flags!) < 2);
          },
        },
      ],
    });
    shared.finish();
    expect(run.result.stopped).toBe(false);
    expect(Buffer.from(shared.bytes()).equals(Buffer.from(one.bytes()))).toBe(true);
    const strip = (d: { code: string; message: string; severity: string }) => `${d.severity} ${d.code} ${d.message}`;
    expect(run.result.diagnostics.map(strip)).toEqual(expected.diagnostics.map(strip));
    expect(run.result.diagnostics.filter((d) => d.code === 'unexpected-aspect')).toHaveLength(20);
    expect(run.imagesByThread.reduce((a, b) => a + b, 0)).toBe(60);
    expect(run.imagesByThread.slice(1).some((n) => n > 0)).toBe(true);
  }, 120_000);

  it('print attachments in the order of the main thread: workers register its metadata kinds before parsing', async () => {
    const { runSharedSet } = (await import(dist('driver/image-workers.js'))) as typeof import('./image-workers.js');
    // The main thread's context knows !yyy_kind before !zzz_kind (ids decide the print order), but
    // the program's text shows !zzz_kind first: a fresh context would number them the other way.
    const lines = ['target triple = "spir64-unknown-unknown"', ''];
    for (let i = 0; i < 40; i++) {
      lines.push(`define weak_odr spir_kernel void @kernel_${i}() #0 !zzz_kind !0 ${i === 0 ? '' : '!yyy_kind !1 '}{`, '  ret void', '}');
    }
    lines.push('attributes #0 = { "sycl-module-id"="a.cpp" }', '!0 = !{i32 1}', '!1 = !{i32 2}', '');
    const read = () => {
      const context = new Context();
      context.md.kinds.id('yyy_kind');
      return parseModule(lines.join('\n'), { filename: 'k.ll', context });
    };
    const simple = 'split<kernel;bundling=design;kernels-only>,image(image-requirements,image-properties,emit-ir,aot,wrap)';
    const registry = builtinRegistry();
    const config = DeviceConfig.builtin();
    const single = new ImageSet(read(), { outputs: [{ name: 'spir64' }], deviceConfig: config });
    const one = ContainerWriter.toMemory();
    one.addBundle('spir64');
    single.set(CONTAINER, one);
    await registry.build<ImageSet>(simple, { unit: imageSetKind }).runAsync(single);
    one.finish();
    const shared = ContainerWriter.toMemory();
    shared.addBundle('spir64');
    let firstImage = true;
    let flags: Int32Array | undefined;
    const run = await runSharedSet({
      program: read(),
      job: { filename: 'k.ll', pipeline: simple, outputs: [{ name: 'spir64' }], loadPass: [], wrap: { backends: ['ir'], prefixes: ['spir64'] } },
      pipeline: registry.build<ImageSet>(simple, { unit: imageSetKind }),
      config,
      jobs: 2,
      container: shared,
      configure: (set) => set.set(IMAGE_PREFIXES, ['spir64']),
      onClaims: (view) => (flags = view),
      instrumentations: [
        {
          name: 'slow-start',
          // As above: the worker prints images whatever the host's load.
          beforePass: (event) => {
            if (!firstImage || event.kind.name !== 'image') return;
            firstImage = false;
            const until = Date.now() + 60_000;
            while (Date.now() < until && claimedIds(flags!) < 2);
          },
        },
      ],
    });
    shared.finish();
    expect(run.imagesByThread[1]).toBeGreaterThan(0);
    expect(Buffer.from(shared.bytes()).equals(Buffer.from(one.bytes()))).toBe(true);
  }, 120_000);

  it('keep image order with asynchronous AOT back ends (llc, llvm-spirv) and AOT_JOBS > 1 on the main thread', async () => {
    const { runSharedSet } = (await import(dist('driver/image-workers.js'))) as typeof import('./image-workers.js');
    const text = kernelsProgram(40);
    const registry = builtinRegistry();
    const config = DeviceConfig.builtin();
    const prefixes = ['p_spir64', 'p_intel_gpu_tgllp'];
    const single = new ImageSet(parseModule(text, { filename: 'p.ll' }), { outputs, deviceConfig: config });
    const one = ContainerWriter.toMemory();
    for (const o of outputs) one.addBundle(o.name);
    single.set(CONTAINER, one);
    single.set(IMAGE_PREFIXES, prefixes);
    await registry.build<ImageSet>(pipeline, { unit: imageSetKind }).runAsync(single);
    one.finish();

    // The main thread's back end answers later, out of order (as llc processes end); the
    // workers keep the IR synchronously: the same images either way.
    const keep = keepIrCompiler();
    let calls = 0;
    const slow: AotCompiler = {
      name: 'ir',
      compile: (request) => new Promise((resolve) => setTimeout(() => resolve(keep.compileSync!(request)), (calls++ % 3) * 15)),
    };
    const shared = ContainerWriter.toMemory();
    for (const o of outputs) shared.addBundle(o.name);
    const run = await runSharedSet({
      program: parseModule(text, { filename: 'p.ll' }),
      job: { filename: 'p.ll', pipeline, outputs, loadPass: [], wrap: { backends: ['ir', 'ir'], prefixes } },
      pipeline: registry.build<ImageSet>(pipeline, { unit: imageSetKind }),
      config,
      jobs: 2,
      container: shared,
      configure: (set) => {
        set.set(IMAGE_PREFIXES, prefixes);
        set.set(AOT_COMPILERS, [slow, slow]);
        set.set(AOT_JOBS, 4);
      },
    });
    shared.finish();
    expect(run.result.stopped).toBe(false);
    expect(calls).toBeGreaterThan(0);
    expect(Buffer.from(shared.bytes()).equals(Buffer.from(one.bytes()))).toBe(true);
  }, 120_000);

  it('syclkit compile and post-link write the same bytes with -j 3 as with -j 1', () => {
    const { dir, remove } = scratchDir('syclkit-jobs-');
    try {
      const input = join(dir, 'p.ll');
      writeFileSync(input, kernelsProgram(45));
      const runIn = (name: string, argv: string[]): { stderr: string; files: Map<string, string> } => {
        const out = join(dir, name);
        mkdirSync(out);
        const r = spawnSync(process.execPath, [BIN, ...argv.map((a) => a.replace('{out}', out))], { encoding: 'utf8' });
        expect(r.status, r.stderr).toBe(0);
        const files = new Map(readdirSync(out).map((f) => [f, readFileSync(join(out, f), 'latin1').replaceAll(out, '{out}')]));
        return { stderr: r.stderr.replaceAll(out, '{out}'), files };
      };
      for (const argv of [
        ['compile', input, '-fsycl-targets=spir64,intel_gpu_tgllp', '-fsycl-device-code-split=per_kernel', '-fsycl-device-obj=llvmir', '-o', '{out}/app.fatbin', '--save-temps', '{out}'],
        ['post-link', '-split=kernel', '-symbols', '-S', '-bundling=design', input, '-o', '{out}/out.table', '-o', 'intel_gpu_tgllp,{out}/tg.table'],
      ]) {
        const single = runIn(`${argv[0]}-1`, [...argv, '-j', '1']);
        const three = runIn(`${argv[0]}-3`, [...argv, '-j', '3']);
        if (argv[0] === 'compile') {
          // -v says how the images were shared (and so that they were).
          const verbose = spawnSync(process.execPath, [BIN, ...argv.map((a) => a.replace('{out}', join(dir, 'compile-3'))), '-j', '3', '-v'], { encoding: 'utf8' });
          expect(verbose.stdout).toMatch(/images built by 3 threads: \d+, \d+, \d+\n/);
        }
        expect(three.stderr).toBe(single.stderr);
        if (argv[0] === 'post-link') expect(single.stderr).toContain("uses aspect 'fp64' not expected by its calling kernel");
        expect([...three.files.keys()].sort()).toEqual([...single.files.keys()].sort());
        for (const [name, content] of single.files) expect(three.files.get(name), `${argv[0]}: ${name}`).toBe(content);
      }
    } finally {
      remove();
    }
  }, 300_000);

  it('refuses a -j that is not a positive number', () => {
    const r = spawnSync(process.execPath, [BIN, 'compile', 'x.ll', '-o', 'x.fatbin', '-j', '0'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("option '-j' takes a positive number, got '0'");
  });
});

/** How many image ids some thread has claimed (the flags runSharedSet's onClaims hands out). */
function claimedIds(flags: Int32Array): number {
  let n = 0;
  for (let id = 0; id < flags.length; id++) n += Atomics.load(flags, id);
  return n;
}
