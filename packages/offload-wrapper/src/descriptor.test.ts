import { PropertySetRegistry, PropertyType } from '@syclkit/formats';
import { describe, expect, it } from 'vitest';
import {
  checkDeviceImage,
  descriptorImages,
  detectImageFormat,
  deviceImage,
  DEVICE_IMAGE_VERSION,
  ImageFormat,
  imageFormatName,
  OffloadKind,
  offloadKindName,
} from './descriptor.js';
import { WrapperError } from './errors.js';

describe('detectImageFormat', () => {
  it('recognises SPIR-V and LLVM bitcode (plain and wrapped) by their first four bytes, as the runtime does', () => {
    expect(detectImageFormat(Uint8Array.of(0x03, 0x02, 0x23, 0x07, 0))).toBe(ImageFormat.SPIRV);
    expect(detectImageFormat(Uint8Array.of(0x42, 0x43, 0xc0, 0xde))).toBe(ImageFormat.LLVMIR_BITCODE);
    expect(detectImageFormat(Uint8Array.of(0xde, 0xc0, 0x17, 0x0b, 0))).toBe(ImageFormat.LLVMIR_BITCODE);
    expect(detectImageFormat(Uint8Array.of(0x07, 0x23, 0x02, 0x03))).toBe(ImageFormat.NONE);
    expect(detectImageFormat(Uint8Array.of(0x42, 0x43, 0xc0))).toBe(ImageFormat.NONE);
  });
});

describe('names', () => {
  it('spells formats and kinds as clang-offload-wrapper flags do', () => {
    expect([0, 1, 2, 3, 4, 9].map(imageFormatName)).toEqual(['none', 'native', 'spirv', 'llvmbc', 'compressed', 'format 9']);
    expect([0, 1, 2, 3, 4, 7].map(offloadKindName)).toEqual(['unknown', 'host', 'openmp', 'hip', 'sycl', 'kind 7']);
    expect(OffloadKind.SYCL).toBe(4);
  });
});

describe('deviceImage', () => {
  it('fills in clang-offload-wrapper defaults', () => {
    const image = deviceImage({ target: 'spir64', image: Uint8Array.of(0x42, 0x43, 0xc0, 0xde) });
    expect(image).toMatchObject({
      name: '',
      version: DEVICE_IMAGE_VERSION,
      kind: OffloadKind.SYCL,
      format: ImageFormat.LLVMIR_BITCODE,
      compileOptions: '',
      linkOptions: '',
      manifest: null,
      entries: [],
      empty: false,
    });
    expect(image.version).toBe(2);
    expect(image.properties.size).toBe(0);
  });

  it('rejects what the runtime struct cannot hold', () => {
    const base = { target: 'spir64', image: new Uint8Array(0) };
    const cases: [Parameters<typeof deviceImage>[0], string][] = [
      [{ ...base, version: -1 }, 'version must be an integer in 0..65535, got -1'],
      [{ ...base, kind: 256 }, 'kind must be an integer in 0..255, got 256'],
      [{ ...base, format: 1.5 }, 'format must be an integer in 0..255, got 1.5'],
      [{ ...base, target: 'spir\0' }, 'target contains NUL'],
      [{ ...base, entries: ['ok', 'bad\ud800'] }, 'entry 1 contains an unpaired UTF-16 surrogate'],
      [{ ...base, name: 'x', image: Uint8Array.of(1), empty: true }, "device image 'x': an empty (filtered) image has no bytes, got 1"],
    ];
    for (const [init, message] of cases) expect(() => deviceImage(init), message).toThrow(message);
    expect(() => deviceImage({ ...base, name: 'x', version: -1 })).toThrow(WrapperError);
  });

  it('rejects property values whose sizes disagree', () => {
    const properties = new PropertySetRegistry();
    properties.add('S', 'p', { type: PropertyType.BYTE_ARRAY, bitCount: 9, payload: Uint8Array.of(1) });
    const image = { ...deviceImage({ target: 't', image: new Uint8Array(0) }), properties };
    expect(() => checkDeviceImage(image)).toThrow(
      "device image: property 'p' in [S]: 1 bytes cannot hold 9 bits",
    );
  });
});

describe('descriptorImages', () => {
  it('lists images bundle by bundle, in registration order', () => {
    const a = deviceImage({ name: 'a', target: 'x', image: new Uint8Array(0) });
    const b = deviceImage({ name: 'b', target: 'y', image: new Uint8Array(0) });
    const c = deviceImage({ name: 'c', target: 'y', image: new Uint8Array(0) });
    expect(descriptorImages({ bundles: [{ target: 'x', images: [a] }, { target: 'y', images: [b, c] }] }).map((i) => i.name)).toEqual(['a', 'b', 'c']);
  });
});
