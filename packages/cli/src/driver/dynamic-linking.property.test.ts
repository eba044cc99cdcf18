/**
 * Properties of device code dynamic linking, end to end through the driver and the runtime, on
 * generated programs: SYCL_EXTERNAL functions (using `double`, `sycl::half`, a 64-bit atomic, or
 * nothing, themselves or through an internal helper, and calling other SYCL_EXTERNAL functions)
 * and kernels (using aspects, calling those functions, some with a required sub-group size), with
 * each SYCL_EXTERNAL function placed in the application or in one of two device libraries. The
 * same translation units are compiled once as one program (`compileProgram`, no dynamic linking)
 * and once split (each library with `deviceLibrary`, the application with
 * `allowDeviceImageDependencies`), for `spir64` or `spir64,intel_gpu_dg1`, and every kernel is
 * submitted to four devices (intel_gpu_pvc, intel_gpu_dg1, and two described GPUs: fp64 only, and
 * no optional aspect).
 *
 * 1. Same answers: for every (kernel, device), what the runtime answers with the application and
 *    its libraries registered (in any order) — the launch runs, or the exact `errc: message` it
 *    throws — equals its answer for the single linked program.
 * 2. Linked code: every launch that runs in the split setup built a program with no unresolved
 *    reference, compiling every SYCL_EXTERNAL function of the kernel's static call graph.
 * 3. Unregistering: after one library is unregistered, every kernel whose static call graph
 *    reaches one of its functions throws errc.build naming one of them; every other kernel's
 *    answer is unchanged.
 */
import { describe, expect } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { ContainerReader } from '@syclkit/offload-wrapper';
import { Runtime, SyclError, deviceFromTarget, errc, parseDeviceDescription, range, type Device } from '@syclkit/runtime';
import { fcOptions } from '@syclkit/testing';
import { compileProgram, type CompileOptions } from './compile.js';

type Use = 'double' | 'half' | 'atomic' | 'none';
interface GenFunction {
  readonly uses: readonly Use[];
  readonly helperUses: readonly Use[];
  /** Indices of SYCL_EXTERNAL functions called (lower indices only: no recursion). */
  readonly calls: readonly number[];
  /** 0: the application; 1, 2: a device library. */
  readonly place: 0 | 1 | 2;
}
interface GenKernel {
  readonly uses: readonly Use[];
  readonly calls: readonly number[];
  readonly subGroup: 8 | undefined;
  /** The application translation unit (0 or 1). */
  readonly tu: 0 | 1;
}
interface GenProgram {
  readonly functions: readonly GenFunction[];
  readonly kernels: readonly GenKernel[];
  readonly aot: boolean;
  /** Registration order: the application's position among the binaries. */
  readonly appFirst: boolean;
}

const useArb = fc.constantFrom<Use>('double', 'half', 'atomic', 'none', 'none');
const programArb: fc.Arbitrary<GenProgram> = fc.integer({ min: 1, max: 5 }).chain((n) =>
  fc.record({
    functions: fc.tuple(
      ...Array.from({ length: n }, (_, i) =>
        fc.record({
          uses: fc.array(useArb, { maxLength: 2 }),
          helperUses: fc.array(useArb, { maxLength: 1 }),
          calls: i === 0 ? fc.constant([]) : fc.uniqueArray(fc.nat({ max: i - 1 }), { maxLength: 2 }),
          place: fc.constantFrom<0 | 1 | 2>(0, 1, 1, 2, 2),
        }),
      ),
    ),
    kernels: fc.array(
      fc.record({
        uses: fc.array(useArb, { maxLength: 1 }),
        calls: fc.uniqueArray(fc.nat({ max: n - 1 }), { maxLength: 2 }),
        subGroup: fc.constantFrom<8 | undefined>(undefined, undefined, 8),
        tu: fc.constantFrom<0 | 1>(0, 1),
      }),
      { minLength: 1, maxLength: 4 },
    ),
    aot: fc.boolean(),
    appFirst: fc.boolean(),
  }),
);

const fn = (i: number): string => `ext_f${i}`;
const kernelName = (i: number): string => `_ZTS2K${i}`;
const TU = ['app0', 'app1', 'libA', 'libB'] as const;

function useLines(uses: readonly Use[], prefix: string, md: (text: string) => string): string[] {
  return uses.map((use, k) => {
    if (use === 'double') return `  %${prefix}d${k} = fpext float %x to double`;
    if (use === 'half') return `  %${prefix}h${k} = alloca %"class.sycl::_V1::detail::half_impl::half", align 2`;
    if (use === 'atomic') return `  %${prefix}a${k} = call spir_func i64 @__spirv_AtomicIAdd(i64 1), !sycl_used_aspects ${md('!{i32 28}')}`;
    return `  %${prefix}n${k} = fadd float %x, 1.0`;
  });
}

/** The translation unit `tu` (index into TU) as clang would emit it: its definitions, declarations of what it calls elsewhere. */
function unitText(program: GenProgram, tu: number): string {
  const md: string[] = [];
  const node = (text: string): string => {
    md.push(text);
    return `!${md.length + 9}`;
  };
  const defined = new Set<number>();
  const called = new Set<number>();
  const parts: string[] = [];
  program.functions.forEach((f, i) => {
    const home = f.place === 0 ? 0 : f.place + 1;
    if (home !== tu) return;
    defined.add(i);
    f.calls.forEach((c) => called.add(c));
    const helper = f.helperUses.length > 0 ? [`  %hr = call spir_func float @helper_${i}(float %x)`] : [];
    parts.push(
      `define dso_local spir_func float @${fn(i)}(float %x) #0 {\nentry:\n${[...useLines(f.uses, '', node), ...helper, ...f.calls.map((c, k) => `  %c${k} = call spir_func float @${fn(c)}(float %x)`)].join('\n')}\n  ret float %x\n}\n`,
    );
    if (f.helperUses.length > 0) {
      parts.push(`define internal spir_func float @helper_${i}(float %x) #1 {\nentry:\n${useLines(f.helperUses, 'h', node).join('\n')}\n  ret float %x\n}\n`);
    }
  });
  program.kernels.forEach((k, i) => {
    if (k.tu !== tu) return;
    k.calls.forEach((c) => called.add(c));
    const sg = k.subGroup === undefined ? '' : ` !intel_reqd_sub_group_size ${node(`!{i32 ${k.subGroup}}`)}`;
    parts.push(
      `define weak_odr dso_local spir_kernel void @${kernelName(i)}(ptr addrspace(1) %p) #0${sg} {\nentry:\n  %x = load float, ptr addrspace(1) %p, align 4\n${[...useLines(k.uses, '', node), ...k.calls.map((c, j) => `  %c${j} = call spir_func float @${fn(c)}(float %x)`)].join('\n')}\n  store float %x, ptr addrspace(1) %p, align 4\n  ret void\n}\n`,
    );
  });
  for (const c of [...called].sort((a, b) => a - b)) if (!defined.has(c)) parts.push(`declare spir_func float @${fn(c)}(float)\n`);
  return `; ModuleID = '${TU[tu]}.cpp'
source_filename = "${TU[tu]}.cpp"
target triple = "spir64-unknown-unknown"

%"class.sycl::_V1::detail::half_impl::half" = type { half }

${parts.join('\n')}
declare spir_func i64 @__spirv_AtomicIAdd(i64)

attributes #0 = { "sycl-module-id"="${TU[tu]}.cpp" }
attributes #1 = { nounwind }

!sycl_aspects = !{!0, !1, !2}
!sycl_types_that_use_aspects = !{!3}
!0 = !{!"fp16", i32 5}
!1 = !{!"fp64", i32 6}
!2 = !{!"atomic64", i32 28}
!3 = !{!"class.sycl::_V1::detail::half_impl::half", i32 5}
${md.map((text, i) => `!${i + 10} = ${text}`).join('\n')}
`;
}

const DEVICES: readonly Device[] = [
  deviceFromTarget('intel_gpu_pvc'), // fp16 fp64 atomic64; sub-groups 16 32
  deviceFromTarget('intel_gpu_dg1'), // fp16 atomic64; sub-groups 8 16 32
  parseDeviceDescription('name: fp64-gpu\ndevice-type: gpu\nbackend: opencl\naspects: [gpu, fp64]\nsub-group-sizes: [8, 16]\nmax-work-group-size: 256\n', { file: 'fp64-gpu.yaml' }),
  parseDeviceDescription('name: bare-gpu\ndevice-type: gpu\nbackend: ext_oneapi_level_zero\naspects: [gpu]\nsub-group-sizes: [16]\nmax-work-group-size: 256\n', { file: 'bare-gpu.yaml' }),
];

async function compile(name: string, units: readonly number[], program: GenProgram, options: Partial<CompileOptions> = {}): Promise<ContainerReader> {
  const result = await compileProgram({
    units: units.map((tu) => ({ file: `${TU[tu]}.ll`, text: unitText(program, tu) })),
    targets: program.aot ? 'spir64,intel_gpu_dg1' : 'spir64',
    name,
    explainInfo: false,
    deviceObj: 'llvmir', // about dynamic linking, not SPIR-V (and no llvm-spirv needed)
    ...options,
  });
  const errors = result.diagnostics.items.filter((d) => d.severity === 'error');
  if (!result.ok || result.container === undefined) throw new Error(`compile ${name} failed: ${errors.map((d) => d.message).join('; ')}`);
  return ContainerReader.fromBytes(result.container, { fileName: `${name}.fatbin` });
}

/** What the runtime answers for a launch of `kernel` on `device`: `ok`, or the error it throws. */
function answer(runtime: Runtime, kernel: string, device: Device): string {
  try {
    runtime.launch(kernel, device, range(8));
    return 'ok';
  } catch (error) {
    if (error instanceof SyclError) return error.render();
    throw error;
  }
}

function answers(runtime: Runtime, program: GenProgram): Map<string, string> {
  const out = new Map<string, string>();
  program.kernels.forEach((_, i) => {
    for (const device of DEVICES) out.set(`${kernelName(i)}@${device.name}`, answer(runtime, kernelName(i), device));
  });
  return out;
}

/** The SYCL_EXTERNAL functions a kernel's static call graph reaches. */
function reach(program: GenProgram, kernel: GenKernel): Set<number> {
  const seen = new Set<number>();
  const work = [...kernel.calls];
  while (work.length > 0) {
    const f = work.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    work.push(...program.functions[f]!.calls);
  }
  return seen;
}

describe('dynamic linking (property)', () => {
  test.prop([programArb], fcOptions(40))('split into libraries, the runtime answers as for the single linked program', async (program) => {
    const appUnits = [0, 1].filter((tu) => program.kernels.some((k) => k.tu === tu) || (tu === 0 && program.functions.some((f) => f.place === 0)));
    const libraries = ([1, 2] as const).filter((place) => program.functions.some((f) => f.place === place));

    const whole = new Runtime();
    whole.registerFatBinary(await compile('whole', [...appUnits, ...libraries.map((place) => place + 1)], program));
    const expected = answers(whole, program);
    // The single program only ever runs or refuses with kernel_not_supported (nothing else can go wrong with it).
    for (const outcome of expected.values()) expect(outcome).toMatch(/^(ok|kernel_not_supported: .+)$/);

    const split = new Runtime();
    const app = await compile('app', appUnits, program, { allowDeviceImageDependencies: true });
    const libs = await Promise.all(libraries.map(async (place) => ({ place, reader: await compile(TU[place + 1]!, [place + 1], program, { deviceLibrary: true }) })));
    if (program.appFirst) split.registerFatBinary(app);
    const handles = libs.map((lib) => ({ place: lib.place, handle: split.registerFatBinary(lib.reader) }));
    if (!program.appFirst) split.registerFatBinary(app);

    // 1. Same answers.
    expect(answers(split, program)).toEqual(expected);

    // 2. Linked code.
    program.kernels.forEach((kernel, i) => {
      for (const device of DEVICES) {
        if (expected.get(`${kernelName(i)}@${device.name}`) !== 'ok') continue;
        const launch = split.launch(kernelName(i), device, range(8));
        expect(launch.program.unresolved).toEqual([]);
        for (const f of reach(program, kernel)) expect(launch.program.functions).toContain(fn(f));
      }
    });

    // 3. Unregistering a library.
    const gone = handles[0];
    if (gone !== undefined) {
      gone.handle.unregister();
      const theirs = new Set(program.functions.flatMap((f, i) => (f.place === gone.place ? [fn(i)] : [])));
      program.kernels.forEach((kernel, i) => {
        const needsIt = [...reach(program, kernel)].some((f) => theirs.has(fn(f)));
        for (const device of DEVICES) {
          const now = answer(split, kernelName(i), device);
          if (!needsIt) {
            expect(now).toBe(expected.get(`${kernelName(i)}@${device.name}`));
            continue;
          }
          expect(now).toMatch(new RegExp(`^${errc.build}: No device image found for external symbol `));
          const symbol = /external symbol (\S+),/.exec(now)?.[1];
          expect(theirs.has(symbol ?? '')).toBe(true);
        }
      });
    }
  });
});
