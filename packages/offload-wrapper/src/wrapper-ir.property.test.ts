// Properties checked:
// 1. emitWrapperIR is canonical: printModule(parseModule(ir)) = ir for generated descriptors
//    (arbitrary names, targets, options, manifests, entries, property values, struct fields).
// 2. The module holds every image: one `.sycl_offloading.<N>.data` global of the image's length
//    per image, one device-image struct per image, and NumDeviceImages equal to the image count.
// 3. Deterministic: the same descriptor gives the same text.
// 4. With LLVM 16 installed: llvm-as accepts the module and llvm-dis prints exactly our text
//    (fewer runs: each spawns two processes).
import { test } from '@fast-check/vitest';
import { parseModule, printModule } from '@syclkit/ir';
import { describe, expect } from 'vitest';
import { buildDescriptor, descriptorShape } from '../test/arbitraries.js';
import { LLVM16_MISSING, llvmAs16, llvmRoundTrip, withoutModuleId } from '../test/llvm.js';
import { descriptorImages } from './descriptor.js';
import { fcOptions } from '@syclkit/testing';
import { emitWrapperIR } from './wrapper-ir.js';

describe('wrapper IR properties', () => {
  test.prop([descriptorShape], fcOptions(50))('parse(print(ir)) = ir', (shape) => {
    const ir = emitWrapperIR(buildDescriptor(shape));
    expect(printModule(parseModule(ir, { filename: 'offload.wrapper.object' }))).toBe(ir);
  });

  test.prop([descriptorShape], fcOptions(50))('every image is in the module', (shape) => {
    const descriptor = buildDescriptor(shape);
    const images = descriptorImages(descriptor);
    const ir = emitWrapperIR(descriptor);
    images.forEach((image, n) => {
      expect(ir).toMatch(new RegExp(`^@\\.sycl_offloading\\.${n}\\.data = internal unnamed_addr constant \\[${image.image.length} x i8\\] `, 'm'));
    });
    expect(ir).not.toContain(`@.sycl_offloading.${images.length}.data`);
    const imagesLine = ir.split('\n').find((l) => l.startsWith('@.sycl_offloading.device_images'))!;
    expect(imagesLine.split('%__tgt_device_image {').length - 1).toBe(images.length);
    expect(ir).toContain(`%__tgt_bin_desc { i16 1, i16 ${images.length}, ptr @.sycl_offloading.device_images`);
  });

  test.prop([descriptorShape], fcOptions(50))('deterministic', (shape) => {
    expect(emitWrapperIR(buildDescriptor(shape))).toBe(emitWrapperIR(buildDescriptor(shape)));
  });
});

describe.skipIf(llvmAs16 === undefined)(`wrapper IR with LLVM 16${llvmAs16 === undefined ? ` (skipped: ${LLVM16_MISSING})` : ''}`, () => {
  test.prop([descriptorShape], fcOptions(25))(
    'llvm-as 16 accepts it and llvm-dis prints it identically',
    (shape) => {
      const ir = emitWrapperIR(buildDescriptor(shape));
      expect(withoutModuleId(llvmRoundTrip(ir))).toBe(withoutModuleId(ir));
    },
    120_000,
  );
});
