/**
 * Kernel entry points of NVPTX and AMDGCN modules. Two conventions exist in DPC++ device IR and
 * in intel/llvm's tests, and both are recognised:
 * - the calling convention: `ptx_kernel` (NVPTX) or `amdgpu_kernel` (AMDGCN);
 * - an annotation: an operand of `!nvvm.annotations` (or `!amdgcn.annotations`) of the form
 *   `!{ptr @f, !"kind", i32 V, ...}` with a `!"kernel", i32 1` pair (intel/llvm's KernelCache
 *   rules: nodes with an even number of operands are skipped, a node listed twice counts once).
 */
import type { IRFunction, MDNode, Metadata, Module } from '@syclkit/ir';
import { annotationsName, kernelCallingConv, type GpuArch } from './target.js';

export interface Kernel {
  readonly fn: IRFunction;
  /** Whether an annotation marks it (`kernel`, 1); clones of such kernels get one too. */
  readonly annotated: boolean;
  /** Every annotation node whose first operand is this function (kernel or not), in order. */
  readonly annotations: readonly MDNode[];
}

/** The function a metadata operand wraps, if any. */
export function functionOf(operand: Metadata | null | undefined): IRFunction | undefined {
  return operand?.mk === 'value' && operand.value.vk === 'function' ? operand.value : undefined;
}

function isKernelAnnotation(node: MDNode): boolean {
  if (node.mk !== 'tuple') return false;
  const ops = node.operands;
  for (let i = 1; i + 1 < ops.length; i += 2) {
    const kind = ops[i];
    const value = ops[i + 1];
    if (kind?.mk === 'string' && kind.value === 'kernel' && value?.mk === 'value' && value.value.vk === 'int' && value.value.num === 1) return true;
  }
  return false;
}

/**
 * The kernels of a module for `arches` (both when the module names no GPU), in module order:
 * functions with the target's kernel calling convention and functions annotated as kernels.
 */
export function findKernels(module: Module, arches: readonly GpuArch[]): Map<IRFunction, Kernel> {
  const annotated = new Set<IRFunction>();
  const dependents = new Map<IRFunction, MDNode[]>();
  for (const arch of arches) {
    const seen = new Set<MDNode>();
    for (const node of module.getNamedMetadata(annotationsName(arch)) ?? []) {
      if (node.mk !== 'tuple' || seen.has(node) || node.operands.length % 2 !== 1) continue;
      seen.add(node);
      const fn = functionOf(node.operands[0]);
      if (fn === undefined) continue;
      if (isKernelAnnotation(node)) annotated.add(fn);
      const list = dependents.get(fn);
      if (list === undefined) dependents.set(fn, [node]);
      else list.push(node);
    }
  }
  const conventions = new Set(arches.map(kernelCallingConv));
  const kernels = new Map<IRFunction, Kernel>();
  for (const fn of module.functions) {
    const isAnnotated = annotated.has(fn);
    if (!isAnnotated && !conventions.has(fn.callingConv)) continue;
    kernels.set(fn, { fn, annotated: isAnnotated, annotations: dependents.get(fn) ?? [] });
  }
  return kernels;
}

/** Appends `!{ptr @fn, !"kernel", i32 1}` to the target's annotations. */
export function annotateKernel(module: Module, arch: GpuArch, fn: IRFunction): void {
  const ctx = module.context;
  const md = ctx.md;
  module.addNamedMetadataOperand(annotationsName(arch), md.tuple([md.value(fn), md.string('kernel'), md.value(ctx.constI32(1))]));
}
