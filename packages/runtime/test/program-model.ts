/**
 * TEST-ONLY. An abstract SYCL program (kernels, the helpers they call, device_if conditional
 * calls, required sizes, fixed-target translation units), its device IR as sycl-post-link gets it,
 * an oracle saying whether a device meets a kernel's requirements, and one TEST-ONLY image
 * builder for the combination `@syclkit/post-link` refuses: `testOnlySpecConstantBinary`,
 * OptionalDeviceFeatures-spec-constant-variant.md together with DeviceIf.md's add-on images.
 * Kernels stay bundled by the split mode (split only by fixed targets and, as DeviceIf.md requires
 * of both its designs, by conditionally used aspects); `SYCL/requirements` gives each kernel's
 * requirements and SpecIds. Its AOT bundles decide device_if for the target and leave out the
 * kernels whose SpecIds are false for it. Everything else is built with post-link's library (see
 * post-link-binary.ts).
 */
import { AspectTable, BUILTIN_ASPECTS, DeviceConfig, builtinAspectTable, targetEntry } from '@syclkit/device-config';
import { decideCondition, encodeCondition, evaluateCondition, targetDeviceFacts, type Condition } from '@syclkit/device-if';
import { PropertySetRegistry, addDeviceRequirements, boolValue, uint32ArrayValue, type ByteArrayPropertyValue } from '@syclkit/formats';
import { deviceImage, type BinaryDescriptor, type DeviceImage } from '@syclkit/offload-wrapper';
import { ADD_ON_IMAGES_SET, ADD_ON_IMAGE_SET, REQUIREMENTS_SET, encodeRequirementEntries, type Device, type RequirementEntry } from '../src/index.js';

export interface ModelHelper {
  readonly name: string;
  readonly aspects: readonly number[];
}

/** A device_if call site: `if_device_has/if_architecture_is(condition)` calling `action`. */
export interface ModelConditionalCall {
  readonly condition: Condition;
  readonly action: ModelHelper;
}

export interface ModelKernel {
  readonly name: string;
  readonly tu: number;
  /** Aspects the kernel body uses itself. */
  readonly aspects: readonly number[];
  readonly helpers: readonly ModelHelper[];
  /** `[[sycl::device_has()]]`. */
  readonly declared: readonly number[];
  readonly subGroupSize?: number;
  readonly workGroupSize?: readonly number[];
  readonly conditional: readonly ModelConditionalCall[];
}

export interface ModelProgram {
  readonly kernels: readonly ModelKernel[];
  /** Translation units compiled with `-fsycl-fixed-targets`: tu → target names. */
  readonly fixedTargets: ReadonlyMap<number, readonly string[]>;
}

export type SplitMode = 'kernel' | 'source' | 'none';

/** Values of the pseudo-aspects that stand for targets in `fixed_target` (as a module's `!sycl_aspects` would). */
export const TARGET_ASPECTS: Readonly<Record<string, number>> = { intel_gpu_pvc: 1000, intel_gpu_dg1: 1001, intel_gpu_skl: 1002 };

/** The built-in aspects plus the target pseudo-aspects: the runtime's `aspectTable` in these tests. */
export const TEST_ASPECT_TABLE: AspectTable = AspectTable.fromDefinitions([
  ...BUILTIN_ASPECTS,
  ...Object.entries(TARGET_ASPECTS).map(([name, value]) => ({ name, value, status: 'current' as const })),
]);

/** A BYTE_ARRAY of int32s (a Condition Expression): the same bytes as their uint32 reading. */
export function int32ArrayValue(values: readonly number[]): ByteArrayPropertyValue {
  return uint32ArrayValue(values.map((v) => v >>> 0));
}

const sorted = (values: Iterable<number>): number[] => [...new Set(values)].sort((a, b) => a - b);

/** Used aspects of a kernel after propagation (its own and its helpers'; device_if actions excluded). */
export function usedAspects(kernel: ModelKernel): number[] {
  return sorted([...kernel.aspects, ...kernel.helpers.flatMap((h) => h.aspects)]);
}

/** UsedAspects of the design: used ∪ declared. */
export function requiredAspects(kernel: ModelKernel): number[] {
  return sorted([...usedAspects(kernel), ...kernel.declared]);
}

// --- IR text -----------------------------------------------------------------------------------

class MetadataWriter {
  readonly lines: string[] = [];
  #next = 0;
  node(body: string): string {
    const id = `!${this.#next++}`;
    this.lines.push(`${id} = !{${body}}`);
    return id;
  }
  ints(values: readonly number[]): string {
    return this.node(values.map((v) => `i32 ${v}`).join(', '));
  }
}

export interface FunctionText {
  readonly name: string;
  readonly kind: 'kernel' | 'helper' | 'action' | 'stub' | 'declaration';
  /** Parameters as written in the definition (`ptr %this`) or, for a declaration, their types. */
  readonly params?: string;
  /** device_if calls after `sycl-conditional-call-on-device`: `call @caller(ptr @action, ptr null, i32 condition…)`. */
  readonly conditionalCalls?: readonly { readonly caller: string; readonly action: string; readonly condition: readonly number[] }[];
  /** `!sycl_requirement_condition`: OR of AND-terms of SpecIds (post-link's spec-constant strategy). */
  readonly requirementCondition?: readonly (readonly number[])[];
  /** `!sycl_conditionally_used_aspects` pairs (condition, aspects), as aspect propagation writes them. */
  readonly conditionallyUsed?: readonly (readonly [readonly number[], readonly number[]])[];
  readonly tu?: number;
  readonly aspects?: readonly number[];
  readonly declared?: readonly number[];
  readonly subGroupSize?: number;
  readonly workGroupSize?: readonly number[];
  readonly fixedTargets?: readonly number[];
  readonly calls?: readonly string[];
  /** Linkage written in the definition instead of the kind's (kernels and actions: external; helpers: internal). */
  readonly linkage?: string;
}

/** A module holding the given functions, with `!sycl_aspects` naming the aspects it uses. */
export function moduleText(functions: readonly FunctionText[]): string {
  const md = new MetadataWriter();
  const tus = new Set<number>();
  const out: string[] = ['target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"', 'target triple = "spir64-unknown-unknown"', ''];
  const used = new Set<number>();
  for (const fn of functions) {
    if (fn.kind === 'declaration') {
      out.push(`declare spir_func void @${fn.name}(${fn.params ?? ''})`, '');
      continue;
    }
    const attachments: string[] = [];
    if (fn.aspects !== undefined && fn.aspects.length > 0) {
      attachments.push(`!sycl_used_aspects ${md.ints(fn.aspects)}`);
      fn.aspects.forEach((a) => used.add(a));
    }
    if (fn.declared !== undefined && fn.declared.length > 0) {
      attachments.push(`!sycl_declared_aspects ${md.ints(fn.declared)}`);
      fn.declared.forEach((a) => used.add(a));
    }
    if (fn.subGroupSize !== undefined) attachments.push(`!intel_reqd_sub_group_size ${md.ints([fn.subGroupSize])}`);
    if (fn.workGroupSize !== undefined) attachments.push(`!reqd_work_group_size ${md.ints(fn.workGroupSize)}`);
    if (fn.fixedTargets !== undefined) attachments.push(`!sycl_fixed_targets ${md.ints(fn.fixedTargets)}`);
    if (fn.conditionallyUsed !== undefined && fn.conditionallyUsed.length > 0) {
      const pairs = fn.conditionallyUsed.map(([condition, aspects]) => md.node(`${md.ints(condition)}, ${md.ints(aspects)}`));
      attachments.push(`!sycl_conditionally_used_aspects ${md.node(pairs.join(', '))}`);
    }
    if (fn.requirementCondition !== undefined) {
      attachments.push(`!sycl_requirement_condition ${md.node(fn.requirementCondition.map((term) => md.ints(term)).join(', '))}`);
    }
    const params = fn.params ?? '';
    const linkage = fn.linkage === undefined ? '' : `${fn.linkage} `;
    const head =
      fn.kind === 'kernel'
        ? `define ${linkage}spir_kernel void @${fn.name}(${params}) #${fn.tu ?? 0}`
        : fn.kind === 'helper'
          ? `define ${fn.linkage ?? 'internal'} spir_func void @${fn.name}(${params})`
          : `define ${linkage}spir_func void @${fn.name}(${params})`;
    if (fn.kind === 'kernel') tus.add(fn.tu ?? 0);
    const body = [
      ...(fn.calls ?? []).map((callee) => `  call spir_func void @${callee}()`),
      ...(fn.conditionalCalls ?? []).map((c) => `  call spir_func void @${c.caller}(ptr @${c.action}, ptr null${c.condition.map((v) => `, i32 ${v}`).join('')})`),
      '  ret void',
    ];
    out.push(`${head}${attachments.length === 0 ? '' : ' ' + attachments.join(' ')} {`, 'entry:', ...body, '}', '');
  }
  for (const tu of [...tus].sort((a, b) => a - b)) out.push(`attributes #${tu} = { "sycl-module-id"="tu${tu}.cpp" }`);
  const named = [...used].sort((a, b) => a - b).map((value) => md.node(`!"${TEST_ASPECT_TABLE.nameOf(value) ?? `aspect${value}`}", i32 ${value}`));
  for (const [name, value] of Object.entries(TARGET_ASPECTS)) named.push(md.node(`!"${name}", i32 ${value}`));
  out.push('', `!sycl_aspects = !{${named.join(', ')}}`, ...md.lines, '');
  return out.join('\n');
}

/** The fixed-target values of a kernel's translation unit (empty when it has none). */
export function fixedTargetValues(program: ModelProgram, kernel: ModelKernel): number[] {
  return sorted((program.fixedTargets.get(kernel.tu) ?? []).map((name) => TARGET_ASPECTS[name]!));
}

function kernelText(program: ModelProgram, kernel: ModelKernel, callActions: boolean): FunctionText {
  return {
    name: kernel.name,
    kind: 'kernel',
    tu: kernel.tu,
    aspects: usedAspects(kernel),
    declared: kernel.declared,
    ...(kernel.subGroupSize === undefined ? {} : { subGroupSize: kernel.subGroupSize }),
    ...(kernel.workGroupSize === undefined ? {} : { workGroupSize: kernel.workGroupSize }),
    fixedTargets: fixedTargetValues(program, kernel),
    calls: [...kernel.helpers.map((h) => h.name), ...(callActions ? kernel.conditional.map((c) => c.action.name) : [])],
  };
}

/**
 * The whole program as one linked module, as sycl-post-link gets it: after aspect propagation
 * (kernels carry their used aspects and `!sycl_conditionally_used_aspects`) and after
 * `sycl-conditional-call-on-device` (each device_if call goes through a declared conditional
 * caller that takes the action as its first argument).
 */
export function programModuleText(program: ModelProgram): string {
  const helpers = new Map<string, ModelHelper>();
  for (const k of program.kernels) for (const h of k.helpers) helpers.set(h.name, h);
  const callers: FunctionText[] = [];
  const actions: FunctionText[] = [];
  const kernels = program.kernels.map((k): FunctionText => {
    const conditionalCalls = k.conditional.map((call, i) => {
      const condition = encodeCondition(call.condition);
      const caller = `call_if_on_device_conditionally_${k.name}_${i}`;
      callers.push({ name: caller, kind: 'declaration', params: ['ptr', 'ptr', ...condition.map(() => 'i32')].join(', ') });
      actions.push({ name: call.action.name, kind: 'action', params: 'ptr %this', aspects: call.action.aspects });
      return { caller, action: call.action.name, condition };
    });
    const conditionallyUsed = k.conditional.filter((c) => c.action.aspects.length > 0).map((c) => [encodeCondition(c.condition), sorted(c.action.aspects)] as const);
    return { ...kernelText(program, k, false), conditionalCalls, conditionallyUsed };
  });
  return moduleText([...kernels, ...[...helpers.values()].map((h): FunctionText => ({ name: h.name, kind: 'helper', aspects: h.aspects })), ...actions, ...callers]);
}

// --- the oracle --------------------------------------------------------------------------------

/** Whether `device` meets everything kernel `kernel` requires (the design's rules, device_if conditions evaluated). */
export function requirementsMet(program: ModelProgram, kernel: ModelKernel, device: Device): boolean {
  const fixed = program.fixedTargets.get(kernel.tu);
  if (fixed !== undefined && !fixed.some((target) => device.targetNames().includes(target))) return false;
  const aspects = [...requiredAspects(kernel)];
  for (const call of kernel.conditional) if (evaluateCondition(call.condition, device.facts)) aspects.push(...call.action.aspects);
  if (!aspects.every((a) => device.has(a))) return false;
  if (kernel.subGroupSize !== undefined && !device.supportsSubGroupSize(kernel.subGroupSize)) return false;
  if (kernel.workGroupSize !== undefined) {
    const total = kernel.workGroupSize.reduce((p, s) => p * s, 1);
    const limits = device.maxWorkItemSizes.slice(3 - kernel.workGroupSize.length);
    if (total > device.maxWorkGroupSize || kernel.workGroupSize.some((s, i) => s > limits[kernel.workGroupSize!.length - 1 - i]!)) return false;
  }
  return true;
}

// --- grouping ----------------------------------------------------------------------------------

/** The conditionally used aspects of a kernel as a key: DeviceIf.md splits on them in both of its designs. */
export function conditionalSignature(kernel: ModelKernel): string {
  return kernel.conditional
    .map((c) => `${encodeCondition(c.condition).join(' ')}=>${sorted(c.action.aspects).join(',')}`)
    .sort()
    .join(';');
}

/** Kernels grouped by split mode, then by `classOf` (stable: groups in order of first kernel). */
export function groupKernels(kernels: readonly ModelKernel[], mode: SplitMode, classOf: (k: ModelKernel) => string): ModelKernel[][] {
  const groups = new Map<string, ModelKernel[]>();
  for (const kernel of kernels) {
    const scope = mode === 'kernel' ? kernel.name : mode === 'source' ? `tu${kernel.tu}` : '*';
    const key = `${scope}\u0000${classOf(kernel)}`;
    const list = groups.get(key);
    if (list === undefined) groups.set(key, [kernel]);
    else list.push(kernel);
  }
  return [...groups.values()];
}

// --- AOT resolution of device_if ----------------------------------------------------------------

/** The program as sycl-post-link sees it for AOT target `target`: device_if calls decided (true: the action becomes a helper). */
export function resolveForTarget(program: ModelProgram, target: string, config: DeviceConfig): ModelProgram {
  const facts = targetDeviceFacts(config, target);
  return {
    fixedTargets: program.fixedTargets,
    kernels: program.kernels.map((kernel) => {
      const taken = kernel.conditional.filter((call) => {
        const decided = decideCondition(call.condition, facts);
        if (decided === undefined) throw new Error(`test program: condition undecided for ${target}`);
        return decided;
      });
      return { ...kernel, helpers: [...kernel.helpers, ...taken.map((call) => call.action)], conditional: [] };
    }),
  };
}

/** Whether AOT target `target` can run kernels of this class (post-link's filter: aspects and sub-group size). */
export function targetRunsKernel(kernel: ModelKernel, target: string, config: DeviceConfig): boolean {
  const entry = targetEntry(config, target)!;
  const names = new Set(entry.aspects);
  if (!requiredAspects(kernel).every((a) => names.has(builtinAspectTable.nameOf(a) ?? ''))) return false;
  return kernel.subGroupSize === undefined || entry.subGroupSizes.includes(kernel.subGroupSize);
}

/** Whether an AOT bundle for `target` gets the kernels of this translation unit (fixed targets ∩ AOT targets). */
function compiledFor(program: ModelProgram, kernel: ModelKernel, target: string): boolean {
  const fixed = program.fixedTargets.get(kernel.tu);
  return fixed === undefined || fixed.includes(target);
}

// --- TEST-ONLY builder: specialization-constant design with add-on images ------------------------

function helpersOf(kernels: readonly ModelKernel[]): ModelHelper[] {
  const helpers = new Map<string, ModelHelper>();
  for (const k of kernels) for (const h of k.helpers) helpers.set(h.name, h);
  return [...helpers.values()];
}

function requirementsRegistry(
  aspects: readonly number[],
  options: { fixed?: readonly number[]; subGroupSize?: number; workGroupSize?: readonly number[]; compileTarget?: string },
): PropertySetRegistry {
  const registry = new PropertySetRegistry();
  addDeviceRequirements(registry, {
    aspects,
    ...(options.fixed !== undefined && options.fixed.length > 0 ? { fixedTarget: options.fixed } : {}),
    ...(options.subGroupSize === undefined ? {} : { reqdSubGroupSize: options.subGroupSize }),
    ...(options.workGroupSize === undefined ? {} : { reqdWorkGroupSize: options.workGroupSize.map(BigInt), legacyReqdWorkGroupSize: options.workGroupSize }),
    ...(options.compileTarget === undefined ? {} : { compileTarget: options.compileTarget }),
  });
  return registry;
}

const encoder = new TextEncoder();


/** `SYCL/requirements` entries of a kernel; SpecIds shared through `ids` (one per distinct requirement). */
function requirementEntriesOf(kernel: ModelKernel, ids: Map<string, number>): RequirementEntry[] {
  const id = (key: string): number => {
    let value = ids.get(key);
    if (value === undefined) ids.set(key, (value = ids.size + 1));
    return value;
  };
  const entries: RequirementEntry[] = requiredAspects(kernel).map((aspect) => ({ kind: 'aspect', aspect, specId: id(`a${aspect}`) }));
  if (kernel.workGroupSize !== undefined) entries.push({ kind: 'reqd_work_group_size', sizes: kernel.workGroupSize, specId: id(`w${kernel.workGroupSize.join('x')}`) });
  if (kernel.subGroupSize !== undefined) entries.push({ kind: 'reqd_sub_group_size', size: kernel.subGroupSize, specId: id(`s${kernel.subGroupSize}`) });
  return entries;
}

function kernelMeets(kernel: ModelKernel, target: string, config: DeviceConfig): boolean {
  return targetRunsKernel(kernel, target, config);
}

function specConstantImages(program: ModelProgram, group: readonly ModelKernel[], target: string, prefix: string, nextPair: () => string, aot: { config: DeviceConfig; target: string } | undefined): DeviceImage[] {
  const ids = new Map<string, number>();
  const properties = new PropertySetRegistry();
  // What post-link writes regardless of the design: the image-wide union (the runtime must not use it for a kernel).
  const union = requirementsRegistry(sorted(group.flatMap(requiredAspects)), { fixed: fixedTargetValues(program, group[0]!) });
  for (const [setName, set] of union) properties.addSet(setName, set);
  for (const kernel of group) properties.add(REQUIREMENTS_SET, kernel.name, encodeRequirementEntries(requirementEntriesOf(kernel, ids)));
  // AOT: the specialization constants are set for the target and the native image has no unsupported kernels.
  const kept = aot === undefined ? group : group.filter((k) => kernelMeets(k, aot.target, aot.config));
  const helpers = helpersOf(kept);
  const calls = kept.flatMap((k) => k.conditional);
  const addOns: DeviceImage[] = [];
  for (const call of calls) {
    const id = nextPair();
    properties.add(ADD_ON_IMAGES_SET, id, int32ArrayValue(encodeCondition(call.condition)));
    for (const primary of [true, false]) {
      const registry = requirementsRegistry(primary ? sorted(call.action.aspects) : [], {});
      registry.add(ADD_ON_IMAGE_SET, id, boolValue(primary));
      const text = moduleText([primary ? { name: call.action.name, kind: 'action', aspects: call.action.aspects } : { name: call.action.name, kind: 'stub' }]);
      addOns.push(deviceImage({ name: `${prefix}_addon${id}_${primary ? 'def' : 'stub'}`, target, image: encoder.encode(text), entries: [], properties: registry }));
    }
  }
  const text = moduleText([
    ...kept.map((k) => kernelText(program, k, true)),
    ...helpers.map((h): FunctionText => ({ name: h.name, kind: 'helper', aspects: h.aspects })),
    ...calls.map((c): FunctionText => ({ name: c.action.name, kind: 'declaration' })),
  ]);
  return [deviceImage({ name: prefix, target, image: encoder.encode(text), entries: group.map((k) => k.name), properties }), ...addOns];
}

/**
 * TEST-ONLY: the binary of the specialization-constant design: kernels bundled by `mode` only
 * (and by fixed targets), `SYCL/requirements` per kernel, device_if actions in add-on images; AOT
 * bundles resolve device_if for the target and leave out kernels the target cannot run.
 */
export function testOnlySpecConstantBinary(program: ModelProgram, mode: SplitMode, aotTargets: readonly (readonly [string, string])[], config: DeviceConfig): BinaryDescriptor {
  let pairId = 1;
  const nextPair = () => String(pairId++);
  // No split on requirements: only on fixed targets and, as DeviceIf.md asks, conditionally used aspects.
  const byFixed = (k: ModelKernel) => `${program.fixedTargets.has(k.tu) ? `targets:${fixedTargetValues(program, k).join(',')}` : ''}|cond:${conditionalSignature(k)}`;
  const jit = groupKernels(program.kernels, mode, byFixed).flatMap((group, i) => specConstantImages(program, group, 'spir64', `spir64_${i}`, nextPair, undefined));
  const bundles = [{ target: 'spir64', images: jit }];
  for (const [spelling, target] of aotTargets) {
    const resolved = resolveForTarget(program, target, config);
    const kernels = resolved.kernels.filter((k) => compiledFor(program, k, target));
    const images = groupKernels(kernels, mode, byFixed).flatMap((group, i) => specConstantImages(resolved, group, spelling, `${spelling}_${i}`, nextPair, { config, target }));
    bundles.push({ target: spelling, images });
  }
  return { bundles };
}
