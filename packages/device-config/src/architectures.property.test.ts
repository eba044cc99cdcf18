/*
 * Properties of the architecture encoding:
 * 1. decode(encode(fields)) = fields for every well-formed set of fields (round trip).
 * 2. encode(decode(value)) = value for every value with a known family code.
 * 3. The int32 truncation of a value is the C cast of its low word: (id << 8 | suffix) as int32.
 * 4. Intel GPU IP versions round-trip through the GMDID layout.
 * 5. Every enumerator of the table round-trips and its name and aliases find it again.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import {
  ARCHITECTURES,
  architectureByName,
  decodeArchitecture,
  decodeIntelGpuIpVersion,
  encodeArchitecture,
  encodeIntelGpuIpVersion,
  truncateArchitectureToInt32,
  type ArchitectureFamily,
} from './architectures.js';
import { fcOptions } from '@syclkit/testing';

const families: ArchitectureFamily[] = ['intel_gpu', 'nvidia_gpu', 'amd_gpu', 'intel_cpu', 'unknown'];
const fields = fc.record({
  family: fc.constantFrom(...families),
  reserved: fc.integer({ min: 0, max: 0xffff }),
  id: fc.integer({ min: 0, max: 0xffffffff }),
  suffix: fc.integer({ min: 0, max: 0xff }),
});

describe('architecture encoding properties', () => {
  test.prop([fields], fcOptions())('decode(encode(fields)) returns the fields', (f) => {
    expect(decodeArchitecture(encodeArchitecture(f))).toEqual(f);
  });

  test.prop([fields], fcOptions())('encode(decode(value)) returns the value', (f) => {
    const value = encodeArchitecture(f);
    expect(encodeArchitecture(decodeArchitecture(value))).toBe(value);
  });

  test.prop([fields], fcOptions())('the int32 truncation keeps only id and suffix, as a C cast does', (f) => {
    // JavaScript's << already wraps to int32, which is what static_cast<int> does to the low word.
    expect(truncateArchitectureToInt32(encodeArchitecture(f))).toBe((f.id << 8) | f.suffix);
  });

  test.prop([fc.integer({ min: 0, max: 0x3ff }), fc.integer({ min: 0, max: 0xff }), fc.integer({ min: 0, max: 0x3f })], fcOptions())(
    'Intel GPU IP versions round-trip through the GMDID layout',
    (major, minor, revision) => {
      expect(decodeIntelGpuIpVersion(encodeIntelGpuIpVersion({ major, minor, revision }))).toEqual({ major, minor, revision });
    },
  );

  test.prop([fc.constantFrom(...ARCHITECTURES)], fcOptions())('every enumerator round-trips and is found by its names', (info) => {
    expect(encodeArchitecture(decodeArchitecture(info.value))).toBe(info.value);
    for (const name of [info.name, ...info.aliases]) expect(architectureByName(name)).toBe(info);
  });
});
