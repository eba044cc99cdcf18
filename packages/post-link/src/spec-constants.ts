/**
 * The alternative design (OptionalDeviceFeatures-spec-constant-variant.md): kernels are bundled
 * whatever they require, and every kernel and exported function carries its own requirements,
 * each tied to a specialization constant the JIT compiler uses to discard what a device cannot run.
 *
 * Per image:
 * 1. *Used* of each function is the union of `!sycl_used_aspects` (and of callees'
 *    `!sycl_declared_aspects`) over its static call tree in the image; a function with `!sycl_declared_aspects` (*Allowed*) that uses more gets a diagnostic.
 * 2. For each kernel and exported function, *Required* = Used ∪ Allowed, plus its
 *    `!reqd_work_group_size` and numeric `!intel_reqd_sub_group_size`. Each distinct requirement of
 *    the image gets one spec id (reused across functions).
 * 3. `SYCL/requirements`: one property per kernel / exported function, a BYTE_ARRAY of uint32
 *    `[count] { [0] aspect spec_id | [1] dim_count dims… spec_id | [2] size spec_id }…`.
 * 4. Conditions: a kernel or exported function is gated by the AND of its spec ids; any other
 *    function by the OR of its callers' conditions (a caller that is not gated makes it ungated).
 *    They are written to the image as `!sycl_requirement_condition !{!{i32 a, i32 b}, …}` (an OR
 *    of ANDs) on each gated function, and the spec ids as named metadata
 *    `!sycl_requirement_spec_constants = !{!{i32 id, !"aspect", i32 6}, …}` for the SPIR-V writer
 *    (the design leaves the IR form open).
 */
import { byteArrayValue, type PropertyValue } from '@syclkit/formats';
import { setMetadata, type IRFunction, type MDNode, type Metadata, type Module } from '@syclkit/ir';
import { isKernel } from '@syclkit/sycl-conventions';
import type { ImageProcessor, PostLinkDiagnostic, ProcessedImage, ProcessorContext } from './post-link.js';
import { aspectTableOf } from './requirements.js';
import type { SplitImage } from './split.js';
import { functionFeatures, type FunctionFeatures } from './sycl-metadata.js';

export const REQUIREMENTS_SET = 'SYCL/requirements';
export const CONDITION_METADATA = 'sycl_requirement_condition';
export const SPEC_CONSTANTS_METADATA = 'sycl_requirement_spec_constants';

/** Entry types of a `SYCL/requirements` value. */
export const RequirementEntryType = { aspect: 0, reqdWorkGroupSize: 1, reqdSubGroupSize: 2 } as const;

export interface SpecConstantOptions {
  /** First spec id handed out in each image (default 0x40000000, clear of user spec constants). */
  readonly specIdBase?: number;
}

/** One requirement of a kernel or exported function, with its spec id. */
export type Requirement =
  | { readonly kind: 'aspect'; readonly aspect: number; readonly specId: number }
  | { readonly kind: 'reqd-work-group-size'; readonly dims: readonly number[]; readonly specId: number }
  | { readonly kind: 'reqd-sub-group-size'; readonly size: number; readonly specId: number };

/** The requirements of an image's kernels and exported functions, and the other functions' conditions. */
export interface ImageSpecRequirements {
  /** Per kernel / exported function name, in module order. */
  readonly requirements: ReadonlyMap<string, readonly Requirement[]>;
  /** Per gated function: OR of AND-terms of spec ids. Ungated functions are absent. */
  readonly conditions: ReadonlyMap<string, readonly (readonly number[])[]>;
  readonly diagnostics: readonly PostLinkDiagnostic[];
}

/** Calls between functions of a module (direct callees, by caller). */
function callees(module: Module): Map<IRFunction, Set<IRFunction>> {
  const out = new Map<IRFunction, Set<IRFunction>>();
  for (const fn of module.functions) {
    const set = new Set<IRFunction>();
    for (const inst of fn.instructions()) {
      for (const op of inst.operands) if (op.vk === 'function' && !op.isDeclaration && op !== fn) set.add(op);
    }
    out.set(fn, set);
  }
  return out;
}

/** Is a function an exported device function (a SYCL_EXTERNAL `spir_func` entry point)? */
function isExported(fn: IRFunction): boolean {
  return !isKernel(fn) && fn.callingConv === 'spir_func' && fn.attributes.fn.hasString('sycl-module-id');
}

/** Computes requirements and conditions for one image. */
export function computeSpecRequirements(module: Module, entryPoints: readonly IRFunction[], options: SpecConstantOptions = {}): ImageSpecRequirements {
  const graph = callees(module);
  const features = new Map<IRFunction, FunctionFeatures>();
  const feat = (fn: IRFunction): FunctionFeatures => {
    let f = features.get(fn);
    if (f === undefined) features.set(fn, (f = functionFeatures(module, fn)));
    return f;
  };
  // Used: union over the static call tree (memoized; cycles share the partial result).
  const used = new Map<IRFunction, Set<number>>();
  const usedOf = (fn: IRFunction): Set<number> => {
    const known = used.get(fn);
    if (known !== undefined) return known;
    // A callee's [[sycl::device_has()]] counts as use: the callee may use what it declares.
    const set = new Set<number>([...feat(fn).usedAspects, ...feat(fn).declaredAspects].map((a) => a.value));
    used.set(fn, set);
    for (const callee of graph.get(fn) ?? []) for (const a of usedOf(callee)) set.add(a);
    return set;
  };
  const table = aspectTableOf(module);
  const diagnostics: PostLinkDiagnostic[] = [];
  for (const fn of module.functions) {
    if (fn.isDeclaration) continue;
    const declared = feat(fn).declaredAspects;
    if (declared.length === 0) continue;
    const allowed = new Set(declared.map((a) => a.value));
    for (const a of usedOf(fn)) {
      if (allowed.has(a) || a < 0) continue;
      diagnostics.push({
        severity: 'warning',
        code: 'aspect-not-allowed',
        message: `function '${fn.name}' uses aspect '${table.nameOf(a) ?? a}' that its [[sycl::device_has()]] does not list`,
      });
    }
  }

  let nextId = options.specIdBase ?? 0x4000_0000;
  const ids = new Map<string, number>();
  const idFor = (key: string): number => {
    let id = ids.get(key);
    if (id === undefined) ids.set(key, (id = nextId++));
    return id;
  };
  const requirements = new Map<string, Requirement[]>();
  const gates = new Map<IRFunction, number[]>();
  const roots = entryPoints.filter((fn) => isKernel(fn) || isExported(fn));
  for (const fn of roots) {
    const f = feat(fn);
    const aspects = new Set([...usedOf(fn), ...f.declaredAspects.map((a) => a.value)]);
    const reqs: Requirement[] = [];
    for (const aspect of [...aspects].filter((a) => a >= 0).sort((a, b) => a - b)) {
      reqs.push({ kind: 'aspect', aspect, specId: idFor(`aspect:${aspect}`) });
    }
    if (f.reqdWorkGroupSize !== undefined && f.reqdWorkGroupSize.length > 0) {
      const dims = f.reqdWorkGroupSize.map((v) => Number(BigInt.asUintN(32, v)));
      reqs.push({ kind: 'reqd-work-group-size', dims, specId: idFor(`wg:${dims.join(',')}`) });
    }
    if (f.reqdSubGroupSize?.kind === 'numeric') {
      const size = f.reqdSubGroupSize.value;
      reqs.push({ kind: 'reqd-sub-group-size', size, specId: idFor(`sg:${size}`) });
    }
    requirements.set(fn.name, reqs);
    gates.set(fn, reqs.map((r) => r.specId));
  }

  // Conditions: roots gate themselves; other functions take the OR of their callers' conditions.
  const callers = new Map<IRFunction, IRFunction[]>();
  for (const [caller, set] of graph) for (const callee of set) (callers.get(callee) ?? callers.set(callee, []).get(callee)!).push(caller);
  const conditions = new Map<IRFunction, number[][] | 'none'>();
  const onStack = new Set<IRFunction>();
  const conditionOf = (fn: IRFunction): number[][] | 'none' => {
    const known = conditions.get(fn);
    if (known !== undefined) return known;
    const gate = gates.get(fn);
    if (gate !== undefined) {
      const c = gate.length === 0 ? 'none' : [gate];
      conditions.set(fn, c);
      return c;
    }
    if (onStack.has(fn)) return [];
    onStack.add(fn);
    const terms: number[][] = [];
    let ungated = (callers.get(fn) ?? []).length === 0;
    for (const caller of callers.get(fn) ?? []) {
      const c = conditionOf(caller);
      if (c === 'none') ungated = true;
      else for (const t of c) if (!terms.some((x) => x.join() === t.join())) terms.push(t);
    }
    onStack.delete(fn);
    const result = ungated ? 'none' : terms;
    conditions.set(fn, result);
    return result;
  };
  const out = new Map<string, (readonly number[])[]>();
  for (const fn of module.functions) {
    if (fn.isDeclaration) continue;
    const c = conditionOf(fn);
    if (c !== 'none' && c.length > 0) out.set(fn.name, c);
  }
  return { requirements, conditions: out, diagnostics };
}

/** The `SYCL/requirements` value of one function. */
export function requirementsValue(reqs: readonly Requirement[]): PropertyValue {
  const words: number[] = [reqs.length];
  for (const r of reqs) {
    if (r.kind === 'aspect') words.push(RequirementEntryType.aspect, r.aspect, r.specId);
    else if (r.kind === 'reqd-work-group-size') words.push(RequirementEntryType.reqdWorkGroupSize, r.dims.length, ...r.dims, r.specId);
    else words.push(RequirementEntryType.reqdSubGroupSize, r.size, r.specId);
  }
  const payload = new Uint8Array(words.length * 4);
  const view = new DataView(payload.buffer);
  words.forEach((w, i) => view.setUint32(i * 4, w >>> 0, true));
  return byteArrayValue(payload);
}

/** Decodes a `SYCL/requirements` value (for tests and the runtime). */
export function decodeRequirementsValue(payload: Uint8Array): Requirement[] {
  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const word = (i: number): number => view.getUint32(i * 4, true);
  const count = word(0);
  const out: Requirement[] = [];
  let i = 1;
  for (let n = 0; n < count; n++) {
    const type = word(i++);
    if (type === RequirementEntryType.aspect) out.push({ kind: 'aspect', aspect: word(i++) | 0, specId: word(i++) });
    else if (type === RequirementEntryType.reqdWorkGroupSize) {
      const dimCount = word(i++);
      const dims: number[] = [];
      for (let d = 0; d < dimCount; d++) dims.push(word(i++));
      out.push({ kind: 'reqd-work-group-size', dims, specId: word(i++) });
    } else if (type === RequirementEntryType.reqdSubGroupSize) out.push({ kind: 'reqd-sub-group-size', size: word(i++), specId: word(i++) });
    else throw new RangeError(`unknown requirement entry type ${type}`);
  }
  return out;
}

/** The spec-constant strategy as an image processor. */
export class SpecConstantProcessor implements ImageProcessor {
  constructor(private readonly options: SpecConstantOptions = {}) {}

  process(image: SplitImage, context: ProcessorContext): ProcessedImage[] {
    const computed = computeSpecRequirements(image.module, image.entryPoints, this.options);
    for (const d of computed.diagnostics) context.report(d);
    const names = image.entryPoints.map((fn) => fn.name);
    const needsIR = computed.conditions.size > 0;
    const module = needsIR ? image.materialize() : image.module;
    if (needsIR) annotate(module, computed);
    const entryPoints = names.map((n) => module.getFunction(n)!).filter((fn) => fn !== undefined);
    const set: [string, PropertyValue][] = [...computed.requirements].map(([name, reqs]) => [name, requirementsValue(reqs)]);
    return [{ module, entryPoints, esimd: image.esimd, extraSets: [[REQUIREMENTS_SET, set]] }];
  }
}

/** Writes the conditions and the spec-id table into an image copy. */
function annotate(module: Module, computed: ImageSpecRequirements): void {
  const md = module.context.md;
  const int = (v: number): Metadata => md.value(module.context.constI32(v));
  for (const [name, terms] of computed.conditions) {
    const fn = module.getFunction(name);
    if (fn === undefined) continue;
    const node: MDNode = md.tuple(terms.map((t) => md.tuple(t.map(int))));
    setMetadata(fn, module.context, CONDITION_METADATA, node);
  }
  const entries = new Map<number, MDNode>();
  for (const reqs of computed.requirements.values()) {
    for (const r of reqs) {
      if (entries.has(r.specId)) continue;
      const detail: Metadata[] =
        r.kind === 'aspect'
          ? [md.string('aspect'), int(r.aspect)]
          : r.kind === 'reqd-work-group-size'
            ? [md.string('reqd_work_group_size'), ...r.dims.map(int)]
            : [md.string('reqd_sub_group_size'), int(r.size)];
      entries.set(r.specId, md.tuple([int(r.specId), ...detail]));
    }
  }
  if (entries.size > 0) module.setNamedMetadata(SPEC_CONSTANTS_METADATA, [...entries.values()]);
}
