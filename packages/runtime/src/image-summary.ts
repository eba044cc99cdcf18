/**
 * What the simulated backend needs to know about the device IR of an image: per function, the
 * optional features it uses (`!sycl_used_aspects`, `!intel_reqd_sub_group_size`,
 * `!reqd_work_group_size`), the functions it refers to (calls and function pointers), and its
 * specialization-constant condition when post-link wrote one (`!sycl_requirement_condition`).
 */
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

/**
 * Whether bytes start like SPIR-V, LLVM bitcode or an ELF object (AMDGPU code objects, cubins):
 * binary formats the simulation cannot read.
 */
export function isBinaryCode(bytes: Uint8Array): boolean {
  if (bytes.length < 4) return false;
  const word = (bytes[0]! | (bytes[1]! << 8) | (bytes[2]! << 16) | (bytes[3]! << 24)) >>> 0;
  return word === 0x07230203 || word === 0xdec04342 || word === 0x0b17c0de || word === 0x464c457f;
}

/** Parses IR text bytes and summarizes them; throws the parser's error for text that is not IR. */
export function summarizeIrText(bytes: Uint8Array, fileName: string): ImageSummary {
  return summarizeModule(parseModule(utf8.decode(bytes), { filename: fileName }));
}
