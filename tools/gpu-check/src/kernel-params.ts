/**
 * The parameters of each kernel as the front end made them (before `sycl_kernel_omit_args`), read
 * from the device IR: what a submission must pass, in order. gpu-check uses it to give the
 * kernels of a generated module arguments without knowing them in advance.
 */
import { DataLayout, parseModule, type Module, type Type } from '@syclkit/ir';
import type { ScalarType } from '@syclkit/runtime';

export type ParamKind =
  /** A global pointer: a buffer. */
  | { readonly kind: 'buffer' }
  /** A struct by value (`byval`): `sycl::range` / `sycl::id`, or another struct. */
  | { readonly kind: 'struct'; readonly name: string; readonly bytes: number }
  | { readonly kind: 'scalar'; readonly type: ScalarType };

function scalarOf(type: Type): ScalarType | undefined {
  if (type.kind === 'integer') return ({ 8: 's8', 16: 's16', 32: 's32', 64: 's64' } as const)[type.bits as 8 | 16 | 32 | 64];
  if (type.kind === 'float') return ({ half: 'u16', float: 'f32', double: 'f64' } as Record<string, ScalarType>)[type.fp];
  return undefined;
}

/** Kernel name → its parameters, for every kernel (`spir_kernel`) defined in `irText`. */
export function kernelParams(irText: string, file: string): Map<string, ParamKind[]> {
  return kernelParamsOf(parseModule(irText, { filename: file }), file);
}

/** {@link kernelParams} of a parsed module. */
export function kernelParamsOf(module: Module, file: string): Map<string, ParamKind[]> {
  const layout = DataLayout.parse(module.dataLayout);
  const kernels = new Map<string, ParamKind[]>();
  for (const fn of module.functions) {
    if (fn.isDeclaration || fn.callingConv !== 'spir_kernel') continue;
    kernels.set(
      fn.name,
      fn.args.map((arg, i): ParamKind => {
        const byval = fn.attributes.param(i).get('byval');
        if (byval?.kind === 'type' && byval.type !== undefined) {
          return { kind: 'struct', name: byval.type.kind === 'struct' ? byval.type.name : 'struct', bytes: layout.allocSize(byval.type) };
        }
        if (arg.type.kind === 'pointer') return { kind: 'buffer' };
        const scalar = scalarOf(arg.type);
        if (scalar === undefined) throw new Error(`${file}: kernel ${fn.name}: parameter ${i} has a type gpu-check cannot pass`);
        return { kind: 'scalar', type: scalar };
      }),
    );
  }
  return kernels;
}
