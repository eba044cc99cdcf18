import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PropertySetRegistry, addDeviceRequirements, readDeviceRequirements, uint32Value, writePropertySetRegistry, type DeviceRequirements } from '@syclkit/formats';
import { llvmSpirvAvailable, readContainerFile } from '@syclkit/offload-wrapper';
import { afterAll, describe, expect, it } from 'vitest';
import { runSyclkit } from '../../test/testing.js';

async function run(...argv: string[]) {
  return runSyclkit(['wrap', ...argv]);
}

const dir = mkdtempSync(join(tmpdir(), 'syclkit-wrap-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const path = (name: string) => join(dir, name);
function file(name: string, content: string): string {
  writeFileSync(path(name), content);
  return path(name);
}

const LLVM16 = '/usr/lib/llvm-16/bin';
const llvmAs = existsSync(`${LLVM16}/llvm-as`) ? `${LLVM16}/llvm-as` : undefined;
const llc = existsSync(`${LLVM16}/llc`) ? `${LLVM16}/llc` : undefined;
const MISSING = `LLVM 16 is not installed (${LLVM16}); apt-get install llvm-16 to run this test`;

const kernelModule = (kernel: string, triple = 'spir64-unknown-unknown') => `target triple = "${triple}"

define spir_kernel void @${kernel}(ptr addrspace(1) %out) {
entry:
  store i32 1, ptr addrspace(1) %out, align 4
  ret void
}
`;

function prop(name: string, requirements: DeviceRequirements): string {
  const registry = new PropertySetRegistry();
  registry.add('SYCL/devicelib req mask', 'DeviceLibReqMask', uint32Value(0));
  addDeviceRequirements(registry, requirements);
  return file(name, writePropertySetRegistry(registry));
}

// What sycl-post-link would write for `-o app.table -o intel_gpu_dg1,app_dg1.table` with two
// images: a_0 uses fp64 (which DG1 lacks, so its DG1 row has an empty module), a_1 does not.
const a0 = file('app_0.ll', kernelModule('_ZTS7KernelA'));
const a1 = file('app_1.ll', kernelModule('_ZTS7KernelB'));
const empty = file('empty.ll', 'target triple = "spir64-unknown-unknown"\n');
const s0 = file('app_0.sym', '_ZTS7KernelA\n');
const s1 = file('app_1.sym', '_ZTS7KernelB\n');
const p0 = prop('app_0.prop', { aspects: [6] });
const p1 = prop('app_1.prop', { aspects: [], reqdSubGroupSize: 16 });
const d0 = prop('app_intel_gpu_dg1_0.prop', { aspects: [6], compileTarget: 'intel_gpu_dg1' });
const d1 = prop('app_intel_gpu_dg1_1.prop', { aspects: [], reqdSubGroupSize: 16, compileTarget: 'intel_gpu_dg1' });
const generic = file('app.table', `[Code|Properties|Symbols]\n${a0}|${p0}|${s0}\n${a1}|${p1}|${s1}\n`);
const dg1 = file('app_dg1.table', `[Code|Properties|Symbols]\n${empty}|${d0}|${s0}\n${a1}|${d1}|${s1}\n`);

describe('syclkit wrap', () => {
  it('wraps the generic table as spir64 and an AOT table under its device name', async () => {
    const out = path('app.fatbin');
    expect(await run(generic, '-target=intel_gpu_dg1', dg1, '-o', out)).toEqual({ code: 0, out: '', err: '' });
    const descriptor = readContainerFile(out);
    expect(descriptor.bundles.map((b) => [b.target, b.images.map((i) => [i.name, i.target, i.entries, i.empty, i.image.length > 0])])).toEqual([
      ['spir64', [['app_0', 'spir64', ['_ZTS7KernelA'], false, true], ['app_1', 'spir64', ['_ZTS7KernelB'], false, true]]],
      ['intel_gpu_dg1', [['app_0', 'intel_gpu_dg1', ['_ZTS7KernelA'], true, false], ['app_1', 'intel_gpu_dg1', ['_ZTS7KernelB'], false, true]]],
    ]);
    expect(new TextDecoder().decode(descriptor.bundles[0]!.images[0]!.image)).toBe(readFileSync(a0, 'utf8'));
    // The filtered row keeps its properties, so the runtime can say why it cannot run there.
    expect(readDeviceRequirements(descriptor.bundles[1]!.images[0]!.properties)).toMatchObject({ aspects: [6], compileTarget: 'intel_gpu_dg1' });
  });

  it('writes the same bytes every time', async () => {
    await run(generic, '-target=intel_gpu_dg1', dg1, '-o', path('x1.fatbin'));
    await run(generic, '-target=intel_gpu_dg1', dg1, '-o', path('x2.fatbin'));
    expect(readFileSync(path('x1.fatbin')).equals(readFileSync(path('x2.fatbin')))).toBe(true);
  });

  it('applies -target, -compile-opts and -link-opts to the tables after them', async () => {
    const out = path('opts.fatbin');
    const result = await run('-compile-opts=-g', generic, '-target=intel_gpu_dg1', '-link-opts=-cl-denorms-are-zero', dg1, '-o', out);
    expect(result.code).toBe(0);
    const images = readContainerFile(out).bundles.flatMap((b) => b.images.map((i) => [b.target, i.compileOptions, i.linkOptions]));
    expect(images).toEqual([
      ['spir64', '-g', ''],
      ['spir64', '-g', ''],
      ['intel_gpu_dg1', '-g', '-cl-denorms-are-zero'],
      ['intel_gpu_dg1', '-g', '-cl-denorms-are-zero'],
    ]);
  });

  it('emits the wrapper IR with -emit-ir', async () => {
    const ir = path('wrapper.ll');
    expect((await run(generic, '-target=intel_gpu_dg1', dg1, '-o', path('ir.fatbin'), '-emit-ir', ir, '-host=x86_64-pc-linux-gnu')).code).toBe(0);
    const text = readFileSync(ir, 'utf8');
    expect(text).toContain('target triple = "x86_64-pc-linux-gnu"');
    expect(text).toMatch(/^@\.sycl_offloading\.0\.data = internal unnamed_addr constant \[\d+ x i8\] c".*", section "__CLANG_OFFLOAD_BUNDLE__sycl-spir64"$/m);
    expect(text).toContain('@.sycl_offloading.2.data = internal unnamed_addr constant [0 x i8] zeroinitializer, section "__CLANG_OFFLOAD_BUNDLE__sycl-intel_gpu_dg1"');
    expect(text).toContain('@.sycl_offloading.descriptor = internal constant %__tgt_bin_desc { i16 1, i16 4, ptr @.sycl_offloading.device_images, ptr null, ptr null }');
    expect(text).toContain('call void @__sycl_register_lib(ptr @.sycl_offloading.descriptor)');
    const bare = path('bare.ll');
    expect((await run(generic, '-o', path('bare.fatbin'), '-emit-ir', bare, '-emit-reg-funcs=false', '-desc-name=app')).code).toBe(0);
    const bareText = readFileSync(bare, 'utf8');
    expect(bareText).toContain('@.sycl_offloading.app = constant %__tgt_bin_desc');
    expect(bareText).not.toContain('llvm.global_ctors');
  });

  it.skipIf(llvmAs === undefined)(`emits IR that llvm-as 16 accepts${llvmAs === undefined ? ` (skipped: ${MISSING})` : ''}`, async () => {
    const ir = path('checked.ll');
    expect((await run(generic, '-target=intel_gpu_dg1', dg1, '-o', path('checked.fatbin'), '-emit-ir', ir)).code).toBe(0);
    expect(() => execFileSync(llvmAs!, [ir, '-o', path('checked.bc')], { stdio: 'pipe' })).not.toThrow();
  });

  it.skipIf(llc === undefined)(`compiles AOT rows with -aot=llc, never the filtered ones${llc === undefined ? ` (skipped: ${MISSING})` : ''}`, async () => {
    const nv = file('nv_0.ll', kernelModule('_ZTS7KernelN', 'nvptx64-nvidia-cuda').replace('spir_kernel ', ''));
    const table = file('nv.table', `[Code|Properties|Symbols]\n${nv}|${p1}|${s1}\n${empty}|${p0}|${s0}\n`);
    const out = path('nv.fatbin');
    const result = await run('-target=nvidia_gpu_sm_80', '-aot=llc', table, '-o', out);
    expect(result).toEqual({ code: 0, out: '', err: '' });
    const [compiled, filtered] = readContainerFile(out).bundles[0]!.images;
    expect(compiled!.format).toBe(1);
    expect(new TextDecoder().decode(compiled!.image)).toContain('.target sm_80');
    expect(filtered!.empty).toBe(true);
  });

  it('prints per-table counts with -v', async () => {
    const { code, err } = await run('-v', generic, '-target=intel_gpu_dg1', dg1, '-o', path('v.fatbin'));
    expect(code).toBe(0);
    expect(err).toMatch(new RegExp(`^${generic}: 2 images for spir64\n${dg1}: 2 images for intel_gpu_dg1 \\(1 empty\\)\n.*v\\.fatbin: 2 bundles, 4 images, \\d+ bytes\n$`));
  });

  it('warns when a table is wrapped for another target than it was built for', async () => {
    const { code, err } = await run('-target=intel_gpu_pvc', dg1, '-o', path('pvc.fatbin'));
    expect(code).toBe(0);
    expect(err).toContain(`syclkit wrap: warning: ${dg1}: row 0: the image was compiled for 'intel_gpu_dg1' (its compile_target), but is wrapped for 'intel_gpu_pvc'\n`);
  });

  it('refuses bad command lines without writing anything', async () => {
    const out = path('never.fatbin');
    expect(await run('-o', out)).toMatchObject({ code: 2, err: 'syclkit wrap: error: no input tables: give at least one <file.table>\n' });
    expect(await run(generic)).toMatchObject({ code: 2, err: 'syclkit wrap: error: no output file: give -o <app.fatbin>\n' });
    expect(await run('-target=intel_gpu_pvcc', generic, '-o', out)).toMatchObject({ code: 2, err: "syclkit wrap: error: unknown target 'intel_gpu_pvcc'; did you mean 'intel_gpu_pvc'?\n" });
    expect(await run(generic, '-target=intel_gpu_pvc', '-o', out)).toMatchObject({ code: 2, err: 'syclkit wrap: error: -target=intel_gpu_pvc comes after the last table and applies to none\n' });
    expect(await run('-aot=ocloc', generic, '-o', out)).toMatchObject({ code: 1, err: "syclkit wrap: error: unknown AOT backend 'ocloc'; expected one of ir, llvm-spirv, llc\n" });
    expect(await run('-aot=llc', generic, '-o', out)).toMatchObject({
      code: 1,
      err: "syclkit wrap: error: -aot=llc compiles for NVIDIA and AMD GPUs; target 'spir64' (spir64-unknown-unknown) is not one (use -aot=llvm-spirv or -aot=ir)\n",
    });
    expect(await run('-j=0', generic, '-o', out)).toMatchObject({ code: 2, err: "syclkit wrap: error: option '-j' takes a positive number, got '0'\n" });
    expect(existsSync(out)).toBe(false);
  });

  const spirvTool = llvmSpirvAvailable() ? 'llvm-spirv' : undefined;
  it.skipIf(spirvTool !== undefined)(`says clearly when the chosen AOT tool is missing${spirvTool !== undefined ? ' (skipped: llvm-spirv is installed here)' : ''}`, async () => {
    const out = path('nospirv.fatbin');
    const { code, err } = await run('-aot=llvm-spirv', generic, '-o', out);
    expect(code).toBe(1);
    expect(err).toMatch(/^syclkit wrap: error: SPIR-V images need llvm-spirv, the Khronos LLVM\/SPIR-V translator, which is not installed \(looked for llvm-spirv, .* in .*\); on Debian: apt-get install llvm-spirv-15 llvm-15; or keep LLVM IR \(compile -fsycl-device-obj=llvmir, wrap -aot=ir\)\n$/);
    expect(existsSync(out)).toBe(false);
  });

  it('reports a broken .prop file at file:line:col and leaves no container behind', async () => {
    const sub = path('broken');
    mkdirSync(sub, { recursive: true });
    const bad = join(sub, 'bad.prop');
    writeFileSync(bad, '[SYCL/device requirements]\nreqd_sub_group_size=1|abc\n');
    const table = file('broken.table', `[Code|Properties|Symbols]\n${a0}|${bad}|${s0}\n`);
    const out = join(sub, 'broken.fatbin');
    const { code, err } = await run(table, '-o', out);
    expect(code).toBe(1);
    expect(err).toMatch(new RegExp(`^${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:2:\\d+: error: invalid property value`));
    expect(readdirSync(sub)).toEqual(['bad.prop']);
  });

  it('names the table and row of a missing file', async () => {
    const table = file('missing.table', `[Code|Symbols]\n${a0}|${path('nowhere.sym')}\n`);
    expect(await run(table, '-o', path('m.fatbin'))).toMatchObject({
      code: 1,
      err: `${table}: error: row 0: cannot read the Symbols file '${path('nowhere.sym')}': no such file or directory\n`,
    });
  });

  it('says when the table or the output directory does not exist', async () => {
    expect(await run(path('nope.table'), '-o', path('n.fatbin'))).toMatchObject({ code: 1, err: `${path('nope.table')}: error: cannot read the table: no such file or directory\n` });
    expect(await run(generic, '-o', path('no/such/dir/app.fatbin'))).toMatchObject({
      code: 1,
      err: `syclkit wrap: error: cannot write '${path('no/such/dir/app.fatbin')}': no such directory\n`,
    });
  });

  it('documents its options in --help', async () => {
    const { code, out } = await run('--help');
    expect(code).toBe(0);
    expect(out).toMatch(/^usage: syclkit wrap /);
    for (const option of ['-target=<target>', '-aot=<backend>', '-compile-opts=<options>', '-link-opts=<options>', '-o <app.fatbin>', '-emit-ir <wrapper.ll>', '-host=<triple>', '-j <n>']) {
      expect(out).toContain(option);
    }
  });
});
