/**
 * `syclkit split-plan`: what each `-fsycl-device-code-split` mode would make of a program — the
 * images post-link's planner builds (design bundling: kernels with different requirements never
 * share an image), their kernels, requirements and sizes, the functions copied into more than one
 * image, how many images each AOT target would filter out — and a recommendation. The main images
 * only: device_if add-on images (made after the split) are not listed.
 */
import { printModule, type IRFunction, type Module } from '@syclkit/ir';
import { computeImageRequirements, deviceIfGraphOptions, hasConditionalCalls, planSplit, targetIncompatibility, type RequirementPolicy } from '@syclkit/post-link';
import type { DeviceConfig, ResolvedTarget } from '@syclkit/device-config';
import { SPLIT_MODES, programForTarget, type DeviceCodeSplit } from './compile.js';
import type { DiagnosticLog } from './diagnostics.js';

export interface PlannedImage {
  readonly id: number;
  readonly kernels: readonly string[];
  /** Aspect values the image requires (`SYCL/device requirements`). */
  readonly aspects: readonly number[];
  readonly subGroupSize?: number;
  readonly workGroupSize?: readonly string[];
  /** Function definitions in the image. */
  readonly functions: number;
  readonly instructions: number;
  /** Size of the image as text IR. */
  readonly bytes: number;
}

export interface DuplicatedFunction {
  readonly name: string;
  readonly copies: number;
  readonly instructions: number;
}

export interface TargetFiltering {
  readonly target: string;
  readonly images: number;
  readonly filtered: number;
}

export interface ModePlan {
  readonly mode: DeviceCodeSplit;
  readonly images: readonly PlannedImage[];
  readonly bytes: number;
  readonly instructions: number;
  readonly duplicated: readonly DuplicatedFunction[];
  /** Instructions in copies beyond the first, over all duplicated functions. */
  readonly duplicatedInstructions: number;
  readonly targets: readonly TargetFiltering[];
}

export interface SplitPlan {
  readonly kernels: readonly string[];
  readonly bundling: RequirementPolicy;
  readonly modes: readonly ModePlan[];
  readonly recommendation: { readonly mode: DeviceCodeSplit; readonly reason: string };
}

const MODES: readonly DeviceCodeSplit[] = ['per_kernel', 'per_source', 'off', 'auto'];

function instructionCount(fn: IRFunction): number {
  let n = 0;
  for (const block of fn.blocks) n += block.instructions.length;
  return n;
}

interface Built {
  readonly images: PlannedImage[];
  readonly copies: Map<string, { copies: number; instructions: number }>;
  readonly filtered: number;
}

function buildPlan(module: Module, mode: DeviceCodeSplit, policy: RequirementPolicy, filter?: { config: DeviceConfig; target: string }): Built {
  // device_if: JIT images do not pull in actions (they go to add-on images); device targets have
  // their calls decided already.
  const graph = hasConditionalCalls(module) ? { graph: deviceIfGraphOptions() } : {};
  const plan = planSplit(module, { mode: SPLIT_MODES[mode], policy, emitOnlyKernelsAsEntryPoints: true, ...graph });
  const images: PlannedImage[] = [];
  const copies = new Map<string, { copies: number; instructions: number }>();
  let filtered = 0;
  for (const image of plan.images()) {
    if (image.entryPoints.length === 0) continue;
    const requirements = computeImageRequirements(image.module, image.entryPoints);
    if (filter !== undefined) {
      const why = targetIncompatibility(filter.config, filter.target, {
        aspects: requirements.aspects,
        esimd: image.esimd,
        ...(requirements.reqdSubGroupSize === undefined ? {} : { reqdSubGroupSize: requirements.reqdSubGroupSize }),
      });
      if (why !== undefined) filtered++;
      images.push({ id: image.id, kernels: [], aspects: [], functions: 0, instructions: 0, bytes: 0 });
      continue;
    }
    let functions = 0;
    let instructions = 0;
    for (const fn of image.module.functions) {
      if (fn.isDeclaration) continue;
      functions++;
      const n = instructionCount(fn);
      instructions += n;
      const known = copies.get(fn.name);
      copies.set(fn.name, { copies: (known?.copies ?? 0) + 1, instructions: n });
    }
    images.push({
      id: image.id,
      kernels: image.entryPoints.map((fn) => fn.name),
      aspects: requirements.aspects.map((a) => a.value),
      ...(requirements.reqdSubGroupSize === undefined ? {} : { subGroupSize: requirements.reqdSubGroupSize }),
      ...(requirements.reqdWorkGroupSize === undefined ? {} : { workGroupSize: requirements.reqdWorkGroupSize.map(String) }),
      functions,
      instructions,
      bytes: printModule(image.module).length,
    });
  }
  return { images, copies, filtered };
}

/** Plans every mode for the JIT program and the device targets of `targets`. */
export function planSplitModes(linked: Module, kernels: readonly string[], options: { policy?: RequirementPolicy; targets?: readonly ResolvedTarget[]; config: DeviceConfig; log: DiagnosticLog }): SplitPlan {
  const policy = options.policy ?? 'design';
  const devices = (options.targets ?? []).filter((t) => t.kind !== 'generic');
  const perTarget = devices.map((target) => ({ target, module: programForTarget(linked, target, options.config, options.log) }));
  const modes: ModePlan[] = MODES.map((mode) => {
    const built = buildPlan(linked, mode, policy);
    const duplicated = [...built.copies.entries()]
      .filter(([, v]) => v.copies > 1)
      .map(([name, v]) => ({ name, copies: v.copies, instructions: v.instructions }))
      .sort((a, b) => b.copies * b.instructions - a.copies * a.instructions || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const targets = perTarget.map(({ target, module }) => {
      const plan = buildPlan(module, mode, policy, { config: options.config, target: target.name });
      return { target: target.name, images: plan.images.length, filtered: plan.filtered };
    });
    return {
      mode,
      images: built.images,
      bytes: built.images.reduce((n, i) => n + i.bytes, 0),
      instructions: built.images.reduce((n, i) => n + i.instructions, 0),
      duplicated,
      duplicatedInstructions: duplicated.reduce((n, d) => n + (d.copies - 1) * d.instructions, 0),
      targets,
    };
  });
  return { kernels, bundling: policy, modes, recommendation: recommend(modes, kernels.length) };
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '0%' : `${Math.round((100 * part) / whole)}%`;
}

/**
 * The recommendation: the finest split whose copies cost at most a tenth of the code (each
 * submission then JIT-compiles little besides its own kernel), else `off` (bundling still keeps
 * kernels with different requirements apart).
 */
export function recommend(modes: readonly ModePlan[], kernelCount: number): { mode: DeviceCodeSplit; reason: string } {
  const byMode = new Map(modes.map((m) => [m.mode, m]));
  if (kernelCount <= 1) return { mode: 'auto', reason: 'one kernel: every mode gives the same image' };
  const unique = (m: ModePlan): number => m.instructions - m.duplicatedInstructions;
  for (const mode of ['per_kernel', 'per_source'] as const) {
    const m = byMode.get(mode)!;
    if (m.duplicatedInstructions <= 0.1 * unique(m)) {
      const copies = m.duplicated.length === 0 ? 'no function is copied into two images' : `copies cost ${m.duplicatedInstructions} instructions (${percent(m.duplicatedInstructions, unique(m))} of the code)`;
      const why = mode === 'per_kernel' ? 'a submission JIT-compiles only its own kernel' : 'a submission JIT-compiles only the kernels of its source file';
      return { mode, reason: `${m.images.length} images; ${why}, and ${copies}` };
    }
  }
  const off = byMode.get('off')!;
  const fine = byMode.get('per_kernel')!;
  return {
    mode: 'off',
    reason: `kernels share much code (per_kernel would copy ${fine.duplicatedInstructions} instructions, ${percent(fine.duplicatedInstructions, unique(fine))} of the code); off still keeps kernels with different requirements apart (${off.images.length} images)`,
  };
}
