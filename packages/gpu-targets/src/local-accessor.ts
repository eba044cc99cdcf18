/**
 * `localaccessortosharedmemory`: SYCL local accessors on CUDA and HIP
 * (CompilerAndRuntimeDesign.md, "Local memory support"). A kernel parameter that points to local
 * (shared, address space 3) memory becomes an `i32` byte offset into one external
 * `@<kernel>_shared_mem` array of the shared space, which the runtime sizes at launch; the kernel
 * body rebuilds each pointer with a GEP into that array (and a bitcast to the old pointer type).
 *
 * Only kernels of `nvptx*-*-cuda` and `amdgcn-*-amdhsa` modules change: other operating systems
 * (OpenCL's `nvcl`, PAL) pass local pointers as such. Functions the kernel calls keep their local
 * pointer parameters.
 */
import { AttributeList, AttributeSet, GlobalVariable, IRFunction, Argument, replaceAllUsesWith, type Module, type Value } from '@syclkit/ir';
import { FunctionEditor, cast, gep } from './ir-edit.js';
import { findKernels } from './kernels.js';
import { gpuTripleOf } from './target.js';

/** The address space of SYCL local memory on both targets (NVPTX shared, AMDGPU LDS). */
export const SHARED_ADDRESS_SPACE = 3;

export interface LocalAccessorResult {
  readonly changed: boolean;
  /** Rewritten kernels (the new functions, which carry the old names), in module order. */
  readonly kernels: readonly IRFunction[];
}

/** Rewrites the local-pointer parameters of a module's kernels; see the module comment. */
export function lowerLocalAccessors(module: Module): LocalAccessorResult {
  const gpu = gpuTripleOf(module.triple);
  if (gpu === undefined || gpu.runtime === undefined) return { changed: false, kernels: [] };
  const replaced = new Map<Value, Value>();
  const kernels: IRFunction[] = [];
  for (const { fn } of findKernels(module, [gpu.arch]).values()) {
    const next = rewriteKernel(module, fn);
    if (next === undefined) continue;
    replaced.set(fn, next);
    kernels.push(next);
  }
  if (kernels.length === 0) return { changed: false, kernels };
  // annotations (and anything else) that named an old kernel name the new one
  replaceAllUsesWith(module, replaced, { allowTypeMismatch: true });
  return { changed: true, kernels };
}

function isLocalPointer(type: Value['type']): boolean {
  return type.kind === 'pointer' && type.addressSpace === SHARED_ADDRESS_SPACE;
}

function rewriteKernel(module: Module, fn: IRFunction): IRFunction | undefined {
  if (!fn.args.some((a) => isLocalPointer(a.type))) return undefined;
  const ctx = module.context;
  const bytes = ctx.array(ctx.i8, 0);
  const shared = new GlobalVariable(`${fn.name}_shared_mem`, bytes, module.pointerTo(bytes, SHARED_ADDRESS_SPACE));
  shared.align = 4;
  module.addGlobalVariable(shared);

  const params = fn.args.map((a) => (isLocalPointer(a.type) ? ctx.i32 : a.type));
  const type = ctx.fn(fn.returnType, params, fn.functionType.varArgs);
  const name = fn.name;
  module.remove(fn);
  const next = new IRFunction(name, type, module.pointerTo(type, fn.addressSpace), new AttributeList(
    fn.attributes.fn,
    fn.attributes.ret,
    fn.args.map((a, i) => (isLocalPointer(a.type) ? AttributeSet.empty : fn.attributes.param(i))),
  ));
  for (const key of ['linkage', 'visibility', 'dllStorage', 'unnamedAddr', 'threadLocal', 'dsoLocal', 'partition', 'callingConv', 'section', 'comdat', 'align', 'gc', 'personality', 'prefix', 'prologue'] as const) {
    (next as unknown as Record<string, unknown>)[key] = fn[key];
  }
  next.attachments = [...fn.attachments];
  next.args = fn.args.map((a) => new Argument(isLocalPointer(a.type) ? ctx.i32 : a.type, isLocalPointer(a.type) ? '' : a.name, next));
  next.blocks = fn.blocks;
  for (const b of next.blocks) b.parent = next;
  fn.blocks = [];
  module.addFunction(next);

  const editor = new FunctionEditor(ctx, next);
  const entry = next.blocks[0];
  // Each pointer is rebuilt at the very front of the entry block, so the last parameter's comes first.
  const front: Value[] = [];
  fn.args.forEach((old, i) => {
    const arg = next.args[i]!;
    if (!isLocalPointer(old.type)) {
      editor.replace(old, arg);
      return;
    }
    const address = gep(module, bytes, shared, [ctx.constI32(0), arg], ctx.i8, true);
    const pointer = cast('bitcast', address, old.type, old.name);
    front.unshift(address, pointer);
    editor.replace(old, pointer);
  });
  if (entry !== undefined && front.length > 0) {
    const anchor = entry.instructions[0]!;
    for (const inst of front) editor.insertBefore(anchor, inst as ReturnType<typeof cast>);
  }
  editor.commit();
  return next;
}
