import { describe, expect, it } from 'vitest';
import { parseModule } from '@syclkit/ir';
import { ContainerReader, ContainerWriter, ImageFormat, WrapperError, type AotCompiler } from '@syclkit/offload-wrapper';
import { definePass, PreservedAnalyses, tracePassManager } from '@syclkit/pass-manager';
import { ImageSet as Set, imageSetKind, planSplit, type ImageSet } from '@syclkit/post-link';
import { CONTAINER, IMAGE_PREFIXES, builtinPresets, builtinRegistry, offloadPipelineText } from './index.js';
import { DeviceConfig } from '@syclkit/device-config';
import { runOffload } from '../test/run.js';

const program = `target triple = "spir64-unknown-unknown"

define weak_odr spir_kernel void @_ZTS6Double() #0 !sycl_used_aspects !4 {
  call spir_func void @helper()
  ret void
}

define weak_odr spir_kernel void @_ZTS5Plain() #0 {
  call spir_func void @helper()
  ret void
}

define internal spir_func void @helper() {
  ret void
}

attributes #0 = { "sycl-module-id"="app.cpp" }

!sycl_aspects = !{!0, !1, !2, !3}
!0 = !{!"fp16", i32 5}
!1 = !{!"fp64", i32 6}
!2 = !{!"atomic64", i32 7}
!3 = !{!"ext_intel_esimd", i32 8}
!4 = !{i32 6}
`;

const module = () => parseModule(program, { filename: 'app.ll' });
const outputs = [{ name: 'spir64' }, { name: 'intel_gpu_tgllp', target: 'intel_gpu_tgllp' }];

describe('the offload preset', () => {
  it('splits, filters and wraps one image per kernel into each bundle, device IR as the image', async () => {
    const run = await runOffload(module(), outputs);
    expect(run.result.stopped).toBe(false);
    const spir = run.bundles.get('spir64')!;
    const tgllp = run.bundles.get('intel_gpu_tgllp')!;
    // The design bundles kernels by requirements: fp64 and no aspect never share an image.
    expect(spir.map((i) => [i.name, i.entries])).toEqual([
      ['app_spir64_0', ['_ZTS5Plain']],
      ['app_spir64_1', ['_ZTS6Double']],
    ]);
    // tgllp lacks fp64: the image stays as an empty row with its entries and properties.
    expect(tgllp.map((i) => [i.name, i.empty, i.format])).toEqual([
      // text IR has no format of its own in the descriptor: none, as clang-offload-wrapper records it
      ['app_intel_gpu_tgllp_0', false, ImageFormat.NONE],
      ['app_intel_gpu_tgllp_1', true, ImageFormat.NONE],
    ]);
    expect(tgllp[1]!.properties.get('SYCL/device requirements', 'compile_target')).toBeDefined();
    expect(spir[0]!.properties.get('SYCL/device requirements', 'compile_target')).toBeUndefined();
    const reader = ContainerReader.fromBytes(run.bytes!);
    expect(Buffer.from(reader.readImageData(reader.images.find((i) => i.name === 'app_spir64_0')!)).toString('latin1')).toContain('define weak_odr spir_kernel void @_ZTS5Plain()');
    // The sink released every image once it was written.
    expect(run.set.produced.map((i) => i.released)).toEqual([true, true]);
  });

  it('writes records in image order, each image once per bundle (the index keeps bundles apart)', async () => {
    const run = await runOffload(module(), outputs);
    const reader = ContainerReader.fromBytes(run.bytes!);
    const byOffset = [...reader.images].sort((a, b) => a.recordOffset - b.recordOffset).map((i) => i.name);
    expect(byOffset).toEqual(['app_spir64_0', 'app_intel_gpu_tgllp_0', 'app_spir64_1', 'app_intel_gpu_tgllp_1']);
  });

  it("stores an image's code once when its rows for several targets have the same bytes (container version 3)", async () => {
    const run = await runOffload(module(), outputs);
    const reader = ContainerReader.fromBytes(run.bytes!);
    expect(reader.version).toBe(3);
    const image = (name: string) => reader.images.find((i) => i.name === name)!;
    expect(image('app_intel_gpu_tgllp_0').dataOffset).toBe(image('app_spir64_0').dataOffset);
    expect(image('app_intel_gpu_tgllp_0').dataOffset).toBeLessThan(image('app_intel_gpu_tgllp_0').recordOffset);
    expect(reader.readImageData(image('app_intel_gpu_tgllp_0'))).toEqual(reader.readImageData(image('app_spir64_0')));
  });

  it('hands the rows of one image to the container together when it takes them so, else one by one', async () => {
    const calls: string[][] = [];
    const batched = { addImage: () => calls.push(['addImage']), addImages: (images: readonly { name: string }[]) => void calls.push(images.map((i) => i.name)) };
    const single = { addImage: (image: { name: string }) => void calls.push([image.name]) };
    for (const container of [batched, single]) {
      const set: ImageSet = new Set(module(), { outputs, deviceConfig: DeviceConfig.builtin() });
      set.set(CONTAINER, container);
      set.set(IMAGE_PREFIXES, outputs.map((o) => `app_${o.target ?? o.name}`));
      const result = await builtinRegistry().build('offload', { unit: imageSetKind }).runAsync(set);
      expect(result.stopped).toBe(false);
    }
    expect(calls).toEqual([
      ['app_spir64_0', 'app_intel_gpu_tgllp_0'],
      ['app_spir64_1', 'app_intel_gpu_tgllp_1'],
      ['app_spir64_0'],
      ['app_intel_gpu_tgllp_0'],
      ['app_spir64_1'],
      ['app_intel_gpu_tgllp_1'],
    ]);
  });

  it('compiles each row with its output back end: synchronous ones in place, asynchronous ones awaited', async () => {
    const calls: string[] = [];
    const sync: AotCompiler = {
      name: 'sync',
      compile: () => Promise.reject(new Error('not used')),
      compileSync: (request) => {
        calls.push(`sync ${request.name} ${request.target}`);
        return { image: Uint8Array.of(1, 2, 3), format: ImageFormat.NATIVE };
      },
    };
    const later: AotCompiler = {
      name: 'later',
      compile: async (request) => {
        calls.push(`async ${request.name} ${request.target}`);
        await new Promise((resolve) => setTimeout(resolve, 1));
        return { image: Uint8Array.of(9), format: ImageFormat.SPIRV };
      },
    };
    const run = await runOffload(module(), outputs, { compilers: [later, sync] });
    // Filtered rows are never compiled.
    expect(calls).toEqual(['async app_spir64_0 spir64', 'sync app_intel_gpu_tgllp_0 intel_gpu_tgllp', 'async app_spir64_1 spir64']);
    expect(run.bundles.get('spir64')!.map((i) => i.format)).toEqual([ImageFormat.SPIRV, ImageFormat.SPIRV]);
    expect(run.bundles.get('intel_gpu_tgllp')!.map((i) => i.format)).toEqual([ImageFormat.NATIVE, ImageFormat.NONE]);
  });

  it('stops with aot-tool-failed when a back end fails, and nothing is wrapped', async () => {
    const failing: AotCompiler = { name: 'broken', compile: async () => Promise.reject(new WrapperError('llvm-spirv on x failed (exit status 1)', 'x.ll')) };
    const run = await runOffload(module(), outputs, { compilers: [failing] });
    expect(run.result.stopped).toBe(true);
    expect(run.result.diagnostics.map((d) => [d.code, d.pass, d.message, d.location?.file])).toEqual([['aot-tool-failed', 'aot', 'llvm-spirv on x failed (exit status 1)', 'x.ll']]);
  });

  it('runs asynchronous compilations of several images at once with AOT_JOBS, writing the same container', async () => {
    // Three kernels, so three images; the first compilation takes longest.
    const three = () => parseModule(program.replace('define internal spir_func void @helper()', 'define weak_odr spir_kernel void @_ZTS5Third() #0 {\n  ret void\n}\n\ndefine internal spir_func void @helper()'), { filename: 'app.ll' });
    let running = 0;
    let most = 0;
    const slow: AotCompiler = {
      name: 'slow',
      compile: async (request) => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, request.name.endsWith('_0') ? 30 : 1));
        running--;
        return { image: Buffer.from(`spv ${request.name}`), format: ImageFormat.SPIRV };
      },
    };
    const one = await runOffload(three(), outputs, { compilers: [slow, slow] });
    expect(most).toBe(2); // one image at a time (its two rows together)
    most = 0;
    const many = await runOffload(three(), outputs, { compilers: [slow, slow], aotJobs: 3 });
    expect(most).toBeGreaterThan(2);
    expect(many.result.stopped).toBe(false);
    expect(Buffer.from(many.bytes!).equals(Buffer.from(one.bytes!))).toBe(true);
    expect(many.set.produced.every((i) => i.released)).toBe(true);
  });

  it('reports a failure of a compilation still running as aot-tool-failed (AOT_JOBS)', async () => {
    const failing: AotCompiler = {
      name: 'broken',
      compile: async (request) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (request.name === 'app_spir64_1') throw new WrapperError('llvm-spirv on y failed (exit status 1)', 'y.ll');
        return { image: Uint8Array.of(1), format: ImageFormat.SPIRV };
      },
    };
    const run = await runOffload(module(), outputs, { compilers: [failing], aotJobs: 4 });
    expect(run.result.stopped).toBe(true);
    expect(run.result.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.code, d.message, d.location?.file])).toEqual([['aot-tool-failed', 'llvm-spirv on y failed (exit status 1)', 'y.ll']]);
  });

  it('is the preset text offloadPipelineText gives by default, and prints back to itself', () => {
    const registry = builtinRegistry();
    const nodes = registry.parse('offload', { unit: imageSetKind });
    expect(registry.print(nodes, { unit: imageSetKind })).toBe(registry.print(registry.parse(offloadPipelineText(), { unit: imageSetKind }), { unit: imageSetKind }));
    for (const name of Object.keys(builtinPresets)) {
      const unit = name === 'sycl-device-front' ? 'module' : 'image-set';
      const printed = registry.print(registry.parse(name, { unit }), { unit });
      expect(registry.parse(printed, { unit }), name).toEqual(registry.parse(name, { unit }));
    }
  });
});

describe('the default offload pipeline with my split', () => {
  // A split of one's own: every kernel alone, whatever it requires (as intel/llvm per kernel).
  const mySplit = definePass({
    name: 'my-split',
    unit: imageSetKind,
    summary: 'Every kernel in an image of its own.',
    preserves: 'all',
    create: () => (set: ImageSet) => {
      set.plan = planSplit(set.program, { mode: 'kernel', policy: 'upstream', emitOnlyKernelsAsEntryPoints: true, graph: set.graph });
      set.splitMode = 'kernel';
      set.setSource(set.plan.images());
      return PreservedAnalyses.all();
    },
  });

  it('runs as pipeline text: device-if,my-split,offload-images', async () => {
    const text = 'device-if,my-split,offload-images';
    const registry = builtinRegistry().extend({ passes: [mySplit] });
    expect(registry.print(registry.parse(text, { unit: imageSetKind }), { unit: imageSetKind })).toMatch(/^device-if<auto;aot-target=>,my-split,image\(device-if-add-on-images,image-requirements<check-sycl-external>/);
    const set = new Set(module(), { outputs: [{ name: 'spir64' }] });
    const writer = ContainerWriter.toMemory();
    set.set(CONTAINER, writer);
    const result = await registry.build(text, { unit: imageSetKind }).runAsync(set);
    expect(result.stopped).toBe(false);
    writer.finish();
    const reader = ContainerReader.fromBytes(writer.bytes());
    // kernel-mode names: descending order of the keys (_ZTS6Double-, _ZTS5Plain-)
    expect(reader.images.map((i) => i.entries)).toEqual([['_ZTS6Double'], ['_ZTS5Plain']].sort().reverse());
  });

  it('produces no images without a split (the image passes have nothing to run on)', async () => {
    const run = await runOffload(module(), outputs, { pipeline: 'offload-images' });
    expect(run.result.stopped).toBe(false);
    expect([...run.bundles.values()].flat()).toEqual([]);
  });
});

describe('shared analyses', () => {
  it('computes aspect-facts once for the program: the split and every image read the same result', async () => {
    const lines: string[] = [];
    await runOffload(module(), outputs, { instrumentations: [tracePassManager({ write: (line) => void lines.push(line) })] });
    const runs = lines.filter((l) => /Running analysis: aspect-facts/.test(l));
    expect(runs).toHaveLength(1);
  });

  it('keeps call-graph across sycl-propagate-aspects-usage (metadata only) and drops aspect-facts', () => {
    const registry = builtinRegistry();
    const count = (text: string, input = module()): Map<string, number> => {
      const counts = new Map<string, number>();
      registry.build(text).run(input, { instrumentations: [{ name: 'count', analysis: (e) => void (e.type === 'run' && counts.set(e.analysis, (counts.get(e.analysis) ?? 0) + 1)) }] });
      return counts;
    };
    expect(count('require<call-graph>,sycl-propagate-aspects-usage,require<call-graph>').get('call-graph')).toBe(1);
    expect(count('require<aspect-facts>,sycl-propagate-aspects-usage,require<aspect-facts>').get('aspect-facts')).toBe(2);
  });

  it('keeps every analysis across a globaldce that erases nothing, and none across one that erases a function', () => {
    const registry = builtinRegistry();
    const callGraphRuns = (input: ReturnType<typeof module>): number => {
      let runs = 0;
      registry.build('require<call-graph>,globaldce,require<call-graph>').run(input, { instrumentations: [{ name: 'count', analysis: (e) => void (e.type === 'run' && e.analysis === 'call-graph' && runs++) }] });
      return runs;
    };
    expect(callGraphRuns(module())).toBe(1);
    const withDead = parseModule(`${program}\ndefine internal spir_func void @unused() {\n  ret void\n}\n`, { filename: 'app.ll' });
    expect(callGraphRuns(withDead)).toBe(2);
    expect(withDead.getFunction('unused')).toBeUndefined();
  });
});
