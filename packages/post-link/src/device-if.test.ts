import { DeviceConfig } from '@syclkit/device-config';
import { decodeInt32Array, readPropertySetRegistry } from '@syclkit/formats';
import { describe, expect, it } from 'vitest';
import { parseModule } from '@syclkit/ir';
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { ADD_ON_IMAGE_SET, ADD_ON_IMAGES_SET, hasConditionalCalls } from './device-if.js';
import { HEADER, ir, runInMemory } from '../test/testing.js';

/** Two kernels calling one action under different conditions; K2 also calls it directly. */
const conditional = `
%class.anon = type { ptr addrspace(4) }
define weak_odr dso_local spir_kernel void @K1() #0 {
  %c = alloca %class.anon, align 8
  call spir_func void @cc_P_1(ptr @Action, ptr %c, i32 -1, i32 5)
  ret void
}
define weak_odr dso_local spir_kernel void @K2() #0 {
  %c = alloca %class.anon, align 8
  call spir_func void @cc_P_1(ptr @Action, ptr %c, i32 -1, i32 6)
  call spir_func void @Action(ptr addrspace(4) null)
  ret void
}
define internal spir_func void @Action(ptr addrspace(4) %this) !sycl_used_aspects !1 {
  call spir_func void @helper()
  ret void
}
define internal spir_func void @helper() {
  ret void
}
declare spir_func void @cc_P_1(ptr, ptr, i32, i32) #1
attributes #0 = { "sycl-module-id"="a.cpp" }
attributes #1 = { "sycl-call-if-on-device-conditionally"="true" }
!1 = !{i32 5}
`;

function props(files: Map<string, string>, path: string) {
  return readPropertySetRegistry(files.get(path)!);
}

describe('device_if add-on images (non-AOT)', () => {
  it('detects calls to conditional caller declarations', () => {
    expect(hasConditionalCalls(ir(conditional))).toBe(true);
    expect(hasConditionalCalls(ir('define spir_kernel void @k() { ret void }'))).toBe(false);
  });

  it('rewrites conditional calls into direct calls and keeps actions out of main images', async () => {
    const { files } = await runInMemory(ir(conditional), { mode: 'kernel' });
    const k1 = files.get('out/t_1.ll')!;
    expect(k1).toMatch(/%(\d+) = addrspacecast ptr %c to ptr addrspace\(4\)\n {2}call spir_func void @Action\(ptr addrspace\(4\) %\1\)/);
    expect(k1).toContain('declare dso_local spir_func void @Action(ptr addrspace(4))');
    expect(k1).not.toContain('cc_P_1');
    expect(k1).not.toContain('@helper');
  });

  it('gives an action a new generation when the image also calls it directly', async () => {
    const { files } = await runInMemory(ir(conditional), { mode: 'kernel' });
    const k2 = files.get('out/t_0.ll')!;
    expect(k2).toContain('call spir_func void @Action.2(');
    expect(k2).toContain('define internal spir_func void @Action(');
  });

  it('writes real and stub add-on images with matching ids and the conditions in the main image', async () => {
    const { result, files } = await runInMemory(ir(conditional), { mode: 'kernel' });
    const rows = result.tables[0]!.table.rows;
    expect(rows).toHaveLength(6);
    const mainK2 = props(files, 'out/t_0.prop').getSet(ADD_ON_IMAGES_SET)!;
    expect([...mainK2.keys()]).toEqual(['1']);
    expect(decodeInt32Array(mainK2.get('1')!)).toEqual([-1, 6]);
    // the pair of image "1": real (1) and stub (0)
    const kinds = [2, 3].map((i) => props(files, `out/t_${i}.prop`).get(ADD_ON_IMAGE_SET, '1'));
    expect(kinds).toEqual([
      { type: 1, value: 1 },
      { type: 1, value: 0 },
    ]);
    expect(files.get('out/t_2.ll')).toContain('define dso_local spir_func void @Action.2(');
    expect(files.get('out/t_2.ll')).toContain('define internal spir_func void @helper()');
    expect(files.get('out/t_3.ll')).toMatch(/define spir_func void @Action\.2\(ptr addrspace\(4\) %this\) \{\nentry:\n {2}ret void\n\}/);
    expect(files.get('out/t_2.sym')).toBe('Action.2\n');
  });

  it('keeps actions out of the main image without a split too (the whole-module copy)', async () => {
    const m = ir(`
define weak_odr dso_local spir_kernel void @K0() #0 {
  %c = alloca i8, align 8
  call spir_func void @cc_P_1(ptr @half_path, ptr %c, i32 -1, i32 5)
  ret void
}
define linkonce_odr spir_func void @half_path(ptr addrspace(4) %this) !sycl_used_aspects !0 { ret void }
define spir_func void @external_action(ptr addrspace(4) %this) !sycl_used_aspects !0 { ret void }
define spir_kernel void @K1() #0 {
  %c = alloca i8, align 8
  call spir_func void @cc_P_1(ptr @external_action, ptr %c, i32 -1, i32 5)
  ret void
}
declare spir_func void @cc_P_1(ptr, ptr, i32, i32) #1
attributes #0 = { "sycl-module-id"="a.cpp" }
attributes #1 = { "sycl-call-if-on-device-conditionally"="true" }
!0 = !{i32 5}
`);
    const { result, files } = await runInMemory(m, { mode: 'none' });
    expect(result.images[0]!.requirements.aspects).toEqual([]);
    const main = files.get('out/t_0.ll')!;
    expect(main).toContain('declare spir_func void @half_path(ptr addrspace(4))');
    expect(main).not.toContain('define spir_func void @external_action');
    expect(result.images).toHaveLength(3);
  });

  it('leaves conditional calls alone with deviceIf off', async () => {
    const { files } = await runInMemory(ir(conditional), { mode: 'kernel', deviceIf: 'off' });
    expect(files.get('out/t_1.ll')).toContain('call spir_func void @cc_P_1(ptr @Action');
  });
});

describe('device_if for an AOT target', () => {
  const aot = `
define weak_odr dso_local spir_kernel void @K() #0 {
  %c = alloca i8, align 8
  call spir_func void @cc_P_1(ptr @UsesFp64, ptr %c, i32 -1, i32 6)
  call spir_func void @cc_P_1(ptr @UsesFp16, ptr %c, i32 -1, i32 5)
  ret void
}
define internal spir_func void @UsesFp64(ptr addrspace(4) %this) !sycl_used_aspects !1 { ret void }
define internal spir_func void @UsesFp16(ptr addrspace(4) %this) !sycl_used_aspects !2 { ret void }
declare spir_func void @cc_P_1(ptr, ptr, i32, i32) #1
attributes #0 = { "sycl-module-id"="a.cpp" }
attributes #1 = { "sycl-call-if-on-device-conditionally"="true" }
!1 = !{i32 6}
!2 = !{i32 5}
`;

  it('keeps the calls whose condition holds on the target and gives the kernel their aspects', async () => {
    const m = ir(aot);
    const { result, files } = await runInMemory(m, {
      mode: 'kernel',
      deviceConfig: DeviceConfig.builtin(),
      deviceIf: { aotTarget: 'intel_gpu_tgllp' },
    });
    const text = files.get('out/t_0.ll')!;
    expect(text).toContain('call spir_func void @UsesFp16(');
    expect(text).not.toContain('UsesFp64');
    expect(result.images[0]!.requirements.aspects.map((a) => a.value)).toEqual([5]);
    // the input module is not changed
    expect(m.getFunction('UsesFp64')).toBeDefined();
  });
});

describe('device_if add-on images of a typed-pointer module', () => {
  // `this` is a %class.anon* (address space 0); @SameAS takes an i8* (same address space, another
  // pointee: a bitcast), @OtherAS a %class.anon addrspace(4)* (an addrspacecast)
  const typed = `
%class.anon = type { i32 addrspace(4)* }
define weak_odr dso_local spir_kernel void @K() #0 {
  %c = alloca %class.anon, align 8
  call spir_func void @cc_P_1(void (i8*)* @SameAS, %class.anon* %c, i32 -1, i32 5)
  call spir_func void @cc_P_2(void (%class.anon addrspace(4)*)* @OtherAS, %class.anon* %c, i32 -1, i32 5)
  call spir_func void @cc_P_3(void (%class.anon*)* @NoCast, %class.anon* %c, i32 -1, i32 5)
  ret void
}
define internal spir_func void @SameAS(i8* %this) { ret void }
define internal spir_func void @OtherAS(%class.anon addrspace(4)* %this) { ret void }
define internal spir_func void @NoCast(%class.anon* %this) { ret void }
declare spir_func void @cc_P_1(void (i8*)*, %class.anon*, i32, i32) #1
declare spir_func void @cc_P_2(void (%class.anon addrspace(4)*)*, %class.anon*, i32, i32) #1
declare spir_func void @cc_P_3(void (%class.anon*)*, %class.anon*, i32, i32) #1
attributes #0 = { "sycl-module-id"="a.cpp" }
attributes #1 = { "sycl-call-if-on-device-conditionally"="true" }
`;
  const read = () => parseModule(HEADER + typed, { filename: 'typed.ll', pointers: 'preserve-typed' });

  it('casts `this` with a bitcast within one address space and an addrspacecast across', async () => {
    const { files } = await runInMemory(read(), { mode: 'kernel' });
    const main = files.get('out/t_0.ll')!;
    expect(main).toMatch(/%(\d+) = bitcast %class\.anon\* %c to i8\*\n {2}call spir_func void @SameAS\(i8\* %\1\)/);
    expect(main).toMatch(/%(\d+) = addrspacecast %class\.anon\* %c to %class\.anon addrspace\(4\)\*\n {2}call spir_func void @OtherAS\(%class\.anon addrspace\(4\)\* %\1\)/);
    expect(main).toContain('call spir_func void @NoCast(%class.anon* %c)');
    expect(main).not.toMatch(/\bptr\b/);
  });

  it('writes typed stub add-on images', async () => {
    const { files } = await runInMemory(read(), { mode: 'kernel' });
    const stub = [...files.entries()].find(([path, text]) => path.endsWith('.ll') && text.includes('define spir_func void @SameAS(i8* %this) {\nentry:\n  ret void'));
    expect(stub).toBeDefined();
    expect(stub![1]).not.toMatch(/\bptr\b/);
  });

  const opt14 = '/usr/lib/llvm-14/bin/opt';
  it.skipIf(!existsSync(opt14))('writes images LLVM 14 (the typed-pointer oracle) accepts', async () => {
    const { files } = await runInMemory(read(), { mode: 'kernel' });
    const images = [...files.entries()].filter(([path]) => path.endsWith('.ll'));
    expect(images.length).toBeGreaterThan(1);
    for (const [path, text] of images) {
      const r = spawnSync(opt14, ['-S', '-o', '/dev/null'], { input: text });
      expect({ path, stderr: r.stderr.toString() }).toEqual({ path, stderr: '' });
    }
  });

  it('leaves the opaque rewrite as it was: an addrspacecast only across address spaces', async () => {
    const { files } = await runInMemory(ir(conditional), { mode: 'kernel' });
    expect(files.get('out/t_1.ll')).toMatch(/= addrspacecast ptr %c to ptr addrspace\(4\)/);
    expect([...files.values()].some((t) => / = bitcast /.test(t))).toBe(false);
  });
});
