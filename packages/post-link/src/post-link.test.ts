import { DeviceConfig } from '@syclkit/device-config';
import { readFileTable, readPropertySetRegistry, decodeString } from '@syclkit/formats';
import { describe, expect, it } from 'vitest';
import { imageFileNames, outputPrefix, parseOutputSpec, stem } from './output-names.js';
import { PostLinkError, runPostLink } from './post-link.js';
import { ir, runInMemory } from '../test/testing.js';

const filtered = `
define spir_kernel void @double_kernel() #0 !sycl_used_aspects !0 { ret void }
define spir_kernel void @sg8_kernel() #0 !intel_reqd_sub_group_size !2 { ret void }
define spir_kernel void @plain_kernel() #0 { ret void }
attributes #0 = { "sycl-module-id"="a.cpp" }
!0 = !{!1}
!1 = !{!"fp64", i32 6}
!2 = !{i32 8}
`;

describe('output names', () => {
  it('derives the prefix from the first -o (last extension dropped) or -out-dir', () => {
    expect(outputPrefix('/tmp/x.files.table')).toBe('/tmp/x.files');
    expect(outputPrefix('t.table')).toBe('t');
    expect(outputPrefix('/tmp/x.table', 'out')).toBe('out/x');
    expect(stem('a/b.c.d')).toBe('b.c');
  });

  it('names ESIMD images and target property files like sycl-post-link', () => {
    const names = imageFileNames('p', 3, true, true);
    expect([names.code, names.symbols, names.properties(), names.properties('intel_gpu_pvc')]).toEqual([
      'p_esimd_3.ll',
      'p_esimd_3.sym',
      'p_esimd_3.prop',
      'p_intel_gpu_pvc_3.prop',
    ]);
    expect(parseOutputSpec('intel_gpu_pvc,/a/b.table')).toEqual({ target: 'intel_gpu_pvc', path: '/a/b.table' });
    expect(parseOutputSpec('/a/b.table')).toEqual({ path: '/a/b.table' });
  });
});

describe('runPostLink', () => {
  it('writes one IR, symbol and property file per image and a [Code|Properties|Symbols] table', async () => {
    const { result, files } = await runInMemory(ir(filtered), { mode: 'kernel' });
    const table = result.tables[0]!.table;
    expect(table.columns).toEqual(['Code', 'Properties', 'Symbols']);
    expect(table.rows).toEqual([0, 1, 2].map((i) => [`out/t_${i}.ll`, `out/t_${i}.prop`, `out/t_${i}.sym`]));
    expect(files.get('out/t_0.sym')).toBe('sg8_kernel\n');
    expect(files.get('out/t_0.ll')).toContain('define spir_kernel void @sg8_kernel()');
    expect([...files.keys()].sort()).toEqual([0, 1, 2].flatMap((i) => [`out/t_${i}.ll`, `out/t_${i}.prop`, `out/t_${i}.sym`]).sort());
  });

  it('leaves rows of incompatible images out of target tables (intel/llvm)', async () => {
    const { result, files } = await runInMemory(ir(filtered), {
      mode: 'kernel',
      outputs: [{ path: 'out/t.table' }, { target: 'intel_gpu_tgllp', path: 'out/tgllp.table' }],
      deviceConfig: DeviceConfig.builtin(),
    });
    // descending names: sg8_kernel, plain_kernel, double_kernel (fp64, which tgllp lacks)
    expect(result.tables[1]!.table.column('Symbols')).toEqual(['out/t_0.sym', 'out/t_1.sym']);
    const props = readPropertySetRegistry(files.get('out/t_intel_gpu_tgllp_0.prop')!);
    expect(decodeString(props.get('SYCL/device requirements', 'compile_target')!)).toBe('intel_gpu_tgllp');
    expect(files.has('out/t_intel_gpu_tgllp_2.prop')).toBe(false);
  });

  it('points rows of incompatible images at an empty module, keeping their properties (design)', async () => {
    const { result, files } = await runInMemory(ir(filtered), {
      mode: 'kernel',
      outputs: [{ path: 'out/t.table' }, { target: 'intel_gpu_tgllp', path: 'out/tgllp.table' }],
      deviceConfig: DeviceConfig.builtin(),
      incompatibleImages: 'empty-module',
    });
    expect(result.tables[1]!.table.rows).toEqual([
      ['out/t_0.ll', 'out/t_intel_gpu_tgllp_0.prop', 'out/t_0.sym'],
      ['out/t_1.ll', 'out/t_intel_gpu_tgllp_1.prop', 'out/t_1.sym'],
      ['out/t_empty.ll', 'out/t_intel_gpu_tgllp_2.prop', 'out/t_2.sym'],
    ]);
    expect(files.get('out/t_empty.ll')).not.toContain('define');
    expect(files.get('out/t_intel_gpu_tgllp_2.prop')).toContain('aspects=2|gAAAAAAAAAgBAAAA');
  });

  it('writes a single IR file and no table with irOutputOnly, refusing to split', async () => {
    const { result, files } = await runInMemory(ir(filtered), { mode: 'auto', irOutputOnly: true, outputs: [{ path: 'one.ll' }] });
    expect(result.tables).toEqual([]);
    expect([...files.keys()]).toEqual(['one.ll']);
    await expect(runInMemory(ir(filtered), { mode: 'kernel', irOutputOnly: true, outputs: [{ path: 'one.ll' }] })).rejects.toThrow(
      "some modules had to be split, '-ir-output-only' can't be used",
    );
  });

  it('uses the input as the Code cell and writes no IR when nothing changed and no -o was given', async () => {
    const m = ir('define spir_kernel void @k() { ret void }');
    const { result, files } = await runInMemory(m, { mode: 'none', outputsGiven: false, inputPath: 'in.ll', outputs: [{ path: 'in.files' }] });
    expect(result.tables[0]!.table.rows[0]![0]).toBe('in.ll');
    expect([...files.keys()].some((f) => f.endsWith('.ll'))).toBe(false);
    expect(result.diagnostics.map((d) => d.code)).toEqual(['no-modifications']);
  });

  it('removes the files it wrote when a later write fails, and writes no table', async () => {
    const files = new Map<string, string>();
    let writes = 0;
    await expect(
      runPostLink(ir(filtered), { mode: 'kernel', outputs: [{ path: 't.table' }], textIR: true }, {
        writeFile: (path, data) => {
          if (++writes === 4) throw new Error('disk full');
          files.set(path, String(data));
        },
        removeFile: (path) => void files.delete(path),
      }),
    ).rejects.toThrow('disk full');
    expect(files.size).toBe(0);
  });

  it('needs a bitcode encoder for .bc output', async () => {
    await expect(
      runPostLink(ir(filtered), { mode: 'kernel', outputs: [{ path: 't.table' }] }, { writeFile: () => undefined }),
    ).rejects.toBeInstanceOf(PostLinkError);
  });

  it('reports SYCL_EXTERNAL warnings and adds the aspects to the image with checkExternalFunctions', async () => {
    const m = ir(`
define spir_kernel void @k() #0 { call void @ext() ret void }
define spir_func void @ext() #0 !sycl_used_aspects !0 { ret void }
attributes #0 = { "sycl-module-id"="a.cpp" }
!0 = !{i32 6}
`);
    const { result } = await runInMemory(m, { mode: 'kernel', checkExternalFunctions: true, emitOnlyKernelsAsEntryPoints: true });
    expect(result.diagnostics.map((d) => d.code)).toEqual(['unexpected-aspect']);
    expect(result.images[0]!.requirements.aspects.map((a) => a.value)).toEqual([6]);
  });

  it('refuses a device_image_scope device global used by two images with -device-globals', async () => {
    const text = `
@dg = addrspace(1) global i32 0 #1
define spir_kernel void @a() #0 { store i32 1, ptr addrspace(1) @dg ret void }
define spir_kernel void @b() #0 { %x = load i32, ptr addrspace(1) @dg ret void }
attributes #0 = { "sycl-module-id"="a.cpp" }
attributes #1 = { "sycl-unique-id"="dg_id" "sycl-device-global-size"="4" "sycl-device-image-scope" }
`;
    await expect(runInMemory(ir(text), { mode: 'kernel', deviceGlobals: true })).rejects.toThrow(
      `device_global variable 'dg' with property "device_image_scope" is used in more than one device image.`,
    );
    const { files } = await runInMemory(ir(text), { mode: 'source', deviceGlobals: true });
    expect(files.get('out/t_0.prop')).toContain('[SYCL/device globals]\ndg_id=2|');
  });

  it('adds a dummy image with stub bodies right after a virtual-function image that needs aspects', async () => {
    const m = ir(`
define spir_func void @foo() #0 { ret void }
define spir_func void @bar() #0 !sycl_used_aspects !0 { ret void }
attributes #0 = { "sycl-module-id"="v.cpp" "indirectly-callable"="setA" }
!0 = !{i32 6}
`);
    const { result, files } = await runInMemory(m, { mode: 'auto' });
    expect(result.images.map((i) => [i.id, i.entryPoints])).toEqual([
      [0, ['bar']],
      [1, ['bar']],
      [2, ['foo']],
    ]);
    expect(files.get('out/t_1.ll')).toContain('define spir_func void @bar() #0 {\nentry:\n  ret void\n}');
    expect(files.get('out/t_1.prop')).toContain('dummy-image=1|1');
    expect(files.get('out/t_1.prop')).toContain('aspects=2|AAAAAAAAAAA');
  });

  it('produces byte-identical files across runs', async () => {
    const a = await runInMemory(ir(filtered), { mode: 'source' });
    const b = await runInMemory(ir(filtered), { mode: 'source' });
    expect([...a.files]).toEqual([...b.files]);
    expect(readFileTable('[Code]\nx\n').rows).toEqual([['x']]);
  });
});
