/**
 * Retargeting SPIR device IR (`spir64-unknown-unknown`, what DPC++'s device compiler emits for
 * SPIR-V targets) to NVPTX (`nvptx64-nvidia-cuda`) or AMDGCN (`amdgcn-amd-amdhsa`):
 *
 * - triple and data layout of the target (LLVM 16's);
 * - address spaces renumbered (SPIR: 0 private, 1 global, 2 constant, 3 local, 4 generic; 5/6
 *   are Intel's device-only/host-only global):
 *   NVPTX private and generic → 0, global → 1, constant → 4 (`.const`), local → 3 (`.shared`);
 *   AMDGPU private → 5, global → 1, constant → 4, local → 3 (LDS), generic → 0 (flat);
 *   casts that become identities disappear, allocas move to the target's alloca space, and
 *   overloaded intrinsic names follow their new pointer types (`llvm.memcpy.p0.p4.i64` →
 *   `llvm.memcpy.p5.p0.i64`);
 * - calling conventions: `spir_kernel` → `ptx_kernel` (plus a `!nvvm.annotations` kernel entry,
 *   which LLVM 16's NVPTX back end reads) or `amdgpu_kernel`; `spir_func` → the C convention;
 * - AMDGPU kernels take `byval` aggregates as `byref` in the kernel argument segment (4), copied
 *   into a private alloca on entry (the AMDGPU kernel convention has no `byval`).
 *
 * The result is a new module in a context of its own (identified struct types get the new
 * address spaces in place there, keeping their names). SPIR-V builtins are lowered separately
 * (`lowerSpirvBuiltins`).
 */
import {
  Argument,
  AttributeList,
  AttributeSet,
  CallInst,
  Context,
  GlobalAlias,
  GlobalVariable,
  IRFunction,
  Module,
  ValueMapper,
  lookupIntrinsic,
  parseModule,
  printModule,
  typeAttr,
  type Constant,
  type GlobalValue,
  type Type,
  type Value,
} from '@syclkit/ir';
import { FunctionEditor, alloca, cast, firstInsertionIndex, memcpy } from './ir-edit.js';
import { annotateKernel } from './kernels.js';
import { gpuTripleOf, kernelCallingConv, type GpuArch } from './target.js';

/** The triples retargeting produces. */
export const GPU_TRIPLES = { nvptx: 'nvptx64-nvidia-cuda', amdgcn: 'amdgcn-amd-amdhsa' } as const satisfies Record<GpuArch, string>;

/** LLVM 16's data layouts of the two targets (what `llc-16` gives modules without one). */
export const GPU_DATA_LAYOUTS: Readonly<Record<GpuArch, string>> = {
  nvptx: 'e-i64:64-i128:128-v16:16-v32:32-n16:32:64',
  amdgcn:
    'e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7',
};

/** SPIR address space → target address space. Spaces not listed keep their number. */
export const ADDRESS_SPACE_MAPS: Readonly<Record<GpuArch, Readonly<Record<number, number>>>> = {
  nvptx: { 0: 0, 1: 1, 2: 4, 3: 3, 4: 0, 5: 1, 6: 1 },
  amdgcn: { 0: 5, 1: 1, 2: 4, 3: 3, 4: 0, 5: 1, 6: 1 },
};

/** The target's private (alloca) space: where SPIR's space 0 goes. */
const ALLOCA_SPACE: Readonly<Record<GpuArch, number>> = { nvptx: 0, amdgcn: 5 };

export class RetargetError extends Error {
  override readonly name = 'RetargetError';
}

/** The GPU a triple or target name retargets to (`nvptx64-nvidia-cuda`, `nvptx`, `amdgcn-amd-amdhsa`, ...). */
export function retargetArch(target: string): GpuArch {
  if (target === 'nvptx' || target === 'amdgcn') return target;
  const gpu = gpuTripleOf(target);
  if (gpu === undefined || gpu.runtime === undefined || gpu.pointerBits !== 64) {
    throw new RetargetError(`cannot retarget to '${target}': expected ${GPU_TRIPLES.nvptx} or ${GPU_TRIPLES.amdgcn}`);
  }
  return gpu.arch;
}

export interface RetargetResult {
  readonly module: Module;
  /** Kernels (by name) whose `byval` parameters became `byref` (AMDGPU). */
  readonly byrefKernels: readonly string[];
}

/** Retargets a SPIR module; `source` is left unchanged. */
export function retargetModule(source: Module, target: string): RetargetResult {
  const arch = retargetArch(target);
  if (source.typedPointers) throw new RetargetError(`${source.id}: retargeting needs opaque pointers (read the module without 'preserve-typed')`);
  const gpu = gpuTripleOf(source.triple);
  if (gpu !== undefined) throw new RetargetError(`${source.id}: the module is already for ${source.triple}`);
  // A context of our own: identified structs can be given their new pointer types in place.
  const ctx = new Context();
  const fresh = parseModule(printModule(source), { context: ctx, filename: source.id });
  const spaces = ADDRESS_SPACE_MAPS[arch];
  const space = (as: number): number => spaces[as] ?? as;
  const out = retypeModule(fresh, space, true);
  return { module: out, byrefKernels: finishRetarget(out, arch) };
}

/** Triple, layout, allocas, casts, intrinsic names and calling conventions of a retyped module. */
function finishRetarget(out: Module, arch: GpuArch): string[] {
  const spaces = ADDRESS_SPACE_MAPS[arch];
  out.triple = GPU_TRIPLES[arch];
  out.dataLayout = GPU_DATA_LAYOUTS[arch];
  fixAllocas(out, ALLOCA_SPACE[arch]);
  dropIdentityCasts(out);
  remangleIntrinsics(out, (as) => spaces[as] ?? as);
  const byref = convertCallingConventions(out, arch);
  completeWorkGroupSizes(out, arch);
  return byref;
}

/**
 * DPC++ writes `!reqd_work_group_size` (and `!work_group_size_hint`) with as many operands as the
 * kernel has dimensions, fastest first; the GPU back ends want x, y and z: AMDGPU's code object
 * metadata takes the node only with three operands (LLVM 16 silently drops all of a module's
 * metadata otherwise), so missing dimensions become 1; NVPTX gets `reqntid{x,y,z}` annotations.
 */
function completeWorkGroupSizes(m: Module, arch: GpuArch): void {
  const ctx = m.context;
  const md = ctx.md;
  for (const f of m.functions) {
    for (const kind of ['reqd_work_group_size', 'work_group_size_hint']) {
      const id = md.kinds.lookup(kind);
      const at = id === undefined ? -1 : f.attachments.findIndex((a) => a.kind === id);
      if (at < 0) continue;
      const node = f.attachments[at]!.node;
      if (node.mk !== 'tuple' || node.operands.length === 0 || node.operands.length > 3) continue;
      const sizes = node.operands.map((op) => (op?.mk === 'value' && op.value.vk === 'int' ? op.value.num : undefined));
      if (sizes.some((v) => v === undefined)) continue;
      while (sizes.length < 3) sizes.push(1);
      if (node.operands.length < 3) f.attachments[at] = { kind: id!, node: md.tuple(sizes.map((v) => md.value(ctx.constI32(v!)))) };
      if (arch === 'nvptx' && kind === 'reqd_work_group_size' && f.callingConv === 'ptx_kernel') {
        const fields = (['reqntidx', 'reqntidy', 'reqntidz'] as const).flatMap((name, i) => [md.string(name), md.value(ctx.constI32(sizes[i]!))]);
        m.addNamedMetadataOperand('nvvm.annotations', md.tuple([md.value(f), ...fields]));
      }
    }
  }
}

/**
 * Retargets `module` in place (the `gpu-retarget` pass): same module object and context. Identified
 * structs whose pointers change become new structs, which the context names `<name>.N` when other
 * modules of the context use the old ones; {@link retargetModule} gives a clean copy instead.
 */
export function retargetModuleInPlace(module: Module, target: string): string[] {
  const arch = retargetArch(target);
  if (module.typedPointers) throw new RetargetError(`${module.id}: retargeting needs opaque pointers (read the module without 'preserve-typed')`);
  if (gpuTripleOf(module.triple) !== undefined) throw new RetargetError(`${module.id}: the module is already for ${module.triple}`);
  const spaces = ADDRESS_SPACE_MAPS[arch];
  const out = retypeModule(module, (as) => spaces[as] ?? as, false);
  const byref = finishRetarget(out, arch);
  // move the copy's contents into the original module object
  module.removeAll(new Set(module.globalValues()));
  module.comdats.clear();
  for (const [name, c] of out.comdats) module.getOrCreateComdat(name).selection = c.selection;
  const comdat = <T extends { comdat: { name: string } | undefined }>(gv: T): T => {
    if (gv.comdat !== undefined) gv.comdat = module.getOrCreateComdat(gv.comdat.name);
    return gv;
  };
  const globals = [...out.globals];
  const functions = [...out.functions];
  const aliases = [...out.aliases];
  out.removeAll(new Set(out.globalValues()));
  for (const g of globals) module.addGlobalVariable(comdat(g));
  for (const f of functions) module.addFunction(comdat(f));
  for (const a of aliases) module.addAlias(a);
  module.namedMetadata.clear();
  for (const [name, ops] of out.namedMetadata) module.setNamedMetadata(name, ops);
  module.triple = out.triple;
  module.dataLayout = out.dataLayout;
  return byref;
}

// --- retyping -----------------------------------------------------------------------------------

/**
 * A copy of `m` (same context) with every pointer's address space mapped through `space`. With an
 * `exclusive` context, identified structs change in place; otherwise changed ones are new structs.
 */
function retypeModule(m: Module, space: (as: number) => number, exclusive: boolean): Module {
  const ctx = m.context;
  const memo = new Map<Type, Type>();
  const mapType = (t: Type): Type => {
    const known = memo.get(t);
    if (known !== undefined) return known;
    let r: Type;
    switch (t.kind) {
      case 'pointer':
        r = ctx.ptr(space(t.addressSpace));
        break;
      case 'array':
        r = ctx.array(mapType(t.element), t.length);
        break;
      case 'vector':
        r = ctx.vector(mapType(t.element), t.length, t.scalable);
        break;
      case 'function':
        r = ctx.fn(mapType(t.returnType), t.params.map(mapType), t.varArgs);
        break;
      case 'struct':
        if (t.literal) r = ctx.literalStruct((t.elements ?? []).map(mapType), t.packed);
        else if (exclusive) {
          // identified structs belong to this context alone: they get their new body in place
          r = t;
          memo.set(t, t);
          if (t.elements !== undefined) t.setBody(t.elements.map(mapType), t.packed);
        } else if (t.elements === undefined) r = t;
        else {
          // shared with other modules: a new struct (named `<name>.N` by the context) when the body changes
          const shell = ctx.createStruct(t.name);
          memo.set(t, shell);
          const elements = t.elements.map(mapType);
          if (elements.every((e, i) => e === t.elements![i])) {
            memo.set(t, t);
            r = t;
          } else {
            shell.setBody(elements, t.packed);
            r = shell;
          }
        }
        break;
      default:
        r = t;
    }
    memo.set(t, r);
    return r;
  };
  const out = new Module(m.id, ctx);
  out.sourceFilename = m.sourceFilename;
  out.inlineAsm = [...m.inlineAsm];
  const copies = new Map<GlobalValue, GlobalValue>();
  const mapper = new ValueMapper({ context: ctx, mapType, fold: true, mapGlobal: (gv) => copies.get(gv) ?? null });
  for (const g of m.globals) {
    const v = new GlobalVariable(g.name, mapType(g.valueType), ctx.ptr(space(g.addressSpace)));
    for (const key of ['linkage', 'visibility', 'dllStorage', 'unnamedAddr', 'threadLocal', 'dsoLocal', 'partition', 'isConstant', 'externallyInitialized', 'section', 'align', 'attributes', 'sanitizer', 'codeModel'] as const) {
      (v as unknown as Record<string, unknown>)[key] = g[key];
    }
    if (g.comdat !== undefined) v.comdat = out.getOrCreateComdat(g.comdat.name);
    if (v.comdat !== undefined && g.comdat !== undefined) v.comdat.selection = g.comdat.selection;
    out.addGlobalVariable(v);
    copies.set(g, v);
  }
  for (const f of m.functions) {
    const type = mapType(f.functionType) as IRFunction['functionType'];
    const copy = new IRFunction(f.name, type, ctx.ptr(f.addressSpace), mapper.mapAttributeList(f.attributes));
    for (const key of ['linkage', 'visibility', 'dllStorage', 'unnamedAddr', 'threadLocal', 'dsoLocal', 'partition', 'callingConv', 'section', 'align', 'gc'] as const) {
      (copy as unknown as Record<string, unknown>)[key] = f[key];
    }
    if (f.comdat !== undefined) {
      copy.comdat = out.getOrCreateComdat(f.comdat.name);
      copy.comdat.selection = f.comdat.selection;
    }
    copy.args = f.args.map((a) => new Argument(mapType(a.type), a.name, copy));
    out.addFunction(copy);
    copies.set(f, copy);
  }
  for (const a of m.aliases) {
    const copy = new GlobalAlias(a.name, mapType(a.valueType), ctx.ptr(space(a.addressSpace)), a.aliasee);
    for (const key of ['linkage', 'visibility', 'dllStorage', 'unnamedAddr', 'threadLocal', 'dsoLocal', 'partition'] as const) {
      (copy as unknown as Record<string, unknown>)[key] = a[key];
    }
    out.addAlias(copy);
    copies.set(a, copy);
  }
  if (m.ifuncs.length > 0) throw new RetargetError(`${m.id}: ifuncs cannot be retargeted to a GPU`);
  const constant = (c: Constant): Constant => mapper.mapConstant(c) ?? c;
  for (const g of m.globals) {
    const v = copies.get(g) as GlobalVariable;
    if (g.initializer !== undefined) v.initializer = constant(g.initializer);
    v.attachments = mapper.mapAttachments(g.attachments) ?? [];
  }
  for (const f of m.functions) {
    const copy = copies.get(f) as IRFunction;
    copy.attachments = mapper.mapAttachments(f.attachments) ?? [];
    if (f.personality) copy.personality = constant(f.personality);
    if (f.prefix) copy.prefix = constant(f.prefix);
    if (f.prologue) copy.prologue = constant(f.prologue);
    if (!f.isDeclaration) mapper.cloneBody(f, copy);
  }
  for (const a of m.aliases) (copies.get(a) as GlobalAlias).aliasee = constant(a.aliasee);
  mapper.finish();
  for (const [name, ops] of m.namedMetadata) out.setNamedMetadata(name, ops.map((op) => mapper.mapNode(op)));
  return out;
}

/** Allocas live in the target's alloca space (the copied instruction kept SPIR's number). */
function fixAllocas(m: Module, allocaSpace: number): void {
  for (const f of m.functions) {
    for (const inst of f.instructions()) {
      if (inst.opcode !== 'alloca') continue;
      const a = inst as unknown as { addressSpace: number; type: Type };
      a.addressSpace = a.type.kind === 'pointer' ? a.type.addressSpace : allocaSpace;
    }
  }
}

/** `addrspacecast`s between spaces that are now one (NVPTX private and generic) are dropped. */
function dropIdentityCasts(m: Module): void {
  for (const f of m.functions) {
    let editor: FunctionEditor | undefined;
    for (const inst of f.instructions()) {
      if (inst.opcode !== 'addrspacecast' || inst.type !== inst.operands[0]!.type) continue;
      editor ??= new FunctionEditor(m.context, f);
      editor.replace(inst, inst.operands[0]!);
      editor.erase(inst);
    }
    editor?.commit();
  }
}

/**
 * Overloaded intrinsics are named after their types: the `p<N>` parts of the suffix follow the
 * address-space map. Declarations that become one (NVPTX `p0` and `p4` both give `p0`) merge.
 */
function remangleIntrinsics(m: Module, space: (as: number) => number): void {
  const merged = new Map<Value, Value>();
  for (const f of [...m.functions]) {
    const info = lookupIntrinsic(f.name);
    if (info === undefined || !info.overloaded) continue;
    const suffix = f.name.slice(info.base.length);
    const renamed = info.base + suffix.replace(/\.p(\d+)(?=\.|$)/g, (_, n: string) => `.p${space(Number(n))}`);
    if (renamed === f.name) continue;
    const existing = m.getFunction(renamed);
    if (existing !== undefined && existing.functionType === f.functionType) {
      merged.set(f, existing);
      m.remove(f);
    } else m.renameGlobal(f, renamed);
  }
  if (merged.size === 0) return;
  for (const f of m.functions) {
    for (const inst of f.instructions()) {
      const r = merged.get(inst.operands[0]!);
      if (inst instanceof CallInst && r !== undefined) inst.operands[0] = r;
    }
  }
}

/** Kernel and function calling conventions of the target; AMDGPU byval kernel parameters become byref. */
function convertCallingConventions(m: Module, arch: GpuArch): string[] {
  const byref: string[] = [];
  const kernels: IRFunction[] = [];
  for (const f of m.functions) {
    if (f.callingConv === 'spir_kernel') {
      f.callingConv = kernelCallingConv(arch);
      kernels.push(f);
    } else if (f.callingConv === 'spir_func') f.callingConv = 'ccc';
    for (const inst of f.instructions()) {
      if (inst instanceof CallInst && (inst.callingConv === 'spir_func' || inst.callingConv === 'spir_kernel')) inst.callingConv = 'ccc';
    }
  }
  for (const k of kernels) {
    if (arch === 'nvptx') annotateKernel(m, arch, k);
    else if (byvalToByref(m, k)) byref.push(k.name);
  }
  if (arch === 'amdgcn') setAmdgpuVisibility(m, new Set(kernels));
  return byref;
}

/**
 * AMDGPU code objects are shared libraries the HSA loader reads: kernels (and device globals) are
 * looked up by name, so they are `protected`; other definitions are `hidden`, as HIP device code
 * has them, so calls between them need no dynamic relocations (which `ld.lld -shared` refuses).
 */
function setAmdgpuVisibility(m: Module, kernels: ReadonlySet<IRFunction>): void {
  const local = (gv: GlobalValue): boolean => gv.hasLocalLinkage();
  for (const f of m.functions) {
    if (f.isDeclaration || local(f) || f.visibility !== 'default') continue;
    f.visibility = kernels.has(f) ? 'protected' : 'hidden';
  }
  for (const g of m.globals) {
    if (g.isDeclaration || local(g) || g.visibility !== 'default') continue;
    g.visibility = 'protected';
  }
}

/**
 * An AMDGPU kernel cannot take `byval` parameters: each becomes `ptr addrspace(4) byref(T)` (the
 * kernel argument segment), copied on entry into a private alloca that the body uses instead.
 */
function byvalToByref(m: Module, k: IRFunction): boolean {
  const params = k.attributes.params;
  const byvalIndexes = k.args.map((_, i) => i).filter((i) => params[i]?.get('byval') !== undefined);
  if (byvalIndexes.length === 0) return false;
  const ctx = m.context;
  const segment = ctx.ptr(4);
  const newParams = [...k.functionType.params];
  const newAttrs = k.args.map((_, i) => params[i] ?? AttributeSet.empty);
  for (const i of byvalIndexes) {
    const set = newAttrs[i]!;
    const type = (set.get('byval') as { type: Type }).type;
    newParams[i] = segment;
    newAttrs[i] = set.without('byval').with(typeAttr('byref', type));
  }
  const type = ctx.fn(k.returnType, newParams, k.functionType.varArgs);
  k.functionType = type;
  k.attributes = new AttributeList(k.attributes.fn, k.attributes.ret, newAttrs);
  const editor = new FunctionEditor(ctx, k);
  const entry = k.blocks[0];
  for (const i of byvalIndexes) {
    const old = k.args[i]!;
    const arg = new Argument(segment, old.name, k);
    k.args[i] = arg;
    if (entry === undefined) continue;
    const valueType = (newAttrs[i]!.get('byref') as { type: Type }).type;
    const align = (newAttrs[i]!.get('align') as { value?: number } | undefined)?.value;
    const anchor = entry.instructions[firstInsertionIndex(entry)]!;
    const slot = alloca(m, valueType, 5, `${old.name}.byval`);
    if (align !== undefined && typeof align === 'number') slot.align = Math.max(slot.align ?? 1, align);
    editor.insertBefore(anchor, slot);
    editor.insertBefore(anchor, memcpy(m, slot, slot.align ?? 1, arg, typeof align === 'number' ? align : 1, m.layout.allocSize(valueType)));
    editor.replace(old, slot.type === old.type ? slot : editor.insertBefore(anchor, cast('addrspacecast', slot, old.type)));
  }
  editor.commit();
  return true;
}
