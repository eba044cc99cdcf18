import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FormatError, readDeviceRequirements, writePropertySetRegistry } from '@syclkit/formats';
import { afterAll, describe, expect, it } from 'vitest';
import type { AotCompiler, AotRequest } from './aot.js';
import { ContainerWriter, readContainer } from './container.js';
import { ImageFormat, type DeviceImage } from './descriptor.js';
import { WrapperError } from './errors.js';
import { packTables } from './pack.js';

const fixtures = fileURLToPath(new URL('../test/fixtures/two-targets/', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'syclkit-pack-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function pack(inputs: Parameters<typeof packTables>[0], options: Parameters<typeof packTables>[2] = {}) {
  const images: DeviceImage[] = [];
  const summary = await packTables(inputs, (image) => images.push(image), { baseDir: fixtures, ...options });
  return { images, summary };
}

/** A compiler that records what it was asked, answering with `native:<name>` after `delay(name)` ms. */
function recordingCompiler(delay: (name: string) => number = () => 0): AotCompiler & { calls: AotRequest[] } {
  const calls: AotRequest[] = [];
  return {
    name: 'recording',
    calls,
    compile: (request) => {
      calls.push(request);
      return new Promise((resolve) =>
        setTimeout(() => resolve({ image: new TextEncoder().encode(`native:${request.name}`), format: ImageFormat.NATIVE }), delay(request.name)),
      );
    },
  };
}

describe('packTables', () => {
  it('makes one image per row with its code, symbols and properties', async () => {
    const { images, summary } = await pack([{ table: 'spir64.table' }]);
    expect(summary).toEqual([{ table: 'spir64.table', target: 'spir64', images: 2, empty: 0 }]);
    expect(images.map((i) => [i.name, i.target, i.entries, i.empty, i.format, i.version, i.kind])).toEqual([
      ['a_0', 'spir64', ['_ZTS7KernelA'], false, ImageFormat.NONE, 2, 4],
      ['a_1', 'spir64', ['_ZTS7KernelB', '_Z6helperv'], false, ImageFormat.NONE, 2, 4],
    ]);
    expect(new TextDecoder().decode(images[0]!.image)).toContain('define spir_kernel void @_ZTS7KernelA');
    expect(readDeviceRequirements(images[0]!.properties)).toMatchObject({ aspects: [6] });
    expect(readDeviceRequirements(images[1]!.properties)).toMatchObject({ aspects: [], reqdSubGroupSize: 32 });
  });

  it('keeps filtered rows as empty images with their properties, and never compiles them', async () => {
    const compiler = recordingCompiler();
    const { images, summary } = await pack([{ table: 'intel_gpu_dg1.table', target: 'intel_gpu_dg1', compiler }]);
    expect(summary).toEqual([{ table: 'intel_gpu_dg1.table', target: 'intel_gpu_dg1', images: 2, empty: 1 }]);
    expect(compiler.calls.map((c) => [c.inputPath, c.target, c.name])).toEqual([['a_1.ll', 'intel_gpu_dg1', 'a_1']]);
    const [filtered, compiled] = images;
    expect(filtered).toMatchObject({ name: 'a_0', empty: true, format: ImageFormat.NONE, entries: ['_ZTS7KernelA'] });
    expect(filtered!.image.length).toBe(0);
    expect(readDeviceRequirements(filtered!.properties)).toMatchObject({ aspects: [6], compileTarget: 'intel_gpu_dg1' });
    expect(compiled).toMatchObject({ name: 'a_1', empty: false, format: ImageFormat.NATIVE });
    expect(new TextDecoder().decode(compiled!.image)).toBe('native:a_1');
  });

  it('takes an empty Code cell as a filtered row, naming the image after its symbols', async () => {
    const table = join(scratch, 'cells.table');
    writeFileSync(table, `[Code|Properties|Symbols]\n|${fixtures}a_intel_gpu_dg1_0.prop|${fixtures}a_0.sym\n`);
    const compiler = recordingCompiler();
    const { images } = await pack([{ table, target: 'intel_gpu_dg1', compiler }]);
    expect(images.map((i) => [i.name, i.empty])).toEqual([['a_0', true]]);
    expect(compiler.calls).toEqual([]);
  });

  it('streams images in row order even when compilations finish out of order', async () => {
    const table = join(scratch, 'many.table');
    const rows = Array.from({ length: 7 }, (_, i) => `${fixtures}a_${i % 2}.ll|${fixtures}a_${i % 2}.prop|${fixtures}a_${i % 2}.sym`);
    writeFileSync(table, `[Code|Properties|Symbols]\n${rows.join('\n')}\n`);
    const compiler = recordingCompiler((name) => (name.endsWith('~2') || name === 'a_0' ? 30 : 1));
    const { images } = await pack([{ table, compiler }], { jobs: 4 });
    expect(images.map((i) => i.name)).toEqual(['a_0', 'a_1', 'a_0~2', 'a_1~2', 'a_0~3', 'a_1~3', 'a_0~4']);
    expect(images.map((i) => new TextDecoder().decode(i.image))).toEqual(images.map((i) => `native:${i.name}`));
  });

  it('writes straight into a container writer, one bundle per target', async () => {
    const writer = ContainerWriter.toMemory();
    await packTables(
      [
        { table: 'spir64.table' },
        { table: 'intel_gpu_dg1.table', target: 'intel_gpu_dg1', compileOptions: '-O2', linkOptions: '-x' },
      ],
      (image) => writer.addImage(image),
      { baseDir: fixtures },
    );
    writer.finish();
    const descriptor = readContainer(writer.bytes());
    expect(descriptor.bundles.map((b) => [b.target, b.images.map((i) => [i.name, i.empty, i.compileOptions, i.linkOptions])])).toEqual([
      ['spir64', [['a_0', false, '', ''], ['a_1', false, '', '']]],
      ['intel_gpu_dg1', [['a_0', true, '-O2', '-x'], ['a_1', false, '-O2', '-x']]],
    ]);
  });

  it('reads a Manifest column', async () => {
    const table = join(scratch, 'manifest.table');
    writeFileSync(join(scratch, 'm.txt'), 'manifest!');
    writeFileSync(table, `[Code|Symbols|Manifest]\n${fixtures}a_0.ll|${fixtures}a_0.sym|${join(scratch, 'm.txt')}\n`);
    const { images } = await pack([{ table }]);
    expect(new TextDecoder().decode(images[0]!.manifest!)).toBe('manifest!');
    expect(images[0]!.properties.size).toBe(0);
  });

  it('warns when an image was compiled for another target than its bundle', async () => {
    const warnings: string[] = [];
    await pack([{ table: 'intel_gpu_dg1.table', target: 'intel_gpu_pvc' }], { onWarning: (w) => warnings.push(w) });
    expect(warnings).toEqual([
      "intel_gpu_dg1.table: row 0: the image was compiled for 'intel_gpu_dg1' (its compile_target), but is wrapped for 'intel_gpu_pvc'",
      "intel_gpu_dg1.table: row 1: the image was compiled for 'intel_gpu_dg1' (its compile_target), but is wrapped for 'intel_gpu_pvc'",
    ]);
  });

  it('names the table, row and column of a file it cannot read', async () => {
    const table = join(scratch, 'missing.table');
    writeFileSync(table, '[Code|Properties|Symbols]\na.bc|nowhere.prop|a.sym\n');
    await expect(pack([{ table }], { baseDir: scratch })).rejects.toThrow(
      new WrapperError(`row 0: cannot read the Properties file '${join(scratch, 'nowhere.prop')}': no such file or directory`, table),
    );
  });

  it('reports a table without a Code column and a bad .prop file with its location', async () => {
    const noCode = join(scratch, 'nocode.table');
    writeFileSync(noCode, '[Symbols]\na.sym\n');
    await expect(pack([{ table: noCode }])).rejects.toThrow(`${noCode}: batch table has no 'Code' column`);
    const badProp = join(scratch, 'bad.prop');
    writeFileSync(badProp, '[SYCL/device requirements]\naspects=2|AA=\n');
    const table = join(scratch, 'badprop.table');
    writeFileSync(table, `[Code|Properties]\n${fixtures}a_0.ll|${badProp}\n`);
    const error = await pack([{ table }]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FormatError);
    expect((error as FormatError).render()).toMatch(new RegExp(`^${badProp.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:2:\\d+: error: invalid property value`));
  });

  it('propagates a compiler failure', async () => {
    const failing: AotCompiler = { name: 'failing', compile: () => Promise.reject(new WrapperError('backend exploded', 'a_1.ll')) };
    await expect(pack([{ table: 'spir64.table', compiler: failing }], { jobs: 3 })).rejects.toThrow('a_1.ll: backend exploded');
  });

  it('keeps the properties exactly as the .prop file lists them', async () => {
    const { images } = await pack([{ table: 'spir64.table' }]);
    expect(writePropertySetRegistry(images[1]!.properties)).toBe(
      '[SYCL/devicelib req mask]\nDeviceLibReqMask=1|0\n[SYCL/device requirements]\naspects=2|AAAAAAAAAAA\nreqd_sub_group_size=1|32\n[SYCL/kernel param opt]\n_ZTS7KernelB=2|BAAAAAAAAAQA\n[SYCL/add on images]\n1=2|ABAAAAAAAAw/////GAAAAA\n',
    );
  });
});
