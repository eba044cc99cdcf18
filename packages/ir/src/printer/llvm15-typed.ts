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
 * - A declared function with an Itanium-mangled name (the SPIR-V builtins of SYCL code, such as
 *   `_Z18__spirv_AtomicIAddPU3AS4mN5__spv5Scope4FlagENS1_19MemorySemanticsMask4FlagEm`) gets the
 *   pointer parameter types its name spells when they point to a builtin type or a vector of one
 *   (`i64 addrspace(4)*` here), as DPC++ declared them in the typed-pointer era; SPIR-V
 *   translators take those types for the instruction they make (an atomic on `i8*` is invalid).
 *
 * Inserted casts are named `%__typed15.N`. Refused in this form: vector GEPs, ifuncs, and
 * `llvm.global_ctors`/`llvm.global_dtors` (LLVM 15 wants `void ()*` fields there).
 */
import type { AttributeList } from '../model/attributes.js';
import type { Context } from '../model/context.js';
import { GetElementPtrInst } from '../model/instructions.js';
import type { Module } from '../model/module.js';
import type { FunctionType, Type } from '../model/types.js';
import { isConstant, type Constant, type IRFunction, type Value } from '../model/values.js';
import { constantOperands } from '../analysis/uses.js';
import { lookupIntrinsic } from '../model/upgrade.js';

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

/**
 * The function type with each pointer parameter that carries a pointee attribute typed `T*`, and,
 * given the name of a declaration, the pointees its Itanium mangling spells.
 */
export function typedFunctionType(ctx: Context, fnType: FunctionType, attrs: AttributeList, declaredName?: string): FunctionType {
  let changed = false;
  const mangled = declaredName === undefined ? undefined : mangledPointees(ctx, declaredName, fnType.params.length, fnType.varArgs);
  const params = fnType.params.map((t, i) => {
    if (t.kind !== 'pointer' || t.pointee !== undefined) return t;
    const fromName = mangled?.[i];
    if (fromName !== undefined && fromName.addressSpace === t.addressSpace && fromName.pointee !== ctx.i8 && !POINTEE_ATTRIBUTES.some((k) => attrs.param(i).has(k))) {
      changed = true;
      return ctx.typedPtr(fromName.pointee, t.addressSpace);
    }
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
  /** The pointer type each GEP gives (its indices walked once). */
  readonly gepTypes = new Map<Value, Type>();
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

// --- Itanium manglings: the pointee types of pointer parameters ---------------------------------

interface MangledType {
  /** The LLVM type, when a builtin type or a vector of one. */
  readonly llvm?: Type;
  /** For a pointer: what it points to and its address space. */
  readonly pointer?: { readonly pointee: MangledType; readonly addressSpace: number };
}

/**
 * For each parameter of the function an Itanium-mangled name names, the pointee and address
 * space of a pointer parameter to a builtin type (or vector of one); undefined entries for other
 * parameters, and undefined altogether when the name does not parse (templates, `std::`
 * abbreviations, ...) or its parameter count differs from the function's.
 */
export function mangledPointees(ctx: Context, name: string, paramCount: number, varArgs: boolean): ({ readonly pointee: Type; readonly addressSpace: number } | undefined)[] | undefined {
  if (!name.startsWith('_Z')) return undefined;
  const p = new ManglingReader(ctx, name, 2);
  try {
    p.functionName();
    const params: MangledType[] = [];
    let ellipsis = false;
    while (!p.done()) {
      if (p.peek() === 'z') {
        p.pos++;
        ellipsis = true;
        break;
      }
      params.push(p.type());
    }
    if (!p.done()) return undefined;
    // `v` alone is an empty parameter list
    if (params.length === 1 && params[0]!.llvm === ctx.void && params[0]!.pointer === undefined) params.length = 0;
    if (params.length !== paramCount || ellipsis !== varArgs) return undefined;
    return params.map((t) => (t.pointer?.pointee.llvm !== undefined ? { pointee: t.pointer.pointee.llvm, addressSpace: t.pointer.addressSpace } : undefined));
  } catch {
    return undefined;
  }
}

class ManglingReader {
  /** Substitution candidates in Itanium order (`S_` is the first). */
  private readonly substitutions: MangledType[] = [];
  constructor(
    private readonly ctx: Context,
    private readonly s: string,
    public pos: number,
  ) {}
  done(): boolean {
    return this.pos >= this.s.length;
  }
  peek(): string {
    return this.s[this.pos] ?? '';
  }
  private fail(): never {
    throw new Error('unsupported mangling');
  }
  private number(): number {
    const m = /^\d+/.exec(this.s.slice(this.pos));
    if (m === null) this.fail();
    this.pos += m[0].length;
    return Number(m[0]);
  }
  private sourceName(): string {
    const n = this.number();
    const id = this.s.slice(this.pos, this.pos + n);
    if (id.length !== n) this.fail();
    this.pos += n;
    return id;
  }
  /** `<name>` of the function: an unqualified source name or `N ... E`; template arguments are not read. */
  functionName(): void {
    if (this.peek() === 'N') this.nested(false);
    else if (/\d/.test(this.peek())) this.sourceName();
    else this.fail();
    if (this.peek() === 'I') this.fail();
  }
  /** `N [qualifiers] <prefix>... E`: every prefix is a candidate; the last component too when it names a type. */
  private nested(isType: boolean): MangledType {
    this.pos++;
    while (this.peek() === 'K' || this.peek() === 'V' || this.peek() === 'r') this.pos++;
    let components = 0;
    while (this.peek() !== 'E') {
      if (this.peek() === 'S') this.substitution();
      else if (/\d/.test(this.peek())) this.sourceName();
      else this.fail();
      components++;
      if (this.peek() === 'I') this.fail();
      if (this.peek() !== 'E' || isType) this.substitutions.push({});
    }
    this.pos++;
    if (components === 0) this.fail();
    return {};
  }
  private substitution(): MangledType {
    this.pos++;
    const c = this.peek();
    if (c === '_') {
      this.pos++;
      return this.substitutions[0] ?? this.fail();
    }
    const m = /^[0-9A-Z]+_/.exec(this.s.slice(this.pos));
    if (m === null) this.fail();
    this.pos += m[0].length;
    const index = parseInt(m[0].slice(0, -1), 36) + 1;
    return this.substitutions[index] ?? this.fail();
  }
  private static readonly BUILTINS: Readonly<Record<string, (ctx: Context) => Type>> = {
    v: (ctx) => ctx.void,
    b: (ctx) => ctx.int(1),
    c: (ctx) => ctx.i8,
    a: (ctx) => ctx.i8,
    h: (ctx) => ctx.i8,
    s: (ctx) => ctx.int(16),
    t: (ctx) => ctx.int(16),
    i: (ctx) => ctx.i32,
    j: (ctx) => ctx.i32,
    l: (ctx) => ctx.i64,
    m: (ctx) => ctx.i64,
    x: (ctx) => ctx.i64,
    y: (ctx) => ctx.i64,
    f: (ctx) => ctx.float,
    d: (ctx) => ctx.double,
  };
  type(): MangledType {
    const c = this.peek();
    const builtin = ManglingReader.BUILTINS[c];
    if (builtin !== undefined) {
      this.pos++;
      return { llvm: builtin(this.ctx) };
    }
    switch (c) {
      case 'P': {
        this.pos++;
        let addressSpace = 0;
        // qualifiers of the pointee: each qualified form is a candidate
        const qualifiers: number[] = [];
        for (;;) {
          const q = this.peek();
          if (q === 'K' || q === 'V' || q === 'r') {
            this.pos++;
            qualifiers.push(0);
          } else if (this.s.startsWith('U3AS', this.pos)) {
            this.pos += 4;
            addressSpace = this.number();
            qualifiers.push(0);
          } else break;
        }
        const pointee = this.type();
        // the qualified pointee is one candidate, whatever its qualifiers (as clang mangles)
        if (qualifiers.length > 0) this.substitutions.push(pointee);
        const t = { pointer: { pointee, addressSpace } };
        this.substitutions.push(t);
        return t;
      }
      case 'K':
      case 'V':
      case 'r': {
        this.pos++;
        const inner = this.type();
        this.substitutions.push(inner);
        return inner;
      }
      case 'D': {
        const next = this.s[this.pos + 1];
        if (next === 'h') {
          this.pos += 2;
          return { llvm: this.ctx.half };
        }
        if (next === 'v') {
          this.pos += 2;
          const n = this.number();
          if (this.peek() !== '_') this.fail();
          this.pos++;
          const element = this.type();
          const t: MangledType = element.llvm !== undefined ? { llvm: this.ctx.vector(element.llvm, n) } : {};
          this.substitutions.push(t);
          return t;
        }
        return this.fail();
      }
      case 'N':
        return this.nested(true);
      case 'S':
        return this.substitution();
      default: {
        if (/\d/.test(c)) {
          this.sourceName();
          const t: MangledType = {};
          this.substitutions.push(t);
          return t;
        }
        return this.fail();
      }
    }
  }
}
