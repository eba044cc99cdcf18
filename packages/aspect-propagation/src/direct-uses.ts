/**
 * Provenance of direct aspect uses: for every function, the aspects it uses *itself* and where
 * each one comes from — an instruction (and the type that carried the aspect, or its
 * `!sycl_used_aspects`), the signature (and the type), or the function's own `!sycl_used_aspects`.
 *
 * This is a second walk over the module, not the pass's: the pass only needs the sets and keeps
 * its allocation-free walk (function-facts.ts). Both walks share every rule — the module's rules
 * (module-rules.ts), the types' aspects (type-aspects.ts), what an instruction uses and in which
 * order (`walkInstruction`), the `-fsycl-fp64-conv-emu` exceptions and the reading of aspect
 * lists — so they cannot disagree; a property test checks that they do not.
 */
import type { Argument, Instruction, IRFunction, Module, Type } from '@syclkit/ir';
import { AspectSet } from './aspect-set.js';
import { functionAspectLists, signatureSkipsFp64, skipsFp64, walkInstruction, type InstructionSink } from './function-facts.js';
import { SyclMetadata } from '@syclkit/sycl-conventions';
import { readModuleRules } from './module-rules.js';
import type { TypeAspects } from './type-aspects.js';

/** Options of {@link directAspectUses}. */
export interface DirectAspectUsesOptions {
  /**
   * As the pass's `fp64ConvEmu` (`-fsycl-fp64-conv-emu`): `fp64` is not a use of a signature type
   * that contains `double`, nor of a conversion-like instruction that involves `double`.
   * (default: false)
   */
  readonly fp64ConvEmu?: boolean;
  /**
   * Called with every instruction of every function, in module order, as the walk meets it: for
   * callers that gather facts of their own about instructions (calls, locations) without walking
   * the module again.
   */
  readonly onInstruction?: (instruction: Instruction, fn: IRFunction) => void;
}

/** A return or argument type that carries the aspect. */
export interface SignatureAspectUse {
  readonly kind: 'signature';
  readonly aspect: number;
  /** The return type, or the argument's type. */
  readonly type: Type;
  /** The argument whose type carries the aspect; undefined for the return type. */
  readonly argument: Argument | undefined;
}

/** An instruction that uses a type carrying the aspect. */
export interface InstructionAspectUse {
  readonly kind: 'instruction';
  readonly aspect: number;
  readonly instruction: Instruction;
  /**
   * The first type, in the pass's order, that carries the aspect: the result type (an `alloca`'s
   * allocated type), an operand's type (a global value's value type), a GEP's source element type.
   */
  readonly type: Type;
}

/** An instruction whose own `!sycl_used_aspects` lists the aspect (and no type of it carries it). */
export interface InstructionMetadataAspectUse {
  readonly kind: 'instruction-metadata';
  readonly aspect: number;
  readonly instruction: Instruction;
}

/** The function's own `!sycl_used_aspects` (`[[__sycl_detail__::__uses_aspects__]]`, or a previous run). */
export interface FunctionMetadataAspectUse {
  readonly kind: 'function-metadata';
  readonly aspect: number;
}

/** One direct use of an aspect and where it comes from. */
export type AspectUse = SignatureAspectUse | InstructionAspectUse | InstructionMetadataAspectUse | FunctionMetadataAspectUse;

/** The direct aspect uses of one function. */
export interface FunctionAspectUses {
  readonly fn: IRFunction;
  /**
   * Every direct use, in the order the pass inserts them: the return type's aspects, each
   * argument's, then per instruction one use per aspect (in the order of the instruction's own
   * set), then one per value of the function's `!sycl_used_aspects`. An aspect appears once per
   * place that uses it. Inserting the aspects in this order into an {@link AspectSet} gives the
   * set the pass propagates for the function (its own aspects), in the pass's order.
   */
  readonly uses: readonly AspectUse[];
  /**
   * The function's `!sycl_declared_aspects` (`[[sycl::device_has]]`), in order. Not uses: the pass
   * propagates them apart from used aspects and never excludes them.
   */
  readonly declared: readonly number[];
}

/**
 * The direct aspect uses of every function of `module` (declarations included), in module order:
 * `result[i].fn === module.functions[i]`. Reads the module without changing it (malformed aspect
 * metadata is skipped, as the pass skips it; the pass also reports it).
 *
 * What the pass then does with them: each function's `!sycl_used_aspects` is the union of the uses
 * of every function it reaches through direct `call`s (and virtual-function sets), and of their
 * declared aspects. With `conditional-semantics=intel-llvm-prototype` the pass ignores the uses
 * of functions only reached through a conditional caller.
 */
export function directAspectUses(module: Module, options: DirectAspectUsesOptions = {}): FunctionAspectUses[] {
  const { types, fp64 } = readModuleRules(module, []);
  const walker = new DirectUseWalker(module, types, fp64, options.fp64ConvEmu === true);
  return module.functions.map((fn) => walker.usesOf(fn, options.onInstruction));
}

/** The provenance walk over single functions (the pass's warnings use it for their last note). */
export class DirectUseWalker {
  private readonly usedKind: number;
  private readonly declaredKind: number;
  /** One sink for every function (reset per instruction). */
  private sink: ProvenanceSink | undefined;

  constructor(
    module: Module,
    private readonly types: TypeAspects,
    private readonly fp64: number,
    private readonly fp64ConvEmu: boolean,
  ) {
    // Looked up, not registered: reading must not add metadata kinds to the context.
    this.usedKind = module.context.md.kinds.lookup(SyclMetadata.usedAspects) ?? -1;
    this.declaredKind = module.context.md.kinds.lookup(SyclMetadata.declaredAspects) ?? -1;
  }

  usesOf(fn: IRFunction, onInstruction?: (instruction: Instruction, fn: IRFunction) => void): FunctionAspectUses {
    const uses: AspectUse[] = [];
    this.signatureUses(fn, uses);
    for (const block of fn.blocks) {
      for (const instruction of block.instructions) {
        if (onInstruction !== undefined) onInstruction(instruction, fn);
        this.instructionUses(instruction, uses);
      }
    }
    return this.functionUses(fn, uses);
  }

  /** The uses of the return and argument types, appended to `uses` (a function's first uses). */
  signatureUses(fn: IRFunction, uses: AspectUse[]): void {
    this.signatureUse(fn.returnType, undefined, uses);
    const args = fn.args;
    for (let i = 0; i < args.length; i++) this.signatureUse(args[i]!.type, args[i], uses);
  }

  private signatureUse(type: Type, argument: Argument | undefined, uses: AspectUse[]): void {
    const { types, fp64 } = this;
    const aspects = types.of(type);
    if (aspects === undefined) return;
    const skip = this.fp64ConvEmu && signatureSkipsFp64(type, types);
    for (const aspect of aspects) if (!(skip && aspect === fp64)) uses.push({ kind: 'signature', aspect, type, argument });
  }

  /**
   * The uses of one instruction, appended to `uses`; returns the instruction's aspects as the
   * pass's sink gathers them (before the `-fsycl-fp64-conv-emu` exception). Do not change it.
   */
  instructionUses(instruction: Instruction, uses: AspectUse[]): AspectSet | undefined {
    const { types, fp64 } = this;
    const sink = (this.sink ??= new ProvenanceSink(types));
    sink.reset();
    walkInstruction(instruction, this.usedKind, sink);
    const set = sink.set;
    if (set === undefined) return undefined;
    const skip = this.fp64ConvEmu && set.has(fp64) && skipsFp64(instruction, types);
    for (const aspect of set) {
      if (skip && aspect === fp64) continue;
      const type = sink.carriers.get(aspect);
      uses.push(type === undefined ? { kind: 'instruction-metadata', aspect, instruction } : { kind: 'instruction', aspect, instruction, type });
    }
    return set;
  }

  /** Completes a function's uses with its own `!sycl_used_aspects`, and reads its declared aspects. */
  functionUses(fn: IRFunction, uses: AspectUse[]): FunctionAspectUses {
    if (fn.attachments.length === 0) return { fn, uses, declared: NO_ASPECTS };
    const lists = functionAspectLists(fn, this.usedKind, this.declaredKind);
    if (lists.used !== undefined) for (const aspect of lists.used) uses.push({ kind: 'function-metadata', aspect });
    return { fn, uses, declared: lists.declared ?? NO_ASPECTS };
  }
}

/** The declared aspects of the many functions that have none (shared: the lists are read-only). */
const NO_ASPECTS: readonly number[] = Object.freeze([]);

/** One instruction's set, as the pass's sink builds it, and the first type that brought each aspect. */
class ProvenanceSink implements InstructionSink {
  set: AspectSet | undefined = undefined;
  /** Aspect → first type that carried it (absent: it came from metadata). */
  readonly carriers = new Map<number, Type>();

  constructor(private readonly types: TypeAspects) {}

  reset(): void {
    // Most instructions carry no aspect: clearing an empty map would still allocate a new table.
    if (this.set === undefined) return;
    this.set = undefined;
    this.carriers.clear();
  }

  type(type: Type): void {
    const aspects = this.types.of(type);
    if (aspects === undefined) return;
    this.set ??= new AspectSet();
    for (const aspect of aspects) if (this.set.add(aspect)) this.carriers.set(aspect, type);
  }

  metadata(values: readonly number[]): void {
    if (values.length === 0) return;
    this.set ??= new AspectSet();
    this.set.addAll(values);
  }
}
