import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  PropertySetRegistry,
  SpirvOp,
  addDeviceRequirements,
  bitVectorValue,
  encodeSpirvInstruction,
  spirvStringWords,
  uint32ArrayValue,
  uint32Value,
  writePropertySetRegistry,
  type DeviceRequirements,
} from '@syclkit/formats';
import { ContainerReader } from '@syclkit/offload-wrapper';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSyclkit } from '../../test/testing.js';

async function syclkit(...argv: string[]) {
  return runSyclkit(argv);
}

const dir = mkdtempSync(join(tmpdir(), 'syclkit-inspect-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const path = (name: string) => join(dir, name);
function file(name: string, content: string): string {
  writeFileSync(path(name), content);
  return path(name);
}

function prop(name: string, requirements: DeviceRequirements, extra?: (r: PropertySetRegistry) => void): string {
  const registry = new PropertySetRegistry();
  registry.add('SYCL/devicelib req mask', 'DeviceLibReqMask', uint32Value(0));
  addDeviceRequirements(registry, requirements);
  extra?.(registry);
  return file(name, writePropertySetRegistry(registry));
}

const module = (kernel: string) => `define spir_kernel void @${kernel}() {\nentry:\n  ret void\n}\n`;

/** Build 1: K1 (fp64) and K2 (sub-group 16); for DG1, K1's row is filtered. Build 2: K1 also needs atomic64, K2 moves to sub-group 32. */
async function builds(): Promise<[string, string]> {
  const a0 = file('a_0.ll', module('K1'));
  const a1 = file('a_1.ll', module('K2'));
  const empty = file('empty.ll', '');
  const s0 = file('a_0.sym', 'K1\n');
  const s1 = file('a_1.sym', 'K2\n');
  const paths: string[] = [];
  for (const [build, k1, k2] of [
    ['v1', [6], 16],
    ['v2', [6, 28], 32],
  ] as const) {
    const p0 = prop(`${build}_0.prop`, { aspects: [...k1] }, (r) => r.add('SYCL/kernel param opt', 'K1', bitVectorValue([true, false])));
    const p1 = prop(`${build}_1.prop`, { aspects: [], reqdSubGroupSize: k2 }, (r) => r.add('SYCL/add on images', '1', uint32ArrayValue([0xffff_fffe, 6])));
    const d0 = prop(`${build}_dg1_0.prop`, { aspects: [...k1], compileTarget: 'intel_gpu_dg1' });
    const d1 = prop(`${build}_dg1_1.prop`, { aspects: [], reqdSubGroupSize: k2, compileTarget: 'intel_gpu_dg1' });
    const generic = file(`${build}.table`, `[Code|Properties|Symbols]\n${a0}|${p0}|${s0}\n${a1}|${p1}|${s1}\n`);
    const dg1 = file(`${build}_dg1.table`, `[Code|Properties|Symbols]\n${empty}|${d0}|${s0}\n${a1}|${d1}|${s1}\n`);
    const out = path(`${build}.fatbin`);
    const result = await syclkit('wrap', generic, '-target=intel_gpu_dg1', dg1, '-o', out);
    if (result.code !== 0) throw new Error(result.err);
    paths.push(out);
  }
  return [paths[0]!, paths[1]!];
}

let v1 = '';
let v2 = '';
beforeAll(async () => {
  [v1, v2] = await builds();
});

describe('syclkit inspect', () => {
  it('summarizes bundles, images, kernels, requirements with aspect names, add-on and empty images', async () => {
    const { code, out, err } = await syclkit('inspect', v1);
    expect(err).toBe('');
    expect(code).toBe(0);
    // version 3: a_1's code is the same for both targets and stored once
    expect(out).toMatch(new RegExp(`^${v1.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: container version 3, 2 bundles, 4 images \\(1 empty\\), \\d+ bytes\n`));
    expect(out).toContain('\nbundle spir64 (2 images)\n  image a_0: none, ');
    expect(out).toContain('    kernels: K1\n    requirements: aspects fp64 (6)\n');
    expect(out).toContain('    kernels: K2\n    requirements: sub-group size 16\n    add-on images: 1 if [-2, 6]\n');
    expect(out).toContain('\nbundle intel_gpu_dg1 (2 images)\n  image a_0: empty: filtered out for this target, no code\n    kernels: K1\n    requirements: aspects fp64 (6); compile target intel_gpu_dg1\n');
  });

  it('reports one kernel with -kernel: the images that define it, by name or class name', async () => {
    const { code, out, err } = await syclkit('inspect', '-kernel', 'K2', v1);
    expect(err).toBe('');
    expect(code).toBe(0);
    const lines = out.split('\n');
    expect(lines[0]).toMatch(/: container version 3, 2 bundles, 4 images, \d+ bytes$/);
    expect(lines[1]).toBe('kernel K2: 2 images in 2 bundles');
    expect(out).toContain('\nbundle spir64 (1 of 2 images)\n  image a_1: none, ');
    expect(out).toContain('\nbundle intel_gpu_dg1 (1 of 2 images)\n  image a_1: none, ');
    expect(out).not.toContain('image a_0');
    const json = JSON.parse((await syclkit('inspect', '-kernel', 'K1', '-json', v1)).out);
    expect(json).toMatchObject({ kernel: 'K1', containerVersion: 3 });
    expect(json.bundles.map((b: { target: string; imageCount: number; images: { name: string; empty: boolean }[] }) => [b.target, b.imageCount, b.images.map((i) => [i.name, i.empty])])).toEqual([
      ['spir64', 2, [['a_0', false]]],
      ['intel_gpu_dg1', 2, [['a_0', true]]],
    ]);
  });

  it('reads only the index and the kernel\'s records with -kernel, and says when there is no such kernel', async () => {
    const bytes = readFileSync(v1);
    const reader = ContainerReader.fromBytes(bytes);
    for (const image of reader.lookup('entry', 'K1')) bytes[image.recordOffset + 30]! ^= 0xff;
    const damaged = file('k1-damaged.fatbin', '');
    writeFileSync(damaged, bytes);
    expect((await syclkit('inspect', '-kernel', 'K2', damaged)).code).toBe(0);
    expect((await syclkit('inspect', damaged)).err).toMatch(/corrupted metadata of image record 0/);
    expect(await syclkit('inspect', '-kernel', 'K3', v1)).toMatchObject({ code: 1, err: "syclkit inspect: error: no kernel 'K3'; did you mean 'K1'? (kernels: K1, K2)\n" });
    expect((await syclkit('inspect', '-kernel', 'K1', '-diff', v1, v2)).code).toBe(2);
  });

  it('lists property values with -properties', async () => {
    const { out } = await syclkit('inspect', '-properties', v1);
    expect(out).toContain('      [SYCL/kernel param opt] K1 = "10"\n');
    expect(out).toContain('      [SYCL/device requirements] reqd_sub_group_size = 16\n');
  });

  it('prints JSON with decoded property values and empty flags', async () => {
    const { code, out } = await syclkit('inspect', '--json', v1);
    expect(code).toBe(0);
    const report = JSON.parse(out) as {
      bundles: { target: string; images: { name: string; kernels: string[]; empty: boolean; properties: Record<string, Record<string, unknown>> }[] }[];
    };
    expect(report.bundles.map((b) => b.target)).toEqual(['spir64', 'intel_gpu_dg1']);
    expect(report.bundles[0]!.images[0]).toMatchObject({
      name: 'a_0',
      kernels: ['K1'],
      empty: false,
      properties: { 'SYCL/device requirements': { aspects: [6] }, 'SYCL/kernel param opt': { K1: '10' } },
    });
    expect(report.bundles[0]!.images[1]!.properties['SYCL/device requirements']).toEqual({ aspects: [], reqd_sub_group_size: 16 });
    expect(report.bundles[0]!.images[1]!.properties['SYCL/add on images']).toEqual({ '1': [-2, 6] });
    expect(report.bundles[1]!.images[0]).toMatchObject({ name: 'a_0', empty: true, size: 0 });
  });

  it('says what changed between two builds with -diff', async () => {
    const { code, out } = await syclkit('inspect', '-diff', v1, v2);
    expect(code).toBe(0);
    // Same code, so only kernel-level changes, in both bundles (the empty DG1 row included).
    expect(out).toBe(
      [
        `--- ${v1}`,
        `+++ ${v2}`,
        'bundle spir64:',
        '  kernel K1: gained aspect atomic64 (28)',
        '  kernel K2: required sub-group size 16 -> 32',
        'bundle intel_gpu_dg1:',
        '  kernel K1: gained aspect atomic64 (28)',
        '  kernel K2: required sub-group size 16 -> 32',
        '',
      ].join('\n'),
    );
  });

  it('reports identical builds, JSON diffs, and a status with -exit-code', async () => {
    expect(await syclkit('inspect', '-diff', '-exit-code', v1, v1)).toEqual({
      code: 0,
      out: `--- ${v1}\n+++ ${v1}\nno differences in bundles, images, kernels or requirements\n`,
      err: '',
    });
    expect((await syclkit('inspect', '-diff', '-exit-code', v1, v2)).code).toBe(1);
    const json = JSON.parse((await syclkit('inspect', '-diff', '-json', v1, v2)).out) as { identical: boolean; bundles: { target: string; kernels: { name: string; changes: { kind: string }[] }[] }[] };
    expect(json.identical).toBe(false);
    expect(json.bundles[0]!.kernels.find((k) => k.name === 'K1')!.changes).toContainEqual({ kind: 'aspect-gained', aspect: 28 });
  });

  it('reports a corrupted container with its offset, and image damage only with -verify', async () => {
    const bytes = readFileSync(v1);
    const reader = ContainerReader.fromBytes(bytes);
    const at = reader.images[0]!.dataOffset;
    bytes[at]! ^= 0x10;
    const damaged = file('damaged.fatbin', '');
    writeFileSync(damaged, bytes);
    expect((await syclkit('inspect', damaged)).code).toBe(0);
    const { code, out, err } = await syclkit('inspect', '-verify', damaged);
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toMatch(new RegExp(`^.*damaged\\.fatbin: error: offset ${at} \\(0x[0-9a-f]+\\): corrupted data of image 0 \\('a_0', bundle 'spir64'\\)`));
    const truncated = file('truncated.fatbin', '');
    writeFileSync(truncated, readFileSync(v1).subarray(0, at + 2));
    expect((await syclkit('inspect', truncated)).err).toMatch(/truncated: image record 0 at offset 16 extends to offset \d+, but the file ends at offset \d+\n$/);
    const text = file('not.fatbin', '[Code]\n');
    expect((await syclkit('inspect', text)).err).toBe(`${text}: error: offset 0 (0x0): not a syclkit fat-binary container: expected the magic bytes 89 53 4b 46 41 54 0d 0a at offset 0, found 5b 43 6f 64 65 5d 0a\n`);
  });

  it('refuses bad command lines', async () => {
    expect(await syclkit('inspect')).toMatchObject({ code: 2, err: 'syclkit inspect: error: expected one container, got 0\n' });
    expect(await syclkit('inspect', '-diff', v1)).toMatchObject({ code: 2, err: 'syclkit inspect: error: -diff compares two containers, got 1 file\n' });
    expect(await syclkit('inspect', '-exit-code', v1)).toMatchObject({ code: 2, err: 'syclkit inspect: error: -exit-code only applies with -diff\n' });
    expect(await syclkit('inspect', path('missing.fatbin'))).toMatchObject({ code: 1, err: `syclkit inspect: error: ${path('missing.fatbin')}: no such file or directory\n` });
    expect(await syclkit('inspect', dir)).toMatchObject({ code: 1, err: `${dir}: error: not a regular file\n` });
  });

  it('documents its options in --help', async () => {
    const { code, out } = await syclkit('inspect', '--help');
    expect(code).toBe(0);
    for (const option of ['-json', '-diff', '-exit-code', '-properties', '-verify', '-extract']) expect(out).toContain(option);
  });

  it('writes every non-empty image to <dir>/<image name>.<ext> with -extract, like clang-offload-extract', async () => {
    const out = path('extracted');
    const result = await syclkit('inspect', v1, '-extract', out);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toBe(
      [
        `${join(out, 'a_0.ll')}  (spir64, ${module('K1').length} bytes)`,
        `${join(out, 'a_1.ll')}  (spir64, ${module('K2').length} bytes)`,
        `${join(out, 'a_1.intel_gpu_dg1.ll')}  (intel_gpu_dg1, ${module('K2').length} bytes)`,
        `3 images written to ${out}; 1 empty image (filtered out, no code) not written`,
        '',
      ].join('\n'),
    );
    expect(readFileSync(join(out, 'a_0.ll'), 'utf8')).toBe(module('K1'));
    const json = JSON.parse((await syclkit('inspect', v1, '-extract', out, '-json')).out) as { written: { image: string; file: string; format: string }[]; empty: string[] };
    expect(json.written.map((w) => [w.image, w.format])).toEqual([
      ['a_0', 'll'],
      ['a_1', 'll'],
      ['a_1', 'll'],
    ]);
    expect(json.empty).toEqual(['intel_gpu_dg1/a_0']);
    expect(await syclkit('inspect', '-diff', v1, v2, '-extract', out)).toMatchObject({ code: 2, err: 'syclkit inspect: error: -extract writes the images of one container; it does not combine with -diff\n' });
  });

  it("shows each SPIR-V image's version, capabilities and entry points, and extracts it as .spv", async () => {
    const words = [
      0x07230203, 0x00010400, (6 << 16) | 14, 5, 0,
      ...encodeSpirvInstruction(SpirvOp.Capability, [6]),
      ...encodeSpirvInstruction(SpirvOp.Capability, [10]),
      ...encodeSpirvInstruction(SpirvOp.MemoryModel, [2, 2]),
      ...encodeSpirvInstruction(SpirvOp.EntryPoint, [6, 3, ...spirvStringWords('K1')]),
      ...encodeSpirvInstruction(SpirvOp.TypeVoid, [1]),
      ...encodeSpirvInstruction(33, [2, 1]),
      ...encodeSpirvInstruction(SpirvOp.Function, [1, 3, 0, 2]),
      ...encodeSpirvInstruction(SpirvOp.Label, [4]),
      ...encodeSpirvInstruction(253, []),
      ...encodeSpirvInstruction(SpirvOp.FunctionEnd, []),
    ];
    const spv = Buffer.alloc(words.length * 4);
    words.forEach((word, i) => spv.writeUInt32LE(word >>> 0, 4 * i));
    writeFileSync(path('k1.spv'), spv);
    const table = file('spv.table', `[Code|Symbols]\n${path('k1.spv')}|${file('k1.sym', 'K1\n')}\n`);
    const fatbin = path('spv.fatbin');
    expect((await syclkit('wrap', table, '-o', fatbin)).code).toBe(0);
    const { out } = await syclkit('inspect', fatbin);
    expect(out).toContain('  image k1: spirv, 120 bytes\n    kernels: K1\n    SPIR-V 1.4, Physical64 OpenCL, by Khronos LLVM/SPIR-V Translator 14\n      capabilities: Kernel, Float64\n      entry points: Kernel K1\n');
    const json = JSON.parse((await syclkit('inspect', fatbin, '-json')).out) as { bundles: { images: { spirv: unknown }[] }[] };
    expect(json.bundles[0]!.images[0]!.spirv).toEqual({ version: '1.4', generator: 'Khronos LLVM/SPIR-V Translator 14', memoryModel: 'Physical64 OpenCL', capabilities: ['Kernel', 'Float64'], extensions: [], entryPoints: [{ executionModel: 'Kernel', name: 'K1', executionModes: [] }] });
    const extracted = await syclkit('inspect', fatbin, '-extract', path('spv-out'));
    expect(extracted.out).toBe(`${join(path('spv-out'), 'k1.spv')}  (spir64, 120 bytes)\n1 image written to ${path('spv-out')}\n`);
    expect(readFileSync(join(path('spv-out'), 'k1.spv'))).toEqual(spv);
  });
});
