import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AspectTable, builtinAspectTable } from './aspects.js';
import { DeviceConfig } from './config.js';
import { formatMacroFlags } from './sycl-targets.js';
import { deviceTraitsHeader } from './traits-header.js';
import { driverMacros } from './traits.js';

describe('deviceTraitsHeader', () => {
  const header = deviceTraitsHeader();

  it('specializes both traits for every enumerator of the aspect enum', () => {
    for (const { name } of builtinAspectTable.enumerators()) {
      expect(header).toContain(`template <> struct all_devices_have<::sycl::aspect::${name}> : std::bool_constant<__SYCL_ALL_DEVICES_HAVE_${name}__> {};`);
      expect(header).toContain(`template <> struct any_device_has<::sycl::aspect::${name}> : std::bool_constant<__SYCL_ANY_DEVICE_HAS_${name}__> {};`);
      expect(header).toContain(`#ifndef __SYCL_ANY_DEVICE_HAS_${name}__\n#define __SYCL_ANY_DEVICE_HAS_${name}__ 0\n#endif`);
    }
  });

  it('does not specialize aliases or removed values (they are no enumerators of their own)', () => {
    expect(header).not.toContain('aspect::usm_system_allocator>');
    expect(header).not.toContain('ext_oneapi_bfloat16_math_functions');
    expect(header).not.toContain('ext_oneapi_interop_memory_import');
  });

  it('makes any_device_has trivially true under __SYCL_ANY_DEVICE_HAS_ANY_ASPECT__', () => {
    expect(header).toContain('#ifdef __SYCL_ANY_DEVICE_HAS_ANY_ASPECT__\n// Special case where any_device_has is trivially true.\ntemplate <::sycl::aspect Aspect> struct any_device_has : std::true_type {};\n#else');
  });

  it('follows a custom table, namespace and enum', () => {
    const custom = deviceTraitsHeader({ aspectTable: AspectTable.fromPairs([['a', 1], ['b', 2]]), namespace: 'mine', aspectEnum: '::mine::aspect' });
    expect(custom).toContain('namespace mine {');
    expect(custom).toContain('template <> struct all_devices_have<::mine::aspect::b> : std::bool_constant<__SYCL_ALL_DEVICES_HAVE_b__> {};');
    expect(custom).not.toContain('fp64');
  });

  it('is deterministic', () => {
    expect(deviceTraitsHeader()).toBe(header);
  });

  // Compiles the header against a stand-in aspect enum and checks the trait values the macros give.
  const compiler = (() => {
    for (const candidate of ['c++', 'g++', 'clang++']) {
      try {
        execFileSync(candidate, ['--version'], { stdio: 'ignore' });
        return candidate;
      } catch {
        // try the next one
      }
    }
    return undefined;
  })();

  it.skipIf(compiler === undefined)('compiles, and the traits follow the driver macros for intel_gpu_pvc', () => {
    const dir = mkdtempSync(join(tmpdir(), 'syclkit-traits-'));
    try {
      const enumerators = builtinAspectTable.enumerators().map(({ name, value }) => `${name} = ${value}`).join(', ');
      writeFileSync(join(dir, 'traits.hpp'), header);
      writeFileSync(
        join(dir, 'check.cpp'),
        [
          `namespace sycl { enum class aspect { ${enumerators} }; }`,
          '#include "traits.hpp"',
          'static_assert(sycl::all_devices_have_v<sycl::aspect::fp64>);',
          'static_assert(sycl::any_device_has_v<sycl::aspect::fp16>);',
          'static_assert(!sycl::any_device_has_v<sycl::aspect::gpu>);',
          'static_assert(!sycl::all_devices_have_v<sycl::aspect::cpu>);',
          'int main() { return 0; }',
          '',
        ].join('\n'),
      );
      const defines = formatMacroFlags(driverMacros(DeviceConfig.builtin(), ['intel_gpu_pvc']));
      execFileSync(compiler!, ['-std=c++17', '-fsyntax-only', ...defines, join(dir, 'check.cpp')], { stdio: 'pipe' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
