/**
 * The property sets of one image (`.prop`), in the order and format sycl-post-link writes them
 * (reference §2.2–2.3). Pure: a module in, a `PropertySetRegistry` out.
 */
import {
  bitVectorValue,
  boolValue,
  byteArrayValue,
  DeviceRequirementName,
  PropertySetName,
  PropertySetRegistry,
  stringValue,
  uint32ArrayValue,
  uint32Value,
  uint64ArrayValue,
  type PropertyValue,
} from '@syclkit/formats';
import { conditionalCallerForm } from '@syclkit/device-if';
import type { GlobalVariable, IRFunction, Module } from '@syclkit/ir';
import { deviceLibReqMask } from './devicelib.js';
import { attachment, isEsimdBuiltin, isKernel, isSpirvSyclBuiltin, isSyclExternal } from '@syclkit/sycl-conventions';
import type { ImageRequirements } from './requirements.js';
import { ATTRIBUTE_FEATURE_KEYS, readIntegers, stringOperand, tupleOperands, type AttributeFeatures, type FunctionFeatures } from './sycl-metadata.js';

export interface PropertyOptions {
  /** `-emit-param-info`: `SYCL/kernel param opt` from `!sycl_kernel_omit_args`. */
  readonly emitParamInfo?: boolean;
  /** `-emit-program-metadata`. */
  readonly emitProgramMetadata?: boolean;
  /** `-emit-exported-symbols`. */
  readonly emitExportedSymbols?: boolean;
  /** `-emit-imported-symbols`. */
  readonly emitImportedSymbols?: boolean;
  /** `-device-globals`. */
  readonly deviceGlobals?: boolean;
  /**
   * Also write the legacy uint32 `reqd_work_group_size` (read by older runtimes; intel/llvm tests
   * of 2023 check it). Default true.
   */
  readonly legacyReqdWorkGroupSize?: boolean;
  /** Drop the required work-group size (upstream does when there is no split). */
  readonly dropReqdWorkGroupSize?: boolean;
}

/** What the properties of one image are computed from. */
export interface ImagePropertyInput {
  readonly module: Module;
  readonly entryPoints: readonly IRFunction[];
  readonly esimd: boolean;
  readonly requirements: ImageRequirements;
  /** `compile_target` (the `-o <target>,<table>` target). */
  readonly compileTarget?: string;
  /** Extra property sets appended at the end (device_if add-on images, requirement variants). */
  readonly extraSets?: readonly (readonly [string, readonly (readonly [string, PropertyValue])[]])[];
  /** Replaces `fixed_target` (design: written even when empty for fixed-target images). */
  readonly fixedTargetOverride?: readonly number[];
  /**
   * Features of the functions (the `aspect-facts` analysis of the program the image comes from):
   * attributes are read from there instead of once per image; functions it lacks are read.
   */
  readonly features?: ReadonlyMap<IRFunction, FunctionFeatures>;
}

/** The `SYCL/device requirements` entries, alphabetically, then `compile_target`. */
export function deviceRequirementEntries(input: ImagePropertyInput, options: PropertyOptions): [string, PropertyValue][] {
  const r = input.requirements;
  const entries: [string, PropertyValue][] = [];
  entries.push([DeviceRequirementName.ASPECTS, uint32ArrayValue(r.aspects.map((a) => a.value))]);
  const fixed = input.fixedTargetOverride ?? (r.fixedTarget.length > 0 ? r.fixedTarget : undefined);
  if (fixed !== undefined) entries.push([DeviceRequirementName.FIXED_TARGET, uint32ArrayValue(fixed.map((v) => v >>> 0))]);
  if (r.jointMatrix !== undefined) entries.push([DeviceRequirementName.JOINT_MATRIX, stringValue(r.jointMatrix)]);
  if (r.jointMatrixMad !== undefined) entries.push([DeviceRequirementName.JOINT_MATRIX_MAD, stringValue(r.jointMatrixMad)]);
  if (r.reqdSubGroupSize !== undefined) entries.push([DeviceRequirementName.REQD_SUB_GROUP_SIZE, uint32Value(r.reqdSubGroupSize >>> 0)]);
  if (r.reqdWorkGroupSize !== undefined && !options.dropReqdWorkGroupSize) {
    if (options.legacyReqdWorkGroupSize ?? true) {
      entries.push([DeviceRequirementName.LEGACY_REQD_WORK_GROUP_SIZE, uint32ArrayValue(r.reqdWorkGroupSize.map((v) => Number(BigInt.asUintN(32, v))))]);
    }
    entries.push([DeviceRequirementName.REQD_WORK_GROUP_SIZE, uint64ArrayValue(r.reqdWorkGroupSize.map((v) => BigInt.asUintN(64, v)))]);
  }
  if (r.workGroupNumDim !== undefined) entries.push([DeviceRequirementName.WORK_GROUP_NUM_DIM, uint32Value(r.workGroupNumDim >>> 0)]);
  if (input.compileTarget !== undefined) entries.push([DeviceRequirementName.COMPILE_TARGET, stringValue(input.compileTarget)]);
  return entries;
}

/** Computes the property sets of an image. */
export function computeImageProperties(input: ImagePropertyInput, options: PropertyOptions = {}): PropertySetRegistry {
  const m = input.module;
  const registry = new PropertySetRegistry();
  registry.add(PropertySetName.DEVICELIB_REQ_MASK, 'DeviceLibReqMask', uint32Value(deviceLibReqMask(m)));
  registry.addSet(PropertySetName.DEVICE_REQUIREMENTS, deviceRequirementEntries(input, options));

  if (options.emitParamInfo) {
    registry.ensureSet(PropertySetName.KERNEL_PARAM_OPT_INFO);
    for (const fn of input.entryPoints) {
      if (fn.callingConv !== 'spir_kernel') continue;
      // ConstantInt values are kept normalized to their width: non-zero exactly when zext is.
      const bits = tupleOperands(attachment(fn, m.context, 'sycl_kernel_omit_args')).map((op) => op !== null && op.mk === 'value' && op.value.vk === 'int' && op.value.value !== 0 && op.value.value !== 0n);
      if (bits.length === 0) continue;
      registry.add(PropertySetName.KERNEL_PARAM_OPT_INFO, fn.name, bitVectorValue(bits));
    }
  }

  if (options.emitExportedSymbols) {
    for (const fn of input.entryPoints) {
      if (fn.callingConv !== 'spir_func' || fn.attributes.fn.hasString('indirectly-callable')) continue;
      registry.add(PropertySetName.EXPORTED_SYMBOLS, fn.name, boolValue(true));
    }
  }

  if (options.emitImportedSymbols) {
    for (const fn of m.functions) {
      if (!fn.isDeclaration || !canBeImported(fn)) continue;
      registry.add(PropertySetName.IMPORTED_SYMBOLS, fn.name, boolValue(true));
    }
  }

  if (options.emitProgramMetadata) addProgramMetadata(registry, m);

  // Misc properties, in upstream order.
  const misc = (name: string, value: PropertyValue): void => void registry.add(PropertySetName.MISC_PROP, name, value);
  if (input.esimd) misc('isEsimdImage', boolValue(true));
  const attributeOf = attributeLookup(input);
  const firstAttr = (key: AttributeField): string | undefined => {
    for (const fn of input.entryPoints) {
      const v = attributeOf(fn, key);
      if (v !== undefined) return v;
    }
    return undefined;
  };
  const regAlloc = firstAttr('registerAllocMode');
  if (regAlloc !== undefined && /^\d+$/.test(regAlloc)) misc('sycl-register-alloc-mode', uint32Value(Number(regAlloc)));
  const grf = firstAttr('grfSize');
  if (grf !== undefined && /^\d+$/.test(grf)) misc('sycl-grf-size', uint32Value(Number(grf)));
  const opt = firstAttr('optLevel');
  if (opt !== undefined && /^\d+$/.test(opt)) misc('optLevel', uint32Value(Number(opt)));

  const assertKernels = kernelsUsingAssert(m, input.entryPoints);
  for (const name of assertKernels) registry.add(PropertySetName.ASSERT_USED, name, boolValue(true));

  for (const [global, kind] of [['__AsanKernelMetadata', 'asan'], ['__MsanKernelMetadata', 'msan'], ['__TsanKernelMetadata', 'tsan']] as const) {
    if (m.getGlobalVariable(global) !== undefined) {
      misc('sanUsed', stringValue(kind));
      break;
    }
  }

  if (options.deviceGlobals) {
    for (const gv of m.globals) {
      const id = globalAttr(gv, 'sycl-unique-id');
      const size = globalAttr(gv, 'sycl-device-global-size');
      if (id === undefined || size === undefined) continue;
      const scope = globalAttr(gv, 'sycl-device-image-scope') !== undefined;
      registry.add(PropertySetName.DEVICE_GLOBALS, id, byteArrayValue(packUint32([Number(size) >>> 0, scope ? 1 : 0])));
    }
  }
  for (const gv of m.globals) {
    const id = globalAttr(gv, 'sycl-unique-id');
    if (id === undefined || globalAttr(gv, 'sycl-host-pipe') === undefined) continue;
    const size = Number(globalAttr(gv, 'sycl-host-pipe-size') ?? '0') >>> 0;
    registry.add(PropertySetName.HOST_PIPES, id, byteArrayValue(packUint32([size])));
  }

  addVirtualFunctions(registry, m, attributeOf);

  for (const node of m.getNamedMetadata('sycl_registered_kernels') ?? []) {
    for (const entry of tupleOperands(node)) {
      if (entry === null || entry.mk !== 'tuple' || entry.operands.length !== 2) continue;
      const name = stringOperand(entry.operands[0]);
      const mangled = stringOperand(entry.operands[1]);
      if (name !== undefined && mangled !== undefined) registry.add(PropertySetName.REGISTERED_KERNELS, name, stringValue(mangled));
    }
  }

  for (const [setName, entries] of input.extraSets ?? []) {
    registry.ensureSet(setName);
    for (const [name, value] of entries) registry.add(setName, name, value);
  }
  return registry;
}

/**
 * The properties of the same image for a `-o <target>,<table>` output: a copy of its untargeted
 * registry with `compile_target` at the end of `SYCL/device requirements` (the only property that
 * depends on the output), as `computeImageProperties` with `compileTarget` gives.
 */
export function withCompileTarget(registry: PropertySetRegistry, target: string): PropertySetRegistry {
  // A copy without checking names again (every row of every image gets one).
  const out = registry.clone();
  if (out.hasSet(PropertySetName.DEVICE_REQUIREMENTS)) out.replace(PropertySetName.DEVICE_REQUIREMENTS, DeviceRequirementName.COMPILE_TARGET, compileTargetValue(target));
  return out;
}

/** `compile_target` values by target: the same for every image of a run (values are never changed). */
const compileTargetValues = new Map<string, PropertyValue>();

function compileTargetValue(target: string): PropertyValue {
  let value = compileTargetValues.get(target);
  if (value === undefined) {
    value = stringValue(target);
    if (compileTargetValues.size < 64) compileTargetValues.set(target, value);
  }
  return value;
}

function packUint32(values: readonly number[]): Uint8Array {
  const out = new Uint8Array(values.length * 4);
  const view = new DataView(out.buffer);
  values.forEach((v, i) => view.setUint32(i * 4, v, true));
  return out;
}

function globalAttr(gv: GlobalVariable, key: string): string | undefined {
  return gv.attributes?.getString(key);
}

/**
 * Importable functions (dynamic linking): SYCL_EXTERNAL definitions and declared user functions,
 * not intrinsics or builtins (upstream's `canBeImportedFunction`), nor a device_if conditional
 * caller (DeviceIf.md: post-link and the runtime resolve those, nothing exports them).
 */
export function canBeImported(fn: IRFunction): boolean {
  if (fn.isIntrinsic || fn.name.startsWith('__')) return false;
  if (fn.isDeclaration && conditionalCallerForm(fn) === 'declaration') return false;
  if (isSpirvSyclBuiltin(fn.name) || isEsimdBuiltin(fn.name)) return false;
  if (demangledStartsWithReserved(fn.name)) return false;
  return fn.isDeclaration || isSyclExternal(fn);
}

/**
 * Whether an Itanium-mangled name demangles to something starting with `__` (reserved
 * implementation names such as `_Z8__insidev` → `__inside()`): the first source name after
 * `_Z`, `L`, `N` and cv-qualifiers.
 */
export function demangledStartsWithReserved(name: string): boolean {
  if (!name.startsWith('_Z')) return false;
  let i = 2;
  while (i < name.length && 'LNKVr'.includes(name[i]!)) i++;
  let digits = '';
  while (i < name.length && name.charCodeAt(i) >= 48 && name.charCodeAt(i) <= 57) digits += name[i++];
  if (digits === '') return false;
  return name.startsWith('__', i);
}

/** `SYCL/program metadata`: per-function work-group facts, then device-global id mappings. */
function addProgramMetadata(registry: PropertySetRegistry, m: Module): void {
  const set = PropertySetName.PROGRAM_METADATA;
  registry.ensureSet(set);
  for (const fn of m.functions) {
    const wg = readIntegers(attachment(fn, m.context, 'reqd_work_group_size'));
    if (wg.length > 0) registry.add(set, `${fn.name}@reqd_work_group_size`, uint32ArrayValue(wg.map((v) => Number(BigInt.asUintN(32, v.zext)))));
    const sg = readIntegers(attachment(fn, m.context, 'intel_reqd_sub_group_size'));
    if (sg.length > 0) registry.add(set, `${fn.name}@reqd_sub_group_size`, uint32Value(Number(BigInt.asUintN(32, sg[0]!.zext))));
    const dim = readIntegers(attachment(fn, m.context, 'work_group_num_dim'));
    if (dim.length > 0) registry.add(set, `${fn.name}@work_group_num_dim`, uint32Value(Number(BigInt.asUintN(32, dim[0]!.zext))));
    const max = readIntegers(attachment(fn, m.context, 'max_work_group_size'));
    if (max.length > 0) registry.add(set, `${fn.name}@max_work_group_size`, uint32ArrayValue(max.map((v) => Number(BigInt.asUintN(32, v.zext)))));
    const linear = readIntegers(attachment(fn, m.context, 'max_linear_work_group_size'));
    if (linear.length > 0) registry.add(set, `${fn.name}@max_linear_work_group_size`, uint32Value(Number(BigInt.asUintN(32, linear[0]!.zext))));
  }
  for (const gv of m.globals) {
    const id = globalAttr(gv, 'sycl-unique-id');
    if (id === undefined || globalAttr(gv, 'sycl-device-global-size') === undefined) continue;
    registry.add(set, `${id}@global_id_mapping`, stringValue(gv.name));
  }
}

/** Kernels that reach `__devicelib_assert_fail` (all kernels if the walk meets an indirectly referenced function). */
function kernelsUsingAssert(m: Module, entryPoints: readonly IRFunction[]): string[] {
  const assertFn = m.getFunction('__devicelib_assert_fail');
  if (assertFn === undefined) return [];
  const callers = new Map<IRFunction, IRFunction[]>();
  for (const fn of m.functions) {
    for (const inst of fn.instructions()) {
      if (inst.opcode !== 'call' && inst.opcode !== 'invoke') continue;
      const callee = inst.operands[0];
      if (callee?.vk !== 'function') continue;
      const list = callers.get(callee);
      if (list === undefined) callers.set(callee, [fn]);
      else if (!list.includes(fn)) list.push(fn);
    }
  }
  const reached = new Set<IRFunction>([assertFn]);
  const work = [assertFn];
  let all = false;
  while (work.length > 0) {
    const fn = work.pop()!;
    if (fn.attributes.fn.hasString('referenced-indirectly')) all = true;
    for (const caller of callers.get(fn) ?? []) {
      if (reached.has(caller)) continue;
      reached.add(caller);
      work.push(caller);
    }
  }
  const kernels = all ? m.functions.filter((fn) => fn.callingConv === 'spir_kernel' && !fn.isDeclaration) : entryPoints.filter((fn) => isKernel(fn) && reached.has(fn));
  return kernels.map((fn) => fn.name);
}

/** `SYCL/virtual functions`: the set an image defines, or the sets it uses. */
function addVirtualFunctions(registry: PropertySetRegistry, m: Module, attributeOf: (fn: IRFunction, field: AttributeField) => string | undefined): void {
  const set = PropertySetName.VIRTUAL_FUNCTIONS;
  for (const fn of m.functions) {
    const name = attributeOf(fn, 'indirectlyCallable');
    if (name !== undefined && !fn.isDeclaration) {
      registry.add(set, 'virtual-functions-set', stringValue(name));
      return;
    }
  }
  const used: string[] = [];
  for (const fn of m.functions) {
    const sets = attributeOf(fn, 'callsIndirectly');
    if (sets === undefined) continue;
    for (const s of sets.split(',')) if (s !== '' && !used.includes(s)) used.push(s);
  }
  if (used.length > 0) registry.add(set, 'uses-virtual-functions-set', stringValue(used.join(',')));
}

type AttributeField = Exclude<keyof AttributeFeatures, 'moduleId'>;

/**
 * A function attribute: from the program's features when they know the function (images share
 * the program's functions, so most lookups are one map read instead of a scan of the attributes).
 */
function attributeLookup(input: ImagePropertyInput): (fn: IRFunction, field: AttributeField) => string | undefined {
  const known = input.features;
  return (fn, field) => {
    const f = known?.get(fn);
    return f !== undefined ? f[field] : fn.attributes.fn.getString(ATTRIBUTE_FEATURE_KEYS[field]);
  };
}
