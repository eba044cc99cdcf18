import { DeviceConfig } from '@syclkit/device-config';
import { describe, expect, it } from 'vitest';
import { PostLinkError, postLinkPipelineText, postLinkRegistry, runPostLink } from './post-link.js';
import { ImageSet, imageSetKind } from './image-set.js';
import { FILE_SINK, tablesOf } from './passes.js';
import { ir, runInMemory } from './testing.js';

const kernels = `
define weak_odr spir_kernel void @a() #0 { call spir_func void @h() ret void }
define weak_odr spir_kernel void @b() #0 { ret void }
define weak_odr spir_kernel void @c() #0 { ret void }
define internal spir_func void @h() { ret void }
attributes #0 = { "sycl-module-id"="a.cpp" }
`.replace(/\{ call spir_func void @h\(\) ret void \}/, '{\n  call spir_func void @h()\n  ret void\n}');

const conditional = `
%class.anon = type { ptr addrspace(4) }
define weak_odr dso_local spir_kernel void @K() #0 {
  %c = alloca %class.anon, align 8
  call spir_func void @cc_P_1(ptr @Action, ptr %c, i32 -1, i32 5)
  ret void
}
define internal spir_func void @Action(ptr addrspace(4) %this) !sycl_used_aspects !1 {
  ret void
}
declare spir_func void @cc_P_1(ptr, ptr, i32, i32) #1
attributes #0 = { "sycl-module-id"="a.cpp" }
attributes #1 = { "sycl-call-if-on-device-conditionally"="true" }
!sycl_aspects = !{!2}
!1 = !{i32 5}
!2 = !{!"fp16", i32 5}
`;

describe('post-link as passes', () => {
  it('turns the options into pipeline text that parses and prints back to itself', () => {
    const text = postLinkPipelineText({ mode: 'kernel', symbols: true, textIR: true, emitParamInfo: true, incompatibleImages: 'empty-module', checkExternalFunctions: true });
    expect(text).toBe(
      'device-if<add-on-images>,split<kernel;bundling=upstream>,image(device-if-add-on-images,image-requirements<check-sycl-external>,virtual-function-dummies,filter-targets<empty-module>,image-properties<param-info>,emit-ir<text>,write-image-files<symbols>)',
    );
    const registry = postLinkRegistry();
    const nodes = registry.parse(text, { unit: imageSetKind });
    expect(registry.parse(registry.print(nodes, { unit: imageSetKind }), { unit: imageSetKind })).toEqual(nodes);
    expect(postLinkPipelineText({ deviceIf: { aotTarget: 'intel_gpu_pvc' }, requirementStrategy: 'spec-constants', mode: 'source' })).toBe(
      'device-if<aot-target=intel_gpu_pvc>,split<source;bundling=features-blind>,image(device-if-add-on-images,spec-constant-requirements<spec-id-base=1073741824>,image-requirements,virtual-function-dummies,filter-targets<drop>,image-properties,emit-ir<bitcode>,write-image-files)',
    );
  });

  it('writes each image as it is produced and holds none afterwards', async () => {
    const set = new ImageSet(ir(kernels), { outputs: [{ name: 'out/t.table' }] });
    const order: string[] = [];
    set.set(FILE_SINK, { prefix: 'out/t', writeFile: (path) => void order.push(path) });
    const result = postLinkRegistry().build<ImageSet>('split<kernel>,image(image-requirements,image-properties,emit-ir,write-image-files<symbols>)', { unit: imageSetKind }).run(set);
    expect(result.stopped).toBe(false);
    // image 0's files are written before image 1 is built: one image at a time
    expect(order).toEqual(['out/t_0.ll', 'out/t_0.sym', 'out/t_0.prop', 'out/t_1.ll', 'out/t_1.sym', 'out/t_1.prop', 'out/t_2.ll', 'out/t_2.sym', 'out/t_2.prop']);
    expect(set.produced.map((i) => [i.id, i.entryNames, i.released])).toEqual([
      [0, ['c'], true],
      [1, ['b'], true],
      [2, ['a'], true],
    ]);
    expect(() => set.produced[0]!.module).toThrow(/already written out/);
    expect(tablesOf(set, { symbols: true, properties: true })[0]!.rowIds).toEqual([0, 1, 2]);
  });

  it('produces the images of a shard only, with the split ids, and refuses to add images there', async () => {
    const shard = new ImageSet(ir(kernels), { outputs: [{ name: 't.table' }], shard: { index: 1, count: 2 } });
    postLinkRegistry().build<ImageSet>('split<kernel>', { unit: imageSetKind }).run(shard);
    expect([...shard.images()].map((i) => [i.id, i.entryNames])).toEqual([[1, ['b']]]);
    await expect(runInMemory(ir(conditional), { mode: 'kernel', shard: { index: 0, count: 2 } })).rejects.toThrow(/a sharded run cannot add images/);
  });

  it('fails with a PostLinkError that carries every diagnostic of the run (device_if for an AOT target)', async () => {
    const undecidable = conditional.replace('i32 -1, i32 5', 'i32 -1, i32 9999');
    const error = await runInMemory(ir(undecidable), { mode: 'kernel', deviceIf: { aotTarget: 'spir64_gen' }, deviceConfig: DeviceConfig.builtin() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PostLinkError);
    const e = error as PostLinkError;
    expect(e.code).toBe('device-if-unresolved');
    expect(e.message).toBe("device_if conditions could not be resolved for target 'spir64_gen'");
    // the problems that made resolution fail come first, then the failure itself
    expect(e.diagnostics.length).toBeGreaterThan(1);
    expect(e.diagnostics.at(-1)!.code).toBe('device-if-unresolved');
    expect(e.diagnostics.slice(0, -1).every((d) => d.pass === 'device-if' && d.severity === 'error')).toBe(true);
  });

  it('removes what it wrote when a pass fails after images were written', async () => {
    const files = new Map<string, string>();
    const written: string[] = [];
    // -ir-output-only with device_if: the main image is written, then an add-on image would need a second file.
    const error = await runPostLink(ir(conditional), { mode: 'auto', irOutputOnly: true, outputs: [{ path: 'one.ll' }], textIR: true }, {
      writeFile: (path, data) => {
        written.push(path);
        files.set(path, String(data));
      },
      removeFile: (path) => void files.delete(path),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PostLinkError);
    expect((error as PostLinkError).code).toBe('split-with-ir-output-only');
    expect(written).toEqual(['one.ll']);
    expect(files.size).toBe(0);
  });
});
