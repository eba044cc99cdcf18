/**
 * Typed pointers for LLVM 15 (`printModule(m, { llvmVersion: 15, pointers: 'typed' })`), for the
 * tools of the typed-pointer era: LLVM 15's SPIR-V translator crashes on some opaque-pointer IR
 * (a function storing a pointer argument, called with two different kernel arguments) and
 * mistypes `printf` formats, where typed IR translates. The rule:
 *
 * - Every `ptr addrspace(N)` is written `i8 addrspace(N)*`: arguments, results, globals' value
 *   types, struct fields, function types.
 * - A value whose typed form has another pointee keeps it where it is defined: an `alloca T` is
 *   `T*`, a GEP is a pointer to the type its indices select, a global is `valueType*`, a function
 *   `fnType*`, an argument with `byval(T)`, `sret(T)`, `byref(T)`, `inalloca(T)`,
 *   `preallocated(T)` or `elementtype(T)` is `T*` (as LLVM 15 requires). Such an instruction or
 *   argument is followed by a `bitcast` to `i8*` that its other uses take; a constant is cast in
 *   place (`bitcast (T* @g to i8*)`).
 * - Where an instruction needs a pointer to something (`load T` and `store T` through `T*`,
 *   `cmpxchg`/`atomicrmw` likewise, a GEP's base `S*`, a callee `fnType*`, a `byval(T)` argument
 *   `T*`), a `bitcast` to that type comes right before it.
 * - Overloaded intrinsics are named with typed manglings (`llvm.memcpy.p0.p0.i64` →
 *   `llvm.memcpy.p0i8.p0i8.i64`), their pointers being `i8*`.
 *
 * Inserted casts are named `%__typed15.N`. Refused in this form: vector GEPs, ifuncs, and
 * `llvm.global_ctors`/`llvm.global_dtors` (LLVM 15 wants `void ()*` fields there).
 */
import type { AttributeList } from './attributes.js';
import type { Context } from './context.js';
import { GetElementPtrInst } from './instructions.js';
import type { Module } from './module.js';
import type { FunctionType, Type } from './types.js';
import { isConstant, type Constant, type IRFunction, type Value } from './values.js';
import { constantOperands } from './uses.js';
import { lookupIntrinsic } from './upgrade.js';

/** Parameter attributes whose type a typed pointer parameter must point to. */
const POINTEE_ATTRIBUTES = ['byval', 'sret', 'byref', 'inalloca', 'preallocated', 'elementtype'] as const;

/** An operand already written out for the typed form: its type and its text. */
export class TextValue {
  readonly vk = 'text15' as const;
  constructor(
    readonly type: Type,
    readonly text: string,
  ) {}
}

/** The function type with each pointer parameter that carries a pointee attribute typed `T*`. */
export function typedFunctionType(ctx: Context, fnType: FunctionType, attrs: AttributeList): FunctionType {
  let changed = false;
  const params = fnType.params.map((t, i) => {
    if (t.kind !== 'pointer' || t.pointee !== undefined) return t;
    const set = attrs.param(i);
    for (const key of POINTEE_ATTRIBUTES) {
      const a = set.get(key);
      if (a?.kind === 'type' && a.type !== undefined && a.type !== ctx.i8) {
        changed = true;
        return ctx.typedPtr(a.type, t.addressSpace);
      }
    }
    return t;
  });
  return changed ? ctx.fn(fnType.returnType, params, fnType.varArgs) : fnType;
}

/** An overloaded intrinsic's name with typed manglings for its `i8*` pointers (`p0` → `p0i8`). */
export function typedIntrinsicName(name: string): string {
  const info = lookupIntrinsic(name);
  if (info === undefined || !info.overloaded || name.length === info.base.length) return name;
  const parts = name
    .slice(info.base.length + 1)
    .split('.')
    .map((p) => p.replace(/^((?:nx)?v\d+)?p(\d+)$/, (_, vec: string | undefined, as: string) => `${vec ?? ''}p${as}i8`));
  return `${info.base}.${parts.join('.')}`;
}

/** What the typed form cannot write, each named with the global it is in. */
export function typedPointerProblems(m: Module): string[] {
  const problems = new Set<string>();
  for (const i of m.ifuncs) problems.add(`@${i.name}: ifunc (typed pointers)`);
  for (const g of m.globals) {
    if (g.name === 'llvm.global_ctors' || g.name === 'llvm.global_dtors') problems.add(`@${g.name} (typed pointers want void ()* fields)`);
  }
  const seen = new Set<Value>();
  const visit = (v: Value, where: string): void => {
    if (!isConstant(v) || seen.has(v)) return;
    seen.add(v);
    const c = v as Constant;
    if (c.vk === 'expr' && c.opcode === 'getelementptr' && c.operands.some((o) => o.type.kind === 'vector')) problems.add(`${where}: vector getelementptr (typed pointers)`);
    for (const op of constantOperands(c)) visit(op, where);
  };
  for (const g of m.globals) if (g.initializer) visit(g.initializer, `@${g.name}`);
  for (const a of m.aliases) visit(a.aliasee, `@${a.name}`);
  for (const f of m.functions) {
    for (const b of f.blocks) {
      for (const inst of b.instructions) {
        if (inst instanceof GetElementPtrInst && inst.operands.some((o) => o.type.kind === 'vector')) problems.add(`@${f.name}: vector getelementptr (typed pointers)`);
        for (const op of inst.operands) visit(op, `@${f.name}`);
      }
    }
  }
  return [...problems];
}

/** Per function: the typed parameter types, the `i8*` casts of values defined with another type, and fresh names. */
export class TypedFunctionState {
  readonly uniform = new Map<Value, string>();
  private next = 0;
  private readonly names: Set<string>;
  constructor(
    readonly fn: IRFunction,
    readonly params: readonly Type[],
  ) {
    this.names = new Set<string>();
    for (const a of fn.args) if (a.name !== '') this.names.add(a.name);
    for (const b of fn.blocks) {
      if (b.name !== '') this.names.add(b.name);
      for (const i of b.instructions) if (i.name !== '') this.names.add(i.name);
    }
  }
  /** A local name no value of the function has. */
  fresh(): string {
    for (;;) {
      const name = `__typed15.${this.next++}`;
      if (!this.names.has(name)) return `%${name}`;
    }
  }
}
