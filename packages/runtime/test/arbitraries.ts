/**
 * Generators for the runtime's property tests: programs (kernels with random aspects, helpers,
 * device_has, required sizes, device_if calls, fixed-target translation units), devices (built-in
 * Intel GPU targets and described devices), AOT target sets and submissions.
 */
import { fc } from '@fast-check/vitest';
import { architectureByName, truncateArchitectureToInt32 } from '@syclkit/device-config';
import { andConditions, architectureCondition, aspectCondition, notCondition, orConditions, type Condition } from '@syclkit/device-if';
import { Device, deviceFromTarget } from '../src/index.js';
import type { ModelConditionalCall, ModelHelper, ModelKernel, ModelProgram } from './program-model.js';

/** fp16, fp64, atomic64, image (no built-in Intel GPU has `image`). */
export const ASPECT_POOL = [5, 6, 28, 9] as const;
export const SUB_GROUP_POOL = [8, 16, 32] as const;
/** 64, 256, 1024, 512 and 600 (over dg1's 512), 2048 (over every built-in limit). */
export const WORK_GROUP_POOL: readonly (readonly number[])[] = [[64], [16, 16], [32, 32], [8, 8, 8], [600], [1024, 2]];
export const TARGETS = ['intel_gpu_pvc', 'intel_gpu_dg1', 'intel_gpu_skl'] as const;
/** One device of each built-in target (what every device of the target supports). */
const targetDevices = TARGETS.map((target) => deviceFromTarget(target));

const subset = <T>(values: readonly T[]) => fc.subarray([...values]);

/** Aspect sets weighted towards none or one common aspect, so that kernels run on some devices. */
const aspectSet: fc.Arbitrary<readonly number[]> = fc.oneof(
  { weight: 5, arbitrary: fc.constant([]) },
  { weight: 3, arbitrary: fc.constantFrom(5, 6, 28).map((a) => [a]) },
  { weight: 1, arbitrary: subset(ASPECT_POOL) },
);

const architectureOperand = fc.constantFrom(...TARGETS).map((name) => truncateArchitectureToInt32(architectureByName(name)!.value));

/** Conditions over the aspect pool and the three architectures, up to two levels deep. */
export const condition: fc.Arbitrary<Condition> = fc.letrec<{ node: Condition }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...ASPECT_POOL).map(aspectCondition),
    architectureOperand.map((operand) => architectureCondition(operand)),
    tie('node').map(notCondition),
    fc.tuple(tie('node'), tie('node')).map(([a, b]) => andConditions(a, b)),
    fc.tuple(tie('node'), tie('node')).map(([a, b]) => orConditions(a, b)),
  ),
})).node;

interface KernelDraft {
  readonly tu: number;
  readonly aspects: readonly number[];
  readonly helpers: readonly number[];
  readonly declared: readonly number[];
  readonly subGroupSize: number | undefined;
  readonly workGroupSize: readonly number[] | undefined;
  readonly conditional: readonly { condition: Condition; aspects: readonly number[] }[];
}

const kernelDraft: fc.Arbitrary<KernelDraft> = fc.record({
  tu: fc.integer({ min: 0, max: 2 }),
  aspects: aspectSet,
  helpers: subset([0, 1, 2]),
  declared: fc.oneof({ weight: 4, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: aspectSet }),
  subGroupSize: fc.option(fc.constantFrom(...SUB_GROUP_POOL), { nil: undefined, freq: 3 }),
  workGroupSize: fc.option(fc.constantFrom(...WORK_GROUP_POOL), { nil: undefined, freq: 3 }),
  conditional: fc.array(fc.record({ condition, aspects: aspectSet }), { maxLength: 2 }),
});

/**
 * Programs of 1 to 5 kernels over three translation units and three shared helpers. Translation
 * unit 2 may be compiled with `-fsycl-fixed-targets`; its kernels are valid for every listed
 * target (only aspects all of them have, no required sizes, no device_if), as a program the
 * front end accepts without warnings.
 */
export const program: fc.Arbitrary<ModelProgram> = fc
  .record({
    helpers: fc.tuple(aspectSet, aspectSet, aspectSet),
    kernels: fc.array(kernelDraft, { minLength: 1, maxLength: 5 }),
    fixed: fc.option(fc.subarray([...TARGETS], { minLength: 1 }), { nil: undefined, freq: 2 }),
  })
  .map(({ helpers: helperAspects, kernels, fixed }) => {
    const helpers: ModelHelper[] = helperAspects.map((aspects, i) => ({ name: `helper${i}`, aspects }));
    const allowed: readonly number[] = fixed === undefined ? [] : ASPECT_POOL.filter((a) => fixed.every((t) => targetDevices[TARGETS.indexOf(t)]!.has(a)));
    let actions = 0;
    const models = kernels.map((draft, i): ModelKernel => {
      const inFixed = fixed !== undefined && draft.tu === 2;
      const keep = (aspects: readonly number[]) => (inFixed ? aspects.filter((a) => allowed.includes(a)) : aspects);
      const conditional: ModelConditionalCall[] = inFixed ? [] : draft.conditional.map((call) => ({ condition: call.condition, action: { name: `action${actions++}`, aspects: call.aspects } }));
      return {
        name: `K${i}`,
        tu: draft.tu,
        aspects: keep(draft.aspects),
        helpers: draft.helpers.map((h) => helpers[h]!).filter((h) => !inFixed || h.aspects.every((a) => allowed.includes(a))),
        declared: keep(draft.declared),
        ...(inFixed || draft.subGroupSize === undefined ? {} : { subGroupSize: draft.subGroupSize }),
        ...(inFixed || draft.workGroupSize === undefined ? {} : { workGroupSize: draft.workGroupSize }),
        conditional,
      };
    });
    return { kernels: models, fixedTargets: fixed === undefined ? new Map() : new Map([[2, fixed]]) };
  });

/** A device described by hand: no target, no architecture (it runs SPIR-V). */
const describedDevice: fc.Arbitrary<Device> = fc
  .record({
    aspects: fc.oneof(fc.constant([...ASPECT_POOL]), fc.constant([5, 6, 28]), subset(ASPECT_POOL)),
    subGroups: fc.oneof(fc.constant([8, 16, 32]), subset([8, 16, 32, 64])),
    max: fc.constantFrom(128, 256, 512, 1024, 2048),
    backend: fc.constantFrom('opencl' as const, 'ext_oneapi_level_zero' as const),
  })
  .map(({ aspects, subGroups, max, backend }) => new Device({ name: 'described', aspects, subGroupSizes: subGroups, maxWorkGroupSize: max, backend, deviceType: 'gpu' }));

export const device: fc.Arbitrary<Device> = fc.oneof(fc.constantFrom(...targetDevices), describedDevice);

/** AOT bundles to add: [bundle target spelling, configuration target]; dg1 is named by its IP-version alias. */
export const aotTargets: fc.Arbitrary<(readonly [string, string])[]> = fc.subarray([
  ['intel_gpu_pvc', 'intel_gpu_pvc'] as const,
  ['intel_gpu_12_10_0', 'intel_gpu_dg1'] as const,
  ['intel_gpu_skl', 'intel_gpu_skl'] as const,
]);

/** How a kernel is launched: a range, an nd_range with its required size as the local size, or single_task. */
export type LaunchKind = 'range' | 'nd_range' | 'single_task';
export const launchKind: fc.Arbitrary<LaunchKind> = fc.constantFrom('range', 'nd_range', 'single_task');
