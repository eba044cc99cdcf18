/**
 * `globaloffset`: SYCL's global offset on CUDA and HIP, which have no such launch parameter
 * (CompilerAndRuntimeDesign.md, "Global offset support").
 *
 * Code reads the offset through `__spirv_BuiltInGlobalOffset(i32 dim)` (DPC++ today) or through
 * the older `llvm.nvvm.implicit.offset` / `llvm.amdgcn.implicit.offset` intrinsics (a pointer to
 * three `i32`). Every function that reads it, and every function that calls one of those,
 * transitively, keeps its original body with the offset folded to 0 and gets a clone
 * `<name>_with_offset` taking the offset as a trailing pointer parameter; kernels are cloned too,
 * their clone taking `[3 x i32]` `byval` (NVPTX) or `byref` (AMDGPU, copied into a private
 * alloca). The runtime calls the clone only when the offset is not zero.
 *
 * Behaviour follows intel/llvm's lit tests of the pass (newest revision where they disagree; see
 * the README for the union of revisions this accepts and the tests that excludes).
 */
import {
  Argument,
  AttributeList,
  AttributeSet,
  CallInst,
  Flag,
  IRFunction,
  Instruction,
  ValueMapper,
  typeAttr,
  type Module,
  type Type,
  type Value,
} from '@syclkit/ir';
import { giveCloneItsOwnSubprogram } from './debug-clone.js';
import {
  FunctionEditor,
  alloca,
  callsInUseOrder,
  cast,
  firstInsertionIndex,
  gep,
  intCast,
  load,
  localUsers,
  memcpy,
} from './ir-edit.js';
import { annotateKernel, findKernels, type Kernel } from './kernels.js';
import { gpuTripleOf, type GpuArch } from './target.js';

/** The SPIR-V builtin DPC++ device code reads the global offset with. */
export const GLOBAL_OFFSET_BUILTIN = '_Z27__spirv_BuiltInGlobalOffseti';

/** intel/llvm's implicit offset intrinsics (pointer to `[3 x i32]`), by target. */
export const IMPLICIT_OFFSET_INTRINSICS: Readonly<Record<GpuArch, string>> = {
  nvptx: 'llvm.nvvm.implicit.offset',
  amdgcn: 'llvm.amdgcn.implicit.offset',
};

export interface GlobalOffsetOptions {
  /**
   * Add the offset parameter (`-enable-global-offset`). When `false`, every read of the offset is
   * folded to 0 and no clone is made.
   * (default: `true`)
   */
  readonly enabled?: boolean;
}

export interface GlobalOffsetProblem {
  readonly code: 'global-offset-kernel-called' | 'global-offset-unfoldable-use';
  readonly message: string;
}

export interface GlobalOffsetResult {
  readonly changed: boolean;
  /** Each function that got a clone, with its `_with_offset` clone, in processing order. */
  readonly clones: ReadonlyMap<IRFunction, IRFunction>;
  /** The kernels among them (the runtime picks the clone when the offset is not zero). */
  readonly kernels: readonly IRFunction[];
  readonly problems: readonly GlobalOffsetProblem[];
}

interface Source {
  readonly fn: IRFunction;
  readonly kind: 'builtin' | 'intrinsic';
  readonly arch: GpuArch;
}

/** What the module reads the offset with: the builtin and/or the intrinsics of its target. */
function offsetSources(module: Module): Source[] {
  const gpu = gpuTripleOf(module.triple);
  const sources: Source[] = [];
  const builtin = module.getFunction(GLOBAL_OFFSET_BUILTIN);
  if (builtin !== undefined && gpu !== undefined) sources.push({ fn: builtin, kind: 'builtin', arch: gpu.arch });
  // A module without a GPU triple (older tests) is taken to be for the target whose intrinsic it declares.
  for (const arch of gpu === undefined ? (['nvptx', 'amdgcn'] as const) : [gpu.arch]) {
    const intrinsic = module.getFunction(IMPLICIT_OFFSET_INTRINSICS[arch]);
    if (intrinsic !== undefined) sources.push({ fn: intrinsic, kind: 'intrinsic', arch });
  }
  return sources;
}

/** Adds the implicit global offset to a module; see the module comment. */
export function addImplicitGlobalOffset(module: Module, options: GlobalOffsetOptions = {}): GlobalOffsetResult {
  const calls = callsInUseOrder(module);
  const sources = offsetSources(module).filter((s) => (calls.get(s.fn)?.length ?? 0) > 0);
  const clones = new Map<IRFunction, IRFunction>();
  const problems: GlobalOffsetProblem[] = [];
  if (sources.length === 0) return { changed: false, clones, kernels: [], problems };
  const arch = sources[0]!.arch;
  const run = new GlobalOffsetRun(module, arch, calls, problems);
  if (options.enabled ?? true) run.addOffsetParameters(sources);
  for (const fn of module.functions) if (!run.isClone(fn)) run.foldOffsetReads(fn, sources);
  for (const s of sources) {
    if (!run.stillCalled(s.fn)) module.remove(s.fn);
  }
  return { changed: true, clones: run.clones, kernels: run.kernelClones, problems };
}

class GlobalOffsetRun {
  readonly clones = new Map<IRFunction, IRFunction>();
  readonly kernelClones: IRFunction[] = [];
  private readonly cloneSet = new Set<IRFunction>();
  /** Original function → the value holding the offset pointer in its clone. */
  private readonly offsets = new Map<IRFunction, Value>();
  /** Original instruction → its copy in the clone. */
  private readonly copies = new Map<Instruction, Instruction>();
  private readonly editors = new Map<IRFunction, FunctionEditor>();
  /** Users of each clone's locals, taken when its body is copied. */
  private readonly cloneUsers = new Map<IRFunction, Map<Value, Instruction[]>>();
  private kernels = new Map<IRFunction, Kernel>();
  private readonly sourceKinds = new Map<IRFunction, Source['kind']>();
  private readonly offsetPointer: Type;
  private readonly offsetArray: Type;
  /** Private (AMDGPU, 5) or generic (NVPTX, 0) space of the offset pointer. */
  private readonly targetSpace: number;

  constructor(
    private readonly module: Module,
    private readonly arch: GpuArch,
    private readonly calls: Map<IRFunction, CallInst[]>,
    private readonly problems: GlobalOffsetProblem[],
  ) {
    const ctx = module.context;
    this.targetSpace = arch === 'nvptx' ? 0 : 5;
    this.offsetPointer = module.pointerTo(ctx.i32, this.targetSpace);
    this.offsetArray = ctx.array(ctx.i32, 3);
  }

  isClone(fn: IRFunction): boolean {
    return this.cloneSet.has(fn);
  }

  stillCalled(fn: IRFunction): boolean {
    for (const f of this.module.functions) {
      for (const inst of f.instructions()) if (inst instanceof CallInst && inst.operands.includes(fn)) return true;
    }
    return false;
  }

  addOffsetParameters(sources: readonly Source[]): void {
    this.kernels = findKernels(this.module, [this.arch]);
    for (const s of sources) this.sourceKinds.set(s.fn, s.kind);
    for (const kernel of this.kernels.keys()) {
      const callers = this.calls.get(kernel) ?? [];
      if (callers.length > 0) {
        this.problems.push({
          code: 'global-offset-kernel-called',
          message: `kernel '${kernel.name}' is called by '${callers[0]!.function?.name ?? '?'}'; a kernel entry point cannot have uses`,
        });
      }
    }
    this.createClones(sources);
    for (const s of sources) this.threadOffset(s.fn, undefined);
    for (const editor of this.editors.values()) editor.commit();
  }

  /** Empty clones of every function that reads the offset, directly or through calls (breadth first). */
  private createClones(sources: readonly Source[]): void {
    const queue: CallInst[] = [];
    for (const s of sources) queue.push(...(this.calls.get(s.fn) ?? []));
    for (let i = 0; i < queue.length; i++) {
      const fn = queue[i]!.function;
      if (fn === undefined || this.clones.has(fn)) continue;
      const ctx = this.module.context;
      const kernel = this.kernels.get(fn);
      const extra = kernel === undefined ? this.offsetPointer : this.kernelArgumentType(fn);
      const type = ctx.fn(fn.returnType, [...fn.functionType.params, extra], fn.functionType.varArgs);
      const clone = new IRFunction(`${fn.name}_with_offset`, type, this.module.pointerTo(type, fn.addressSpace), AttributeList.empty);
      clone.linkage = fn.linkage;
      this.module.addFunction(clone);
      this.clones.set(fn, clone);
      this.cloneSet.add(clone);
      queue.push(...(this.calls.get(fn) ?? []));
    }
    // each clone goes right after its original (one reordering, not one splice per clone)
    const list = this.module.functions;
    const order: IRFunction[] = [];
    for (const fn of list) {
      if (this.cloneSet.has(fn)) continue;
      order.push(fn);
      const clone = this.clones.get(fn);
      if (clone !== undefined) order.push(clone);
    }
    order.forEach((fn, i) => (list[i] = fn));
  }

  /**
   * The type of a kernel clone's offset parameter: a pointer to the `[3 x i32]` argument, in the
   * AMDGPU kernel argument segment (4) for `amdgpu_kernel` functions, generic otherwise.
   */
  private kernelArgumentType(kernel: IRFunction): Type {
    const space = this.arch === 'amdgcn' && kernel.callingConv === 'amdgpu_kernel' ? 4 : 0;
    return this.module.pointerTo(this.offsetArray, space);
  }

  private editor(fn: IRFunction): FunctionEditor {
    let e = this.editors.get(fn);
    if (e === undefined) {
      e = new FunctionEditor(this.module.context, fn);
      this.editors.set(fn, e);
    }
    return e;
  }

  /**
   * Rewrites the calls of `callee` made by original functions, in their clones: a call of an
   * offset source reads the clone's offset parameter; a call of a function with a clone calls
   * the clone, passing the offset on. Callers are then processed in turn (depth first).
   */
  private threadOffset(callee: IRFunction, calleeClone: IRFunction | undefined): void {
    for (const call of this.calls.get(callee) ?? []) {
      const caller = call.function;
      if (caller === undefined || this.cloneSet.has(caller)) continue;
      const kernel = this.kernels.get(caller);
      if (kernel !== undefined && !this.offsets.has(caller)) this.cloneKernel(kernel);
      const processed = this.offsets.has(caller);
      if (!processed) this.cloneBody(caller, false);
      const offset = this.offsets.get(caller)!;
      const clone = this.clones.get(caller)!;
      const copy = this.copies.get(call) as CallInst;
      const editor = this.editor(clone);
      if (calleeClone === undefined) this.readOffset(clone, editor, copy, offset, this.sourceKinds.get(callee)!);
      else {
        const next = new CallInst('call', copy.type, calleeClone.functionType, [calleeClone, ...copy.args, offset], copyCallAttributes(copy.attributes, copy.argCount), copy.name, copy.flags & (Flag.TAIL | Flag.MUSTTAIL | Flag.NOTAIL));
        next.callingConv = copy.callingConv;
        next.attachments = copy.attachments;
        copy.name = '';
        editor.insertBefore(copy, next);
        editor.replace(copy, next);
        editor.erase(copy);
      }
      if (!processed) this.threadOffset(caller, clone);
    }
  }

  /** In a clone: a read of the offset becomes a read of its offset parameter. */
  private readOffset(clone: IRFunction, editor: FunctionEditor, copy: CallInst, offset: Value, kind: Source['kind']): void {
    if (kind === 'intrinsic') {
      editor.replace(copy, offset);
      editor.erase(copy);
      return;
    }
    // __spirv_BuiltInGlobalOffset(dim): an unused call just goes (intel/llvm ed293dba)
    if ((this.cloneUsers.get(clone)?.get(copy)?.length ?? 0) === 0) {
      editor.erase(copy);
      return;
    }
    const ctx = this.module.context;
    const pointer = editor.insertBefore(copy, gep(this.module, ctx.i32, offset, [copy.arg(0)], ctx.i32, true));
    const value = editor.insertBefore(copy, load(this.module, ctx.i32, pointer));
    const result = intCast(value, copy.type);
    if (result !== value) editor.insertBefore(copy, result as Instruction);
    editor.replace(copy, result);
    editor.erase(copy);
  }

  /** A kernel's clone: the `[3 x i32]` parameter is `byval` (NVPTX) or `byref` (AMDGPU). */
  private cloneKernel(kernel: Kernel): void {
    const fn = kernel.fn;
    const clone = this.cloneBody(fn, true);
    const param = clone.args.length - 1;
    const attr = typeAttr(this.arch === 'nvptx' ? 'byval' : 'byref', this.offsetArray);
    const params = [...clone.attributes.params];
    while (params.length <= param) params.push(AttributeSet.empty);
    params[param] = params[param]!.with(attr);
    clone.attributes = clone.attributes.withParams(params);
    if (kernel.annotated) annotateKernel(this.module, this.arch, clone);
    this.kernelClones.push(clone);
  }

  /** Fills the clone of `fn` with a copy of its body (CloneFunctionInto) and records where the offset is. */
  private cloneBody(fn: IRFunction, isKernel: boolean): IRFunction {
    const module = this.module;
    const ctx = module.context;
    const clone = this.clones.get(fn)!;
    const mapper = new ValueMapper({ context: ctx, mapGlobal: (gv) => gv });
    mapper.cloneBody(fn, clone);
    const extraType = clone.functionType.params[clone.functionType.params.length - 1]!;
    for (const a of clone.args) a.name = '';
    clone.args.push(new Argument(extraType, '', clone));
    copyFunctionProperties(fn, clone);
    clone.attachments = fn.attachments.map((a) => ({ kind: a.kind, node: a.node }));
    giveCloneItsOwnSubprogram(ctx, fn, clone);
    const originals = [...fn.instructions()];
    const copies = [...clone.instructions()];
    for (let i = 0; i < originals.length; i++) this.copies.set(originals[i]!, copies[i]!);
    this.cloneUsers.set(clone, localUsers(clone));

    let offset: Value = clone.args[clone.args.length - 1]!;
    const entry = clone.blocks[0];
    if (entry !== undefined) {
      const editor = this.editor(clone);
      const anchor = entry.instructions[firstInsertionIndex(entry)]!;
      if (isKernel && this.arch === 'amdgcn') {
        // AMDGPU kernels read the offset from the kernel argument segment (4); functions take a
        // private pointer, so the kernel copies it into a private alloca first.
        const slot = alloca(module, this.offsetArray, this.targetSpace);
        editor.insertBefore(anchor, slot);
        let source: Value = offset;
        const segment = module.pointerTo(module.typedPointers ? ctx.i8 : this.offsetArray, 4);
        if (offset.type !== segment) {
          source = editor.insertBefore(anchor, cast('addrspacecast', offset, segment));
        }
        let destination: Value = slot;
        if (module.typedPointers) destination = editor.insertBefore(anchor, cast('bitcast', slot, module.pointerTo(ctx.i8, this.targetSpace)));
        editor.insertBefore(anchor, memcpy(module, destination, slot.align ?? 4, source, 1, module.layout.allocSize(this.offsetArray)));
        offset = slot;
      }
      if (offset.type !== this.offsetPointer) offset = editor.insertBefore(anchor, cast('bitcast', offset, this.offsetPointer));
    }
    this.offsets.set(fn, offset);
    return clone;
  }

  /**
   * In an original function: reads of the offset become 0. Builtin calls are replaced by 0;
   * loads through an intrinsic's pointer (through GEPs and PHIs) are replaced by 0 and what only
   * served them is deleted, then the intrinsic calls.
   */
  foldOffsetReads(fn: IRFunction, sources: readonly Source[]): void {
    const kinds = new Map(sources.map((s) => [s.fn, s.kind]));
    const sourceCalls: CallInst[] = [];
    for (const inst of fn.instructions()) {
      if (inst instanceof CallInst && inst.calledFunction !== undefined && kinds.has(inst.calledFunction)) sourceCalls.push(inst);
    }
    if (sourceCalls.length === 0) return;
    const ctx = this.module.context;
    const users = localUsers(fn);
    const useCount = new Map<Value, number>();
    for (const [v, list] of users) useCount.set(v, list.length);
    const dead = new Set<Instruction>();
    const replacements = new Map<Value, Value>();
    const kill = (inst: Instruction): void => {
      dead.add(inst);
      for (const op of inst.operands) if (useCount.has(op)) useCount.set(op, useCount.get(op)! - 1);
    };
    const loads: Instruction[] = [];
    const visited = new Set<Instruction>();
    for (const c of sourceCalls) {
      if (kinds.get(c.calledFunction!) === 'builtin') {
        if (c.type.kind === 'integer') replacements.set(c, ctx.constInt(c.type, 0));
        kill(c);
        continue;
      }
      const work: Instruction[] = [];
      const visit = (u: Instruction): void => {
        if (visited.has(u)) return;
        visited.add(u);
        work.push(u);
      };
      for (const u of users.get(c) ?? []) visit(u);
      while (work.length > 0) {
        const inst = work.pop()!;
        if (inst.opcode === 'phi' || inst.opcode === 'getelementptr') for (const u of users.get(inst) ?? []) visit(u);
        if (inst.opcode === 'load') loads.push(inst);
      }
    }
    // the definitions each load's pointer depends on, in post order (calls excluded)
    const defs: Instruction[] = [];
    const seen = new Set<Instruction>(loads);
    const postOrder = (root: Instruction): void => {
      const stack: { inst: Instruction; next: number }[] = [{ inst: root, next: 0 }];
      seen.add(root);
      while (stack.length > 0) {
        const top = stack[stack.length - 1]!;
        const ops = top.inst.operands;
        if (top.next < ops.length) {
          const op = ops[top.next++]!;
          if (op.vk === 'instruction' && !(op instanceof CallInst) && !seen.has(op)) {
            seen.add(op);
            stack.push({ inst: op, next: 0 });
          }
          continue;
        }
        stack.pop();
        if (!(top.inst instanceof CallInst)) defs.push(top.inst);
      }
    };
    for (const l of loads) {
      const pointer = l.operands[0]!;
      if (pointer.vk === 'instruction' && !seen.has(pointer)) postOrder(pointer);
    }
    for (const l of loads) {
      if (l.type.kind === 'integer') replacements.set(l, ctx.constInt(l.type, 0));
      kill(l);
    }
    for (let i = defs.length - 1; i >= 0; i--) {
      const d = defs[i]!;
      if ((useCount.get(d) ?? 0) === 0 && !dead.has(d)) kill(d);
    }
    for (const c of sourceCalls) {
      if (dead.has(c)) continue;
      if ((useCount.get(c) ?? 0) > 0) {
        this.problems.push({
          code: 'global-offset-unfoldable-use',
          message: `'${fn.name}' uses the pointer returned by '${c.calledFunction!.name}' other than to load from it; the offset cannot be folded to 0 there`,
        });
        continue;
      }
      kill(c);
    }
    const editor = new FunctionEditor(ctx, fn);
    for (const [from, to] of replacements) editor.replace(from, to);
    for (const d of dead) editor.erase(d);
    editor.commit();
  }
}

/** Function properties `CloneFunctionInto` copies (not the comdat). */
function copyFunctionProperties(from: IRFunction, to: IRFunction): void {
  to.callingConv = from.callingConv;
  to.visibility = from.visibility;
  to.dllStorage = from.dllStorage;
  to.unnamedAddr = from.unnamedAddr;
  to.threadLocal = from.threadLocal;
  to.dsoLocal = from.dsoLocal;
  to.partition = from.partition;
  to.section = from.section;
  to.align = from.align;
  to.gc = from.gc;
  to.personality = from.personality;
  to.prefix = from.prefix;
  to.prologue = from.prologue;
  const params = from.functionType.params.map((_, i) => from.attributes.param(i));
  to.attributes = new AttributeList(from.attributes.fn, from.attributes.ret, params);
}

/** A call's attributes for a callee with one more (attribute-less) parameter. */
function copyCallAttributes(list: AttributeList, argCount: number): AttributeList {
  const params: AttributeSet[] = [];
  for (let i = 0; i < argCount; i++) params.push(list.param(i));
  return new AttributeList(list.fn, list.ret, params);
}
