/**
 * Properties of submission, over generated programs (kernels with random aspects, shared helpers,
 * device_has, required sub-group and work-group sizes, device_if calls, fixed-target translation
 * units), every way of building the binary in each split mode with random AOT bundles (post-link's
 * design split with add-on images; post-link's specialization-constant strategy, or for programs
 * with device_if calls or fixed targets, which post-link does not combine with it, the test-only
 * specialization-constant builder), and devices (built-in Intel GPU targets, described devices):
 *
 * 1. `submit(K, D)` throws errc.kernel_not_supported if and only if D does not meet K's
 *    requirements (the oracle: fixed targets, used and declared aspects, the aspects of device_if
 *    actions whose condition holds on D, sub-group size, work-group size); it never fails in any
 *    other way (no build failure from speculative compilation, no nd_range or runtime error).
 * 2. When it succeeds, the program compiles K, and every device_if action of K is linked from its
 *    real add-on image exactly when the condition holds on D (the stub otherwise).
 * 3. Submitting again gives the same result: the same image from the program cache, or the same
 *    error.
 * 4. The outcome (success, or the error message) is the same for every way of building the binary.
 */
import { fc, test } from '@fast-check/vitest';
import { DeviceConfig } from '@syclkit/device-config';
import { evaluateCondition } from '@syclkit/device-if';
import { PropertyType } from '@syclkit/formats';
import type { BinaryDescriptor, DeviceImage } from '@syclkit/offload-wrapper';
import { describe, expect } from 'vitest';
import { aotTargets, device, launchKind, program, type LaunchKind } from '../test/arbitraries.js';
import { postLinkBinary } from '../test/post-link-binary.js';
import { TEST_ASPECT_TABLE, requirementsMet, testOnlySpecConstantBinary, type ModelKernel, type ModelProgram, type SplitMode } from '../test/program-model.js';
import { ADD_ON_IMAGE_SET, Runtime, SyclError, errc, ndRange, range, type Device, type KernelLaunch } from './index.js';
import { fcOptions } from '@syclkit/testing';

const config = DeviceConfig.builtin();
const options = fcOptions(60);
/** Each run builds up to nine binaries; allow about half a second per run. */
const timeout = Math.max(30_000, options.numRuns * 500);
const MODES: readonly SplitMode[] = ['none', 'source', 'kernel'];

async function strategies(p: ModelProgram, aot: readonly (readonly [string, string])[]): Promise<[string, BinaryDescriptor][]> {
  const out: [string, BinaryDescriptor][] = [];
  // post-link's spec-constant strategy takes neither device_if calls nor fixed targets.
  const postLinkSpecConstants = p.kernels.every((k) => k.conditional.length === 0) && p.fixedTargets.size === 0;
  for (const mode of MODES) {
    out.push([`post-link bundling ${mode}`, await postLinkBinary(p, mode, aot, config, 'bundling')]);
    if (postLinkSpecConstants) out.push([`post-link spec-constants ${mode}`, await postLinkBinary(p, mode, aot, config, 'spec-constants')]);
    else out.push([`test-only spec-constants ${mode}`, testOnlySpecConstantBinary(p, mode, aot, config)]);
  }
  return out;
}

/** Whether an image is the definitions half of an add-on pair (true), the stub half (false), or neither. */
function addOnHalf(image: DeviceImage | undefined): boolean | undefined {
  const set = image?.properties.getSet(ADD_ON_IMAGE_SET);
  const value = set === undefined ? undefined : [...set.values()][0];
  return value?.type === PropertyType.UINT32 ? value.value === 1 : undefined;
}

function submit(runtime: Runtime, kernel: ModelKernel, d: Device, how: LaunchKind): KernelLaunch {
  const queue = runtime.queue(d);
  const wg = kernel.workGroupSize;
  if (wg === undefined) {
    if (how === 'single_task') return queue.singleTask(kernel.name);
    return queue.parallelFor(kernel.name, how === 'nd_range' ? ndRange([64], [8]) : range(64));
  }
  if (how === 'nd_range') return queue.parallelFor(kernel.name, ndRange(wg.map((s) => 2 * s), wg));
  if (how === 'single_task' && wg.length === 1) return queue.singleTask(kernel.name);
  return queue.parallelFor(kernel.name, range(...wg.map((s) => 2 * s)));
}

type Outcome = { readonly ok: true; readonly launch: KernelLaunch } | { readonly ok: false; readonly error: SyclError };

function outcome(action: () => KernelLaunch): Outcome {
  try {
    return { ok: true, launch: action() };
  } catch (error) {
    if (error instanceof SyclError) return { ok: false, error };
    throw error;
  }
}

describe('submission', () => {
  test.prop([program, aotTargets, fc.array(device, { minLength: 1, maxLength: 3 }), launchKind], options)(
    'throws kernel_not_supported exactly when the device does not meet the kernel requirements, and fails in no other way',
    async (p, aot, devices, how) => {
      const binaries = await strategies(p, aot);
      for (const d of devices) {
        const results = new Map<string, string>();
        for (const [label, binary] of binaries) {
          const images = new Map(binary.bundles.flatMap((bundle) => bundle.images.map((image) => [image.name, image] as const)));
          const runtime = new Runtime({ aspectTable: TEST_ASPECT_TABLE });
          runtime.registerFatBinary(binary, { name: label });
          for (const kernel of p.kernels) {
            const where = `${label}: ${kernel.name} on ${d.name}`;
            const first = outcome(() => submit(runtime, kernel, d, how));
            const met = requirementsMet(p, kernel, d);
            // 1: kernel_not_supported iff not met; nothing else ever.
            if (!first.ok) {
              expect(first.error.code, `${where}: ${first.error.message}`).toBe(errc.kernel_not_supported);
              expect(met, `${where} threw '${first.error.message}' but the device meets the requirements`).toBe(false);
            } else {
              expect(met, `${where} ran but the device does not meet the requirements`).toBe(true);
              // 2: the program has the kernel; actions are real exactly where their condition holds.
              expect(first.launch.program.kernels, where).toContain(kernel.name);
              for (const call of kernel.conditional) {
                const source = first.launch.program.sources.get(call.action.name);
                const holds = evaluateCondition(call.condition, d.facts);
                const half = addOnHalf(source === undefined ? undefined : images.get(source));
                if (half !== undefined) {
                  expect(half, `${where}: ${call.action.name} comes from ${source} (condition ${holds})`).toBe(holds);
                } else {
                  // AOT: the condition was decided for the target; the action is part of the main image, or gone.
                  expect(source, `${where}: ${call.action.name} (condition ${holds})`).toBe(holds ? first.launch.image : undefined);
                }
              }
              expect(first.launch.program.unresolved, where).toEqual([]);
            }
            // 3: the same again.
            const again = outcome(() => submit(runtime, kernel, d, how));
            if (first.ok) {
              expect(again.ok && again.launch.programCacheHit && again.launch.image === first.launch.image, where).toBe(true);
            } else {
              expect(!again.ok && again.error.message === first.error.message, where).toBe(true);
            }
            // 4: the same outcome whatever built the binary.
            const text = first.ok ? 'ok' : first.error.message;
            const previous = results.get(kernel.name);
            if (previous === undefined) results.set(kernel.name, text);
            else expect(text, `${where} differs from the other strategies`).toBe(previous);
          }
        }
      }
    },
    timeout,
  );
});
