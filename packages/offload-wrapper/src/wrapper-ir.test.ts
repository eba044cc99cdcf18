import { PropertySetRegistry, addDeviceRequirements, bitVectorValue, uint32Value } from '@syclkit/formats';
import { parseModule, printModule } from '@syclkit/ir';
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { LLVM16_BIN, LLVM16_MISSING, llc16, llvmAs16, llvmRoundTrip, withoutModuleId } from '../test/llvm.js';
import { deviceImage, ImageFormat, type BinaryDescriptor } from './descriptor.js';
import { emitWrapperIR, wrapperModuleText } from './wrapper-ir.js';

function descriptor(): BinaryDescriptor {
  const properties = new PropertySetRegistry();
  properties.add('SYCL/devicelib req mask', 'DeviceLibReqMask', uint32Value(0));
  addDeviceRequirements(properties, { aspects: [6] });
  properties.add('SYCL/kernel param opt', '_ZTS1K', bitVectorValue([true, false]));
  return {
    bundles: [
      {
        target: 'spir64',
        images: [deviceImage({ name: 'a_0', target: 'spir64', image: Uint8Array.of(0x03, 0x02, 0x23, 0x07, 0x5c, 0x22), entries: ['_ZTS1K', '_ZTS2K2'], properties })],
      },
      {
        target: 'intel_gpu_pvc',
        images: [
          deviceImage({ name: 'a_0', target: 'intel_gpu_pvc', image: new Uint8Array(0), empty: true, entries: ['_ZTS1K'], properties, manifest: Uint8Array.of(1, 2) }),
        ],
      },
    ],
  };
}

const lines = (text: string) => text.split('\n');
const line = (text: string, start: string) => lines(text).find((l) => l.startsWith(start));

describe('wrapper IR', () => {
  const ir = emitWrapperIR(descriptor());

  it('names the module and sets the host triple as clang-offload-wrapper does', () => {
    expect(ir.startsWith(`; ModuleID = 'offload.wrapper.object'\nsource_filename = "offload.wrapper.object"\ntarget triple = "x86_64-unknown-linux-gnu"\n`)).toBe(true);
    expect(emitWrapperIR(descriptor(), { host: 'aarch64-unknown-linux-gnu' })).toContain('target triple = "aarch64-unknown-linux-gnu"');
  });

  it('declares the runtime struct types', () => {
    for (const type of [
      '%__tgt_offload_entry = type { ptr, ptr, i64, i32, i32 }',
      '%_pi_device_binary_property_struct = type { ptr, ptr, i32, i64 }',
      '%_pi_device_binary_property_set_struct = type { ptr, ptr, ptr }',
      '%__tgt_device_image = type { i16, i8, i8, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr }',
      '%__tgt_bin_desc = type { i16, i16, ptr, ptr, ptr }',
    ]) {
      expect(lines(ir)).toContain(type);
    }
  });

  it('emits image data in the offload-bundle section of its target, internal and unnamed_addr', () => {
    expect(line(ir, '@.sycl_offloading.0.data')).toBe(
      '@.sycl_offloading.0.data = internal unnamed_addr constant [6 x i8] c"\\03\\02#\\07\\\\\\22", section "__CLANG_OFFLOAD_BUNDLE__sycl-spir64"',
    );
    expect(line(ir, '@.sycl_offloading.1.data')).toBe(
      '@.sycl_offloading.1.data = internal unnamed_addr constant [0 x i8] zeroinitializer, section "__CLANG_OFFLOAD_BUNDLE__sycl-intel_gpu_pvc"',
    );
  });

  it('emits target and option strings, and a manifest only when there is one', () => {
    expect(line(ir, '@.sycl_offloading.target.0 ')).toBe('@.sycl_offloading.target.0 = internal unnamed_addr constant [7 x i8] c"spir64\\00"');
    expect(line(ir, '@.sycl_offloading.opts.compile.0 ')).toBe('@.sycl_offloading.opts.compile.0 = internal unnamed_addr constant [1 x i8] zeroinitializer');
    expect(line(ir, '@.sycl_offloading.1.manifest')).toBe('@.sycl_offloading.1.manifest = internal unnamed_addr constant [2 x i8] c"\\01\\02"');
    expect(ir).not.toContain('@.sycl_offloading.0.manifest');
  });

  it('records each image in .tgtimg with its size, aligned to 16 and kept by llvm.used', () => {
    expect(line(ir, '@.sycl_offloading.0.info')).toBe(
      '@.sycl_offloading.0.info = internal local_unnamed_addr constant [2 x i64] [i64 ptrtoint (ptr @.sycl_offloading.0.data to i64), i64 6], section ".tgtimg", align 16',
    );
    expect(line(ir, '@llvm.used')).toBe('@llvm.used = appending global [2 x ptr] [ptr @.sycl_offloading.0.info, ptr @.sycl_offloading.1.info], section "llvm.metadata"');
  });

  it('emits offload entries with names, null addresses and zero sizes', () => {
    expect(line(ir, '@__sycl_offload_entries_arr ')).toBe(
      '@__sycl_offload_entries_arr = internal constant [2 x %__tgt_offload_entry] [%__tgt_offload_entry { ptr null, ptr @__sycl_offload_entry_name, i64 0, i32 0, i32 0 }, %__tgt_offload_entry { ptr null, ptr @__sycl_offload_entry_name.9, i64 0, i32 0, i32 0 }]',
    );
    expect(line(ir, '@__sycl_offload_entry_name.9')).toBe('@__sycl_offload_entry_name.9 = internal unnamed_addr constant [8 x i8] c"_ZTS2K2\\00"');
  });

  it('emits property sets with UINT32 values in ValSize and byte arrays with their 8-byte prefix', () => {
    expect(line(ir, '@__sycl_offload_prop_sets_arr ')).toBe(
      '@__sycl_offload_prop_sets_arr = internal constant [1 x %_pi_device_binary_property_struct] [%_pi_device_binary_property_struct { ptr @prop, ptr null, i32 1, i64 0 }]',
    );
    expect(line(ir, '@prop_val ')).toBe('@prop_val = internal unnamed_addr constant [12 x i8] c" \\00\\00\\00\\00\\00\\00\\00\\06\\00\\00\\00"');
    expect(line(ir, '@__sycl_offload_prop_sets_arr.2 ')).toBe(
      '@__sycl_offload_prop_sets_arr.2 = internal constant [1 x %_pi_device_binary_property_struct] [%_pi_device_binary_property_struct { ptr @prop.1, ptr @prop_val, i32 2, i64 12 }]',
    );
    expect(line(ir, '@SYCL_PropSetName ')).toBe('@SYCL_PropSetName = internal unnamed_addr constant [24 x i8] c"SYCL/devicelib req mask\\00"');
  });

  it('fills the device image structs: version 2, kind SYCL, format (SPIR-V detected), begin/end pointers', () => {
    const images = line(ir, '@.sycl_offloading.device_images')!;
    expect(images).toContain(
      '[%__tgt_device_image { i16 2, i8 4, i8 2, ptr @.sycl_offloading.target.0, ptr @.sycl_offloading.opts.compile.0, ptr @.sycl_offloading.opts.link.0, ptr null, ptr null, ptr @.sycl_offloading.0.data, ptr getelementptr inbounds ([6 x i8], ptr @.sycl_offloading.0.data, i64 1, i64 0), ptr @__sycl_offload_entries_arr, ptr getelementptr inbounds ([2 x %__tgt_offload_entry], ptr @__sycl_offload_entries_arr, i64 1, i64 0), ptr @__sycl_offload_prop_sets_arr.',
    );
    expect(images).toMatch(/^@\.sycl_offloading\.device_images = internal unnamed_addr constant \[2 x %__tgt_device_image\] /);
    // The empty image: begin = end.
    expect(images).toContain('ptr @.sycl_offloading.1.data, ptr @.sycl_offloading.1.data,');
  });

  it('emits the descriptor and registers it through global constructors and destructors', () => {
    expect(line(ir, '@.sycl_offloading.descriptor')).toBe(
      '@.sycl_offloading.descriptor = internal constant %__tgt_bin_desc { i16 1, i16 2, ptr @.sycl_offloading.device_images, ptr null, ptr null }',
    );
    expect(line(ir, '@llvm.global_ctors')).toBe('@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 1, ptr @sycl.descriptor_reg, ptr null }]');
    expect(line(ir, '@llvm.global_dtors')).toBe('@llvm.global_dtors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 1, ptr @sycl.descriptor_unreg, ptr null }]');
    expect(ir).toContain(
      'define internal void @sycl.descriptor_reg() section ".text.startup" {\nentry:\n  call void @__sycl_register_lib(ptr @.sycl_offloading.descriptor)\n  ret void\n}\n\ndeclare void @__sycl_register_lib(ptr)\n',
    );
    expect(ir).toContain(
      'define internal void @sycl.descriptor_unreg() section ".text.startup" {\nentry:\n  call void @__sycl_unregister_lib(ptr @.sycl_offloading.descriptor)\n  ret void\n}\n\ndeclare void @__sycl_unregister_lib(ptr)\n',
    );
  });

  it('makes a named descriptor external and can leave out the registration code', () => {
    const named = emitWrapperIR(descriptor(), { descriptorName: 'lalala', registrationFunctions: false });
    expect(line(named, '@.sycl_offloading.lalala')).toBe('@.sycl_offloading.lalala = constant %__tgt_bin_desc { i16 1, i16 2, ptr @.sycl_offloading.device_images, ptr null, ptr null }');
    for (const absent of ['llvm.global_ctors', 'llvm.global_dtors', '.tgtimg', 'llvm.used', '__sycl_register_lib']) expect(named).not.toContain(absent);
  });

  it('leaves the section off an image without a target and pointers null without entries or properties', () => {
    const plain = emitWrapperIR({ bundles: [{ target: '', images: [deviceImage({ target: '', image: Uint8Array.of(1), format: ImageFormat.NATIVE })] }] });
    expect(line(plain, '@.sycl_offloading.0.data')).toBe('@.sycl_offloading.0.data = internal unnamed_addr constant [1 x i8] c"\\01"');
    expect(plain).toContain('i8 1, ptr @.sycl_offloading.target.0');
    expect(plain).toContain('ptr null, ptr null, ptr null, ptr null }]');
    expect(plain).not.toContain('%__tgt_offload_entry =');
    expect(plain).not.toContain('%_pi_device_binary_property_struct =');
  });

  it('emits a valid module with no images at all', () => {
    const empty = emitWrapperIR({ bundles: [] });
    expect(line(empty, '@.sycl_offloading.device_images')).toBe('@.sycl_offloading.device_images = internal unnamed_addr constant [0 x %__tgt_device_image] zeroinitializer');
    expect(empty).not.toContain('llvm.used');
  });

  it('is canonical: parsing and printing it again changes nothing', () => {
    expect(printModule(parseModule(ir, { filename: 'offload.wrapper.object' }))).toBe(ir);
  });

  it('is what the generated text prints as (the round trip only canonicalizes)', () => {
    const text = wrapperModuleText(descriptor());
    expect(text).toContain('@.sycl_offloading.0.data');
    expect(printModule(parseModule(text, { filename: 'offload.wrapper.object' }))).toBe(ir);
  });

  it('refuses more than 65535 images (NumDeviceImages is a u16)', () => {
    const image = deviceImage({ target: 'spir64', image: new Uint8Array(0) });
    expect(() => wrapperModuleText({ bundles: [{ target: 'spir64', images: new Array(65536).fill(image) }] })).toThrow('too many images');
  });
});

describe.skipIf(llvmAs16 === undefined)(`wrapper IR with LLVM 16${llvmAs16 === undefined ? ` (skipped: ${LLVM16_MISSING})` : ''}`, () => {
  it('is accepted by llvm-as and printed back identically by llvm-dis', () => {
    const ir = emitWrapperIR(descriptor());
    expect(withoutModuleId(llvmRoundTrip(ir))).toBe(withoutModuleId(ir));
  });

  it.skipIf(llc16 === undefined)('compiles to a host object with the bundle sections, .tgtimg records and constructor arrays', () => {
    const object = execFileSync(llc16!, ['-filetype=obj', '-o', '-', '-'], { input: emitWrapperIR(descriptor()), maxBuffer: 1 << 26 });
    const sections = execFileSync(`${LLVM16_BIN}/llvm-readelf`, ['-S', '-'], { input: object }).toString();
    for (const section of ['__CLANG_OFFLOAD_BUNDLE__sycl-spir64', '__CLANG_OFFLOAD_BUNDLE__sycl-intel_gpu_pvc', '.tgtimg', '.init_array.1', '.fini_array.1']) {
      expect(sections).toContain(section);
    }
    const symbols = execFileSync(`${LLVM16_BIN}/llvm-nm`, ['-'], { input: object }).toString();
    expect(symbols).toMatch(/^\s+U __sycl_register_lib$/m);
    expect(symbols).toMatch(/^\s+U __sycl_unregister_lib$/m);
  });

  it('is accepted with a named descriptor and no registration code', () => {
    const ir = emitWrapperIR(descriptor(), { descriptorName: 'd', registrationFunctions: false });
    expect(withoutModuleId(llvmRoundTrip(ir))).toBe(withoutModuleId(ir));
  });
});
