/**
 * What the simulated backend needs to know about the code of an image. From device IR: per
 * function, the optional features it uses (`!sycl_used_aspects`, `!intel_reqd_sub_group_size`,
 * `!reqd_work_group_size`), the functions it refers to (calls and function pointers), and its
 * specialization-constant condition when post-link wrote one (`!sycl_requirement_condition`).
 * From SPIR-V: the module's capabilities (a driver refuses the whole module when it lacks one),
 * per function its linkage, calls and address-taken functions, and per kernel the `SubgroupSize`
 * and `LocalSize` execution modes.
 */
import { isSpirv, readSpirvModule, type SpirvFunction, type SpirvLinkage } from '@syclkit/formats';
import { ConstantGlobals, NOT_AN_OPERAND, forEachReferenceOf, parseModule, type IRFunction, type MDNode, type Metadata, type Module } from '@syclkit/ir';
import { SyclMetadata, attachment, isKernel, readAspectValues } from '@syclkit/sycl-conventions';

/**
 * How a definition links with other images: `local` (internal, private: seen only inside its
 * image), `weak` (linkonce, weak, common, available_externally, any ODR form: duplicates merge,
 * the first definition stays), `strong` (external: a second definition is an error).
 */
export type Binding = 'local' | 'weak' | 'strong';

export interface FunctionSummary {
  readonly name: string;
  readonly defined: boolean;
  readonly binding: Binding;
  readonly kernel: boolean;
  /** Aspect values of `!sycl_used_aspects` (internal, negative aspects left out). */
  readonly aspects: readonly number[];
  readonly subGroupSize: number | undefined;
  readonly workGroupSize: readonly number[] | undefined;
  /** Names of functions called or whose address is taken in the body, without repeats. */
  readonly references: readonly string[];
  /**
   * `!sycl_requirement_condition` (post-link's spec-constant strategy): an OR of AND-terms of
   * SpecIds; the function is compiled only when some term has every SpecId true.
   */
  readonly condition: readonly (readonly number[])[] | undefined;
}

export interface ImageSummary {
  /** Functions in module order (definitions and declarations). */
  readonly functions: readonly FunctionSummary[];
  readonly byName: ReadonlyMap<string, FunctionSummary>;
  /** For a SPIR-V image: the capabilities its module declares (names), which a driver must support. */
  readonly capabilities?: readonly string[];
}

function integerOf(md: Metadata | null | undefined): bigint | undefined {
  if (md == null || md.mk !== 'value' || md.value.vk !== 'int') return undefined;
  return md.value.big;
}

/** Integers of a tuple; named pairs `!{!"fp64", i32 6}` give their integer. */
function integers(node: MDNode | undefined): bigint[] {
  if (node === undefined || node.mk !== 'tuple') return [];
  const out: bigint[] = [];
  for (const op of node.operands) {
    const direct = integerOf(op);
    if (direct !== undefined) out.push(direct);
    else if (op !== null && op.mk === 'tuple') {
      const value = integerOf(op.operands[1]);
      if (value !== undefined) out.push(value);
    }
  }
  return out;
}

function bindingOf(fn: IRFunction): Binding {
  if (fn.hasLocalLinkage()) return 'local';
  return fn.linkage === 'external' ? 'strong' : 'weak';
}

/** Summarizes a parsed module. */
export function summarizeModule(module: Module): ImageSummary {
  const inConstants = new ConstantGlobals();
  const functions: FunctionSummary[] = module.functions.map((fn) => {
    const references = new Set<string>();
    forEachReferenceOf(fn, (value, holder, operand) => {
      if (holder.vk !== 'instruction' || operand === NOT_AN_OPERAND) return;
      for (const g of inConstants.of(value)) if (g.vk === 'function') references.add(g.name);
    });
    references.delete(fn.name);
    const sg = integers(attachment(fn, module.context, SyclMetadata.reqdSubGroupSize))[0];
    const conditionNode = attachment(fn, module.context, SyclMetadata.requirementCondition);
    const wg = integers(attachment(fn, module.context, SyclMetadata.reqdWorkGroupSize));
    return {
      name: fn.name,
      defined: !fn.isDeclaration,
      binding: bindingOf(fn),
      kernel: isKernel(fn),
      aspects: readAspectValues(attachment(fn, module.context, SyclMetadata.usedAspects)).values.filter((v) => v >= 0),
      subGroupSize: sg === undefined ? undefined : Number(sg),
      workGroupSize: wg.length === 0 ? undefined : wg.map(Number),
      references: [...references],
      condition:
        conditionNode === undefined || conditionNode.mk !== 'tuple'
          ? undefined
          : conditionNode.operands.map((term) => (term !== null && term.mk === 'tuple' ? integers(term).map((v) => Number(BigInt.asUintN(32, v))) : [])),
    };
  });
  return { functions, byName: new Map(functions.map((f) => [f.name, f])) };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Whether bytes start like LLVM bitcode (a binary format the simulation cannot read). */
export function isBitcode(bytes: Uint8Array): boolean {
  if (bytes.length < 4) return false;
  const word = (bytes[0]! | (bytes[1]! << 8) | (bytes[2]! << 16) | (bytes[3]! << 24)) >>> 0;
  return word === 0xdec04342 || word === 0x0b17c0de;
}

/** Whether bytes start like an ELF object (AMDGPU code objects, cubins: native code the simulation cannot read). */
export function isElf(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x7f && bytes[1] === 0x45 && bytes[2] === 0x4c && bytes[3] === 0x46;
}

export { isSpirv };

function spirvBinding(linkage: SpirvLinkage | undefined): Binding {
  if (linkage === undefined) return 'local';
  return linkage === 'linkonce_odr' ? 'weak' : 'strong';
}

/**
 * Summarizes a SPIR-V module. A kernel is the function of an `OpEntryPoint` of the Kernel
 * execution model, named by the entry point. llvm-spirv (15 and later) makes each kernel's entry
 * point a nameless wrapper that only calls the kernel's own function, which keeps the kernel's
 * name and linkage; that function stands for the kernel and the wrapper is left out.
 */
export function summarizeSpirv(bytes: Uint8Array, fileName: string): ImageSummary {
  const module = readSpirvModule(bytes, { fileName });
  const byId = new Map(module.functions.map((fn) => [fn.id, fn]));
  const kernels = new Map<number, { name: string; subGroupSize: number | undefined; workGroupSize: readonly number[] | undefined }>();
  const wrappers = new Set<number>();
  for (const entry of module.entryPoints) {
    if (entry.executionModel.name !== 'Kernel') continue;
    let fn = byId.get(entry.id)!;
    if (fn.name === undefined && fn.calls.length === 1 && byId.get(fn.calls[0]!)?.name === entry.name) {
      wrappers.add(fn.id);
      fn = byId.get(fn.calls[0]!)!;
    }
    const sub = entry.executionModes.find((m) => m.mode.name === 'SubgroupSize' && !m.byId)?.operands[0];
    const local = entry.executionModes.find((m) => m.mode.name === 'LocalSize' && !m.byId)?.operands;
    kernels.set(fn.id, { name: entry.name, subGroupSize: sub, workGroupSize: local === undefined || local.length === 0 ? undefined : local });
  }
  const nameOf = (fn: SpirvFunction): string => kernels.get(fn.id)?.name ?? fn.name ?? `%${fn.id}`;
  const functions: FunctionSummary[] = module.functions
    .filter((fn) => !wrappers.has(fn.id))
    .map((fn) => {
      const kernel = kernels.get(fn.id);
      const references = [...new Set([...fn.calls, ...fn.addressTaken].filter((id) => id !== fn.id).map((id) => nameOf(byId.get(id)!)))];
      return {
        name: nameOf(fn),
        defined: fn.defined,
        binding: spirvBinding(fn.linkage),
        kernel: kernel !== undefined,
        aspects: [],
        subGroupSize: kernel?.subGroupSize,
        workGroupSize: kernel?.workGroupSize,
        references,
        condition: undefined,
      };
    });
  return { functions, byName: new Map(functions.map((f) => [f.name, f])), capabilities: module.capabilities.map((c) => c.name) };
}

/** Parses IR text bytes and summarizes them; throws the parser's error for text that is not IR. */
export function summarizeIrText(bytes: Uint8Array, fileName: string): ImageSummary {
  return summarizeModule(parseModule(utf8.decode(bytes), { filename: fileName }));
}
