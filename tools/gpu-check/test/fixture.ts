/**
 * Test data for gpu-check's run step: what `prepare` writes (manifest, fat binaries, parameters),
 * made from hand-written PTX with the demo kernels' entry points and parameter lists, and a
 * FakeCudaDriver whose kernels compute what the demo kernels compute. No GPU, no LLVM.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PropertySetName, PropertySetRegistry, addDeviceRequirements, bitVectorValue, type DeviceRequirements } from '@syclkit/formats';
import { deviceImage, writeContainerFile, type DeviceImage } from '@syclkit/offload-wrapper';
import { FakeCudaDriver, type FakeLaunch } from '@syclkit/runtime';
import { kernelParams } from '../src/kernel-params.js';
import { fromHalfBits, toHalfBits } from '../src/numbers.js';
import type { Manifest } from '../src/prepare.js';

const TARGET = 'nvidia_gpu_sm_90';

/** PTX with one empty-bodied entry per kernel, parameters as PTX types. */
export function ptx(kernels: Readonly<Record<string, readonly string[]>>): string {
  const entries = Object.entries(kernels).map(
    ([name, params]) => `.visible .entry ${name}(\n${params.map((type, i) => `\t.param ${type} ${name}_param_${i}${type.startsWith('.align') ? '[8]' : ''}`).join(',\n')}\n)\n{\n\tret;\n}\n`,
  );
  return `//\n// test data\n//\n.version 7.8\n.target sm_90\n.address_size 64\n\n${entries.join('\n')}`;
}

const DEMO: Readonly<Record<string, readonly string[]>> = {
  _ZTS9Integrate: ['.u64', '.u64', '.f32'],
  _ZTS13ScaleVelocity: ['.u64'],
  _ZTS14EnergyCounters: ['.u64'],
  _ZTS11ShadePixels: ['.u64'],
  _ZTS13HalfHistogram: ['.u64', '.u64'],
};

const BENCH: Readonly<Record<string, readonly string[]>> = { _ZTS2K0: ['.u64', '.align 8 .b8', '.align 8 .b8', '.align 8 .b8', '.u32'], _ZTS2K1: ['.u64', '.u32'] };
const BENCH_REFUSED: Readonly<Record<string, readonly string[]>> = { _ZTS2K2: ['.u64'], _ZTS2K3: ['.u64'] };

function image(name: string, kernels: readonly string[], code: string | undefined, requirements: DeviceRequirements = {}): DeviceImage {
  const properties = new PropertySetRegistry();
  addDeviceRequirements(properties, { ...requirements, compileTarget: TARGET });
  properties.ensureSet(PropertySetName.KERNEL_PARAM_OPT_INFO);
  for (const kernel of kernels) properties.add(PropertySetName.KERNEL_PARAM_OPT_INFO, kernel, bitVectorValue((DEMO[kernel] ?? BENCH[kernel] ?? BENCH_REFUSED[kernel] ?? ['.u64', '.u64']).map(() => false)));
  return deviceImage({ name, target: TARGET, image: code === undefined ? new Uint8Array() : Buffer.from(code), entries: kernels, properties, empty: code === undefined });
}

const BENCH_IR = `target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"
%"class.sycl::_V1::detail::array" = type { [1 x i64] }
%"class.sycl::_V1::range" = type { %"class.sycl::_V1::detail::array" }
%"class.sycl::_V1::id" = type { %"class.sycl::_V1::detail::array" }
define spir_kernel void @_ZTS2K0(ptr addrspace(1) %a, ptr byval(%"class.sycl::_V1::range") %r1, ptr byval(%"class.sycl::_V1::range") %r2, ptr byval(%"class.sycl::_V1::id") %o, i32 %s) {
  ret void
}
define spir_kernel void @_ZTS2K1(ptr addrspace(1) %a, i32 %s) {
  ret void
}
define spir_kernel void @_ZTS2K2(ptr addrspace(1) %a) !intel_reqd_sub_group_size !0 {
  ret void
}
!0 = !{i32 16}
`;

/** The printf calls the fixture's manifest says the first-launch kernel makes (schedule-independent). */
export const FIXTURE_PRINTF_LINES = 3;

/** Writes prepare's output for the fixture into `dir`. */
export function writeFixture(dir: string): Manifest {
  const demoImages = Object.keys(DEMO).map((k, i) => image(`demo_${i}`, [k], ptx({ [k]: DEMO[k]! })));
  const refused = image('demo_sg8', ['_ZTS14SubgroupReduce'], undefined, { reqdSubGroupSize: 8 });
  const nbody = ['_ZTS9Integrate', '_ZTS13ScaleVelocity', '_ZTS14EnergyCounters'];
  const shade = ['_ZTS11ShadePixels', '_ZTS13HalfHistogram'];
  const pick = (names: string[]) => Object.fromEntries(names.map((n) => [n, DEMO[n]!]));
  writeContainerFile(join(dir, 'demo-per_kernel.fatbin'), { bundles: [{ target: TARGET, images: [...demoImages, refused] }] });
  writeContainerFile(join(dir, 'demo-auto.fatbin'), { bundles: [{ target: TARGET, images: [image('nbody', nbody, ptx(pick(nbody))), image('shade', shade, ptx(pick(shade))), refused] }] });
  const benchKernels = Object.keys(BENCH);
  const sg16 = image('bench_sg16', ['_ZTS2K2'], undefined, { reqdSubGroupSize: 16 });
  // A kernel with a required 2-D work-group size: building it takes a 2-D range.
  const wg2d = image('bench_wg2d', ['_ZTS2K3'], ptx({ _ZTS2K3: ['.u64'] }), { reqdWorkGroupSize: [8n, 4n] });
  writeContainerFile(join(dir, 'bench-per_kernel.fatbin'), { bundles: [{ target: TARGET, images: [...benchKernels.map((k, i) => image(`bench_${i}`, [k], ptx({ [k]: BENCH[k]! }))), sg16, wg2d] }] });
  writeContainerFile(join(dir, 'bench-off.fatbin'), { bundles: [{ target: TARGET, images: [image('bench_all', benchKernels, ptx(BENCH))] }] });
  writeFileSync(join(dir, 'bench-params.json'), JSON.stringify(Object.fromEntries(kernelParams(BENCH_IR, 'bench.ll'))));
  const manifest: Manifest = {
    target: TARGET,
    demo: { per_kernel: 'demo-per_kernel.fatbin', auto: 'demo-auto.fatbin' },
    bench: { kernelCount: 2, seed: 1, fatbins: { per_kernel: 'bench-per_kernel.fatbin', off: 'bench-off.fatbin' }, params: 'bench-params.json', firstKernel: '_ZTS2K0',
      firstKernelEmulation: { workItems: 1024, steps: 5120, printfCalls: FIXTURE_PRINTF_LINES, complete: true, printf: { inOrder: FIXTURE_PRINTF_LINES, reversed: FIXTURE_PRINTF_LINES, isolated: FIXTURE_PRINTF_LINES, scheduleIndependent: true } },
      firstKernelPassedOver: [{ kernel: '_ZTS2K9', why: 'prints nothing' }],
      refusedKernel: { name: '_ZTS2K2', subGroupSize: 16 } },
    commands: [],
    createdAt: '2026-01-01T00:00:00.000Z',
  };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  return manifest;
}

const GAMMA = new Float64Array(new BigUint64Array([0x3fdd1745d1745d17n]).buffer)[0]!;

/** A fake device whose kernels compute what the demo's kernels compute; `wrong` breaks one. */
export function demoDriver(wrong?: string): FakeCudaDriver {
  const f32 = (launch: FakeLaunch, param: number, count: number): Float32Array => {
    const pointer = new DataView(launch.params[param]!.buffer).getBigUint64(0, true);
    const bytes = launch.memory(pointer, count * 4);
    return new Float32Array(bytes.buffer, bytes.byteOffset, count);
  };
  const threads = (l: FakeLaunch): number => l.grid[0] * l.block[0] * l.grid[1] * l.block[1];
  const kernels: Record<string, (launch: FakeLaunch) => void> = {
    _ZTS9Integrate: (l) => {
      const n = threads(l);
      const [pos, vel] = [f32(l, 0, n), f32(l, 1, n)];
      const dt = new DataView(l.params[2]!.buffer).getFloat32(0, true);
      for (let i = 0; i < n; i++) pos[i] = Math.fround(pos[i]! + Math.fround(vel[i]! * dt));
    },
    _ZTS13ScaleVelocity: (l) => {
      const vel = f32(l, 0, threads(l));
      for (let i = 0; i < vel.length; i++) vel[i] = Math.fround(vel[i]! * 0.99);
    },
    _ZTS14EnergyCounters: (l) => {
      const pointer = new DataView(l.params[0]!.buffer).getBigUint64(0, true);
      const hits = new DataView(l.memory(pointer, 8).buffer, l.memory(pointer, 8).byteOffset, 8);
      hits.setBigUint64(0, hits.getBigUint64(0, true) + BigInt(threads(l)), true);
    },
    _ZTS11ShadePixels: (l) => {
      const px = f32(l, 0, threads(l));
      for (let i = 0; i < px.length; i++) px[i] = fromHalfBits(toHalfBits(Math.fround(Math.pow(px[i]!, GAMMA))));
    },
    _ZTS13HalfHistogram: (l) => {
      const n = threads(l);
      const inBytes = l.memory(new DataView(l.params[0]!.buffer).getBigUint64(0, true), n * 2);
      const input = new Uint16Array(inBytes.buffer, inBytes.byteOffset, n);
      const histBytes = l.memory(new DataView(l.params[1]!.buffer).getBigUint64(0, true), 64 * 4);
      const hist = new Int32Array(histBytes.buffer, histBytes.byteOffset, 64);
      for (let i = 0; i < n; i++) hist[Math.trunc(fromHalfBits(input[i]!) * 32)]!++;
    },
  };
  if (wrong !== undefined) {
    const right = kernels[wrong]!;
    kernels[wrong] = (l) => {
      right(l);
      const px = f32(l, 0, 1);
      px[0] = px[0]! + 1;
    };
  }
  return new FakeCudaDriver({ kernels });
}
