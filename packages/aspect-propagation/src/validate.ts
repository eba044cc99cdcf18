/**
 * The warnings of the pre-optimization run (OptionalDeviceFeatures.md, "New LLVM IR pass to
 * propagate aspect usage"):
 *
 * - `sycl-aspect-mismatch`: a function with `[[sycl::device_has()]]` (`!sycl_declared_aspects`) or
 *   the `device_has` property (`"sycl-device-has"`) uses an aspect it does not list. Checked on the
 *   aspects a function uses itself or through calls — not on aspects only *declared* by callees,
 *   and not on conditionally used ones. Kernels with `!sycl_declared_aspects` are skipped, as in
 *   intel/llvm (the front end puts the attribute on the kernel's lambda too, which is checked).
 * - `sycl-fixed-target-*`: with fixed targets, a kernel or exported function that uses (or
 *   declares) an aspect a target does not support, and a function whose required sub-group or
 *   work-group size a target does not support, according to the device configuration.
 *
 * Each warning names the function and the aspect, with notes for the call chain down to the use:
 * one `propagated from call to function '...'` per call (located at the call when the module has
 * debug info) and a last note at the use itself. Functions are visited in module order and aspects
 * in set order, so the output is deterministic (intel/llvm iterates a pointer-keyed DenseMap).
 */
import { CallInst, type IRFunction, type Module } from '@syclkit/ir';
import type { DiagnosticInput, DiagnosticNote } from '@syclkit/pass-manager';
import { aspectSupport, subGroupSizeSupport, workGroupSizeSupport, type AspectTable, type DeviceConfig, type ResolvedTarget } from '@syclkit/device-config';
import { SyclMetadata } from '@syclkit/sycl-conventions';
import type { AspectSet } from './aspect-set.js';
import type { DirectUseWalker } from './direct-uses.js';
import type { FunctionFacts } from './function-facts.js';
import { displayName, functionLocation, instructionLocation } from './locations.js';

export interface ValidationInput {
  readonly module: Module;
  readonly facts: readonly FunctionFacts[];
  /** Call-graph successors used for propagation (plain calls and virtual-function sets). */
  readonly successors: readonly (readonly number[])[];
  /** Aspects each function uses itself (types, instruction and function metadata). */
  readonly own: readonly (AspectSet | undefined)[];
  /** Aspects each function uses itself or through calls (before exclusion). */
  readonly used: readonly (AspectSet | undefined)[];
  /** Declared aspects, propagated. */
  readonly declared: readonly (AspectSet | undefined)[];
  /** Where a function's own uses come from (for the note at the use). */
  readonly directUses: DirectUseWalker;
  /** Name of an aspect value for messages. */
  readonly aspectName: (value: number) => string;
  readonly report: (diagnostic: DiagnosticInput) => void;
}

/** `sycl-aspect-mismatch` warnings. */
export function checkDeclaredAspects(input: ValidationInput): void {
  const { facts, used, report } = input;
  for (const f of facts) {
    const aspects = used[f.index];
    if (aspects === undefined || aspects.size === 0) continue;
    let declared: Set<number>;
    let fromAttribute: boolean;
    if (f.declaredMetadata !== undefined) {
      if (f.entryPoint) continue;
      declared = new Set(f.declaredMetadata);
      fromAttribute = true;
    } else {
      const property = f.fn.attributes.fn.getString('sycl-device-has');
      if (property === undefined) continue;
      declared = new Set();
      for (const item of property.split(',')) {
        const text = item.trim();
        if (text === '') continue;
        if (!/^-?\d+$/.test(text)) {
          report({
            code: 'invalid-device-has',
            message: `"sycl-device-has" of function '${displayName(f.fn)}' lists '${text}', which is not an aspect value; it is ignored`,
            location: functionLocation(f.fn),
          });
          continue;
        }
        declared.add(Number(text));
      }
      fromAttribute = false;
    }
    for (const aspect of aspects) {
      if (declared.has(aspect)) continue;
      const name = input.aspectName(aspect);
      const what = fromAttribute ? "'sycl::device_has' attribute" : "'device_has' property";
      report({
        code: 'sycl-aspect-mismatch',
        message: `function '${displayName(f.fn)}' uses aspect '${name}' not listed in its ${what}`,
        location: functionLocation(f.fn),
        notes: useChain(input, f.index, aspect),
      });
    }
  }
}

export interface FixedTargetsInput extends ValidationInput {
  readonly targets: readonly string[];
  readonly config: DeviceConfig;
  readonly aspectTable: AspectTable;
}

/** `sycl-fixed-target-*` and `unknown-fixed-target` warnings. */
export function checkFixedTargets(input: FixedTargetsInput): void {
  const { facts, used, declared, report, config } = input;
  const resolved: { name: string; target: ResolvedTarget }[] = [];
  const seen = new Set<string>();
  for (const name of input.targets) {
    if (seen.has(name)) continue;
    seen.add(name);
    const target = config.resolve(name);
    if (target === undefined) {
      report({
        code: 'unknown-fixed-target',
        message: `fixed target '${name}' is not a target of the device configuration; device code is not checked against it`,
      });
      continue;
    }
    resolved.push({ name, target });
  }
  if (resolved.length === 0) return;

  for (const f of facts) {
    if (!f.entryPoint) continue;
    const aspects = new Set<number>([...(used[f.index] ?? []), ...(declared[f.index] ?? [])]);
    for (const aspect of aspects) {
      if (aspect < 0) continue; // internal aspects are not device features
      for (const { name, target } of resolved) {
        if (aspectSupport(config, target, aspect, { aspectTable: input.aspectTable }) !== 'no') continue;
        const usedHere = used[f.index]?.has(aspect) === true;
        report({
          code: 'sycl-fixed-target-aspect',
          message: `function '${displayName(f.fn)}' ${usedHere ? 'uses' : 'declares'} aspect '${input.aspectName(aspect)}', which fixed target '${name}' does not support`,
          location: functionLocation(f.fn),
          notes: usedHere ? useChain(input, f.index, aspect) : [],
        });
      }
    }
  }

  const context = input.module.context;
  const subGroupKind = context.md.kinds.lookup(SyclMetadata.reqdSubGroupSize);
  const workGroupKind = context.md.kinds.lookup(SyclMetadata.reqdWorkGroupSize);
  if (subGroupKind === undefined && workGroupKind === undefined) return;
  for (const f of facts) {
    if (f.fn.isDeclaration) continue;
    for (const attachment of f.fn.attachments) {
      if (attachment.node.mk !== 'tuple') continue;
      const values = attachment.node.operands.map((op) => (op?.mk === 'value' && op.value.vk === 'int' ? op.value.num : undefined));
      if (values.length === 0 || values.some((v) => v === undefined)) continue;
      const sizes = values as number[];
      if (attachment.kind === subGroupKind) {
        const size = sizes[0]!;
        for (const { name, target } of resolved) {
          if (subGroupSizeSupport(config, target, size) !== 'no') continue;
          const supported = config.entryFor(target)?.subGroupSizes ?? [];
          report({
            code: 'sycl-fixed-target-sub-group-size',
            message: `function '${displayName(f.fn)}' requires sub-group size ${size}, which fixed target '${name}' does not support (supported: ${supported.join(', ')})`,
            location: functionLocation(f.fn),
          });
        }
      } else if (attachment.kind === workGroupKind) {
        for (const { name, target } of resolved) {
          if (workGroupSizeSupport(config, target, sizes) !== 'no') continue;
          const max = config.describe(target.name)?.simulated?.maxWorkGroupSize;
          report({
            code: 'sycl-fixed-target-work-group-size',
            message: `function '${displayName(f.fn)}' requires work-group size ${sizes.join('x')}, which fixed target '${name}' does not support${max === undefined ? '' : ` (at most ${max} work-items)`}`,
            location: functionLocation(f.fn),
          });
        }
      }
    }
  }
}

/**
 * Notes from `start` down to a use of `aspect`: at each step the first callee (in call order, not
 * yet on the chain) that uses the aspect, until a function that uses it itself; then the use.
 */
export function useChain(input: ValidationInput, start: number, aspect: number): DiagnosticNote[] {
  const { facts, successors, own, used } = input;
  const notes: DiagnosticNote[] = [];
  const visited = new Set([start]);
  let current = start;
  while (own[current]?.has(aspect) !== true) {
    const next = successors[current]!.find((c) => !visited.has(c) && used[c]?.has(aspect) === true);
    if (next === undefined) break;
    visited.add(next);
    const caller = facts[current]!.fn;
    const callee = facts[next]!.fn;
    const site = callSite(caller, callee);
    notes.push({
      message: `propagated from call to function '${displayName(callee)}'`,
      location: site === undefined ? functionLocation(callee) : instructionLocation(site, caller),
    });
    current = next;
  }
  if (own[current]?.has(aspect) === true) notes.push(useNote(input, facts[current]!, aspect));
  return notes;
}

/** The first call from `caller` to `callee` (or, for a virtual-function set, the first virtual call). */
function callSite(caller: IRFunction, callee: IRFunction): CallInst | undefined {
  let virtualCall: CallInst | undefined;
  for (const inst of caller.instructions()) {
    if (!(inst instanceof CallInst)) continue;
    if (inst.calledFunction === callee) return inst;
    if (virtualCall === undefined && inst.attributes.fn.hasString('virtual-call')) virtualCall = inst;
  }
  return virtualCall;
}

function useNote(input: ValidationInput, f: FunctionFacts, aspect: number): DiagnosticNote {
  const fn = f.fn;
  const name = `'${displayName(fn)}'`;
  const aspectName = `'${input.aspectName(aspect)}'`;
  // The first direct use in the pass's order: the signature, then instructions, then the function's list.
  const use = input.directUses.usesOf(fn).uses.find((u) => u.aspect === aspect);
  switch (use?.kind) {
    case 'signature':
      return { message: `function ${name} uses aspect ${aspectName} in its signature`, location: functionLocation(fn) };
    case 'instruction':
    case 'instruction-metadata':
      return { message: `function ${name} uses aspect ${aspectName} here`, location: instructionLocation(use.instruction, fn) };
    default:
      return { message: `function ${name} is marked as using aspect ${aspectName}`, location: functionLocation(fn) };
  }
}
