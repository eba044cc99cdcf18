/**
 * Module-wide printing state (struct types, globals, declarations, attribute groups, metadata)
 * and a builder that prints one function's instructions in either pointer mode.
 */
import { AttributeGroups, cString, MetadataTable } from './metadata.js';
import {
  ArrayType,
  globalName,
  i1,
  i64,
  i8,
  IrType,
  localName,
  operand,
  PointerType,
  StructType,
  VectorType,
  voidType,
  type PointerMode,
  type Value,
} from './ir-types.js';

export interface FunctionRef {
  readonly name: string;
  readonly returnType: IrType;
  readonly params: readonly IrType[];
  /** Attributes printed after each parameter's type at call sites and in declarations. */
  readonly paramAttrs?: readonly string[];
  readonly spirFunc: boolean;
  readonly varArgs?: boolean;
}

export const intrinsicAttributes = {
  lifetime: 'nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)',
  memcpy: 'nocallback nofree nounwind willreturn memory(argmem: readwrite)',
  pure: 'nocallback nofree nosync nounwind speculatable willreturn memory(none)',
  assume: 'nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: write)',
} as const;

export class ModuleEmitter {
  readonly md = new MetadataTable();
  readonly attrs = new AttributeGroups();
  readonly globals: string[] = [];
  readonly comdats: string[] = [];
  private readonly structs: StructType[] = [];
  private readonly structByName = new Map<string, StructType>();
  private readonly declared = new Set<string>();
  private pending: string[] = [];
  private readonly strings = new Map<string, Value>();
  private stringCount = 0;
  private readonly builtinGlobals = new Map<string, Value>();
  private readonly tbaaTags = new Map<string, number>();
  private tbaaChar: number | undefined;

  constructor(readonly mode: PointerMode) {}

  /** The named struct `name`, created (and queued for definition) on first use. */
  struct(name: string, fields: () => IrType[]): StructType {
    let s = this.structByName.get(name);
    if (s === undefined) {
      s = new StructType(name);
      this.structByName.set(name, s);
      // Fields first, so their types are defined before this one (as clang prints them).
      const f = fields();
      s.fields = f;
      this.structs.push(s);
    }
    return s;
  }

  hasStruct(name: string): boolean {
    return this.structByName.has(name);
  }

  structDefinitions(): string {
    let out = '';
    for (const s of this.structs) out += `${s.definition(this.mode)}\n`;
    return out;
  }

  /** Queues `declare ...` for `fn` the first time it is referenced. */
  declare(fn: FunctionRef, options: { linkage?: string; attributes?: string; metadata?: string } = {}): void {
    if (this.declared.has(fn.name)) return;
    this.declared.add(fn.name);
    const params = fn.params.map((p, i) => {
      const attr = fn.paramAttrs?.[i];
      return attr ? `${p.render(this.mode)} ${attr}` : p.render(this.mode);
    });
    if (fn.varArgs) params.push('...');
    const linkage = options.linkage ? `${options.linkage} ` : '';
    const cc = fn.spirFunc ? 'spir_func ' : '';
    const attrs = options.attributes ? ` ${this.attrs.ref(options.attributes)}` : '';
    const md = options.metadata ? ` ${options.metadata}` : '';
    this.pending.push(`declare ${linkage}${cc}${fn.returnType.render(this.mode)} ${globalName(fn.name)}(${params.join(', ')})${attrs}${md}\n`);
  }

  isDeclared(name: string): boolean {
    return this.declared.has(name);
  }

  /** Declarations queued since the last call (printed after the function that needed them). */
  takeDeclarations(): string {
    if (this.pending.length === 0) return '';
    const out = `\n${this.pending.join('\n')}`;
    this.pending = [];
    return out;
  }

  /** A private constant string in `addrSpace`, shared by every use of the same text. */
  string(text: string, addrSpace: number): Value {
    const key = `${addrSpace}\u0000${text}`;
    let v = this.strings.get(key);
    if (v === undefined) {
      const { literal, length } = cString(text);
      const name = this.stringCount === 0 ? '.str' : `.str.${this.stringCount}`;
      this.stringCount++;
      const type = i8.array(length);
      const as = addrSpace === 0 ? '' : ` addrspace(${addrSpace})`;
      this.globals.push(`${globalName(name)} = private unnamed_addr${as} constant ${type.render(this.mode)} c"${literal}", align 1`);
      v = { type: type.pointer(addrSpace), ref: globalName(name) };
      this.strings.set(key, v);
    }
    return v;
  }

  /** A constant `i8*` in `addrSpace` pointing at the first byte of `str` (a `[N x i8]` global). */
  charPointer(str: Value, addrSpace: number): Value {
    const strType = str.type as PointerType;
    let ref = str.ref;
    if (strType.addrSpace !== addrSpace) {
      ref = `addrspacecast (${operand(str, this.mode)} to ${strType.pointee.pointer(addrSpace).render(this.mode)})`;
    }
    if (this.mode === 'typed') {
      const arr = strType.pointee;
      ref = `getelementptr inbounds (${arr.render('typed')}, ${arr.pointer(addrSpace).render('typed')} ${ref}, i64 0, i64 0)`;
    }
    return { type: i8.pointer(addrSpace), ref };
  }

  /** `@__spirv_BuiltIn<Name>`: an external `<3 x i64>` in addrspace(1), as DPC++ declares it. */
  builtinVector(name: string): Value {
    let v = this.builtinGlobals.get(name);
    if (v === undefined) {
      const type = i64.vector(3);
      const gname = globalName(`__spirv_BuiltIn${name}`);
      this.globals.push(`${gname} = external dso_local local_unnamed_addr addrspace(1) constant ${type.render(this.mode)}, align 32`);
      v = { type: type.pointer(1), ref: gname };
      this.builtinGlobals.set(name, v);
    }
    return v;
  }

  /** `!tbaa !N` access tag for a scalar named as in clang's TBAA tree. */
  tbaa(scalarName: string): string {
    let tag = this.tbaaTags.get(scalarName);
    if (tag === undefined) {
      if (this.tbaaChar === undefined) {
        const root = this.md.node('!{!"Simple C++ TBAA"}');
        this.tbaaChar = this.md.node(`!{!"omnipotent char", !${root}, i64 0}`);
      }
      const type = this.md.node(`!{!"${scalarName}", !${this.tbaaChar}, i64 0}`);
      tag = this.md.node(`!{!${type}, !${type}, i64 0}`);
      this.tbaaTags.set(scalarName, tag);
    }
    return `!tbaa !${tag}`;
  }
}

export interface DebugScope {
  /** The function's DISubprogram. */
  readonly subprogram: number;
  readonly file: number;
  readonly line: number;
}

const nounwind = 'nounwind';

export class FunctionBuilder {
  private readonly out: string[] = [];
  private readonly allocas: string[] = [];
  private readonly used = new Set<string>();
  private readonly counters = new Map<string, number>();
  private nextNumber = 0;
  private statement = 0;
  block = 'entry';

  constructor(
    readonly m: ModuleEmitter,
    readonly debug: DebugScope | undefined,
  ) {
    this.used.add('entry');
  }

  get mode(): PointerMode {
    return this.m.mode;
  }

  /** Marks an argument name as taken. */
  reserve(name: string): void {
    this.used.add(name);
  }

  /** A name not used yet in this function, clang style: `add`, `add1`, `add2`, ... */
  fresh(base: string): string {
    if (!this.used.has(base)) {
      this.used.add(base);
      return base;
    }
    let n = this.counters.get(base) ?? 1;
    while (this.used.has(`${base}${n}`)) n++;
    this.counters.set(base, n + 1);
    const name = `${base}${n}`;
    this.used.add(name);
    return name;
  }

  private result(base: string | null): string {
    return base === null ? `%${this.nextNumber++}` : localName(this.fresh(base));
  }

  private location(): number {
    const d = this.debug!;
    const line = d.line + 1 + (this.statement >> 1);
    const column = 3 + (this.statement % 5) * 4;
    this.statement++;
    return this.m.md.node(`!DILocation(line: ${line}, column: ${column}, scope: !${d.subprogram})`);
  }

  private emit(text: string, withDebug = true): void {
    this.out.push(withDebug && this.debug ? `  ${text}, !dbg !${this.location()}` : `  ${text}`);
  }

  label(name: string): void {
    this.out.push('', `${name}:`);
    this.block = name;
  }

  /** A line reserved now and written later (a phi whose incoming values are not known yet). */
  placeholder(): number {
    this.out.push('');
    return this.out.length - 1;
  }

  fill(index: number, text: string): void {
    this.out[index] = `  ${text}`;
  }

  op(v: Value): string {
    return operand(v, this.mode);
  }

  ty(t: IrType): string {
    return t.render(this.mode);
  }

  // --- memory ---------------------------------------------------------------------------------

  /** An alloca, placed at the top of the entry block like clang does. */
  alloca(type: IrType, base: string, debugType?: number): Value {
    const name = localName(this.fresh(base));
    this.allocas.push(`  ${name} = alloca ${this.ty(type)}, align ${type.align}`);
    const v = { type: type.pointer(0), ref: name };
    if (this.debug && debugType !== undefined) {
      const d = this.debug;
      const variable = this.m.md.node(
        `!DILocalVariable(name: "${base}", scope: !${d.subprogram}, file: !${d.file}, line: ${d.line + 1}, type: !${debugType})`,
      );
      const fn: FunctionRef = { name: 'llvm.dbg.declare', returnType: voidType, params: [], spirFunc: false };
      this.m.declare({ ...fn, params: [metadataType, metadataType, metadataType] }, { attributes: intrinsicAttributes.pure });
      this.emit(`call void @llvm.dbg.declare(metadata ${this.op(v)}, metadata !${variable}, metadata !DIExpression())`);
    }
    return v;
  }

  load(ptr: Value, options: { align?: number; tbaa?: string; name?: string | null } = {}): Value {
    const pointee = pointeeOf(ptr);
    const r = this.result(options.name === undefined ? null : options.name);
    const tbaa = options.tbaa ? `, ${options.tbaa}` : '';
    this.emit(`${r} = load ${this.ty(pointee)}, ${this.op(ptr)}, align ${options.align ?? pointee.align}${tbaa}`);
    return { type: pointee, ref: r };
  }

  store(value: Value, ptr: Value, options: { align?: number; tbaa?: string } = {}): void {
    const pointee = pointeeOf(ptr);
    if (this.mode === 'typed' && pointee !== value.type) {
      throw new Error(`internal: store of ${this.ty(value.type)} through ${this.ty(ptr.type)}`);
    }
    const tbaa = options.tbaa ? `, ${options.tbaa}` : '';
    this.emit(`store ${this.op(value)}, ${this.op(ptr)}, align ${options.align ?? value.type.align}${tbaa}`);
  }

  /** `getelementptr inbounds`; struct indices are numbers, the others numbers or i64 values. */
  gep(source: IrType, base: Value, indices: readonly (number | Value)[], name = 'arrayidx'): Value {
    const baseType = base.type;
    if (!(baseType instanceof PointerType)) throw new Error('internal: gep on a non-pointer');
    if (this.mode === 'typed' && baseType.pointee !== source) {
      throw new Error(`internal: gep source ${this.ty(source)} over ${this.ty(baseType)}`);
    }
    let current: IrType = source;
    const parts: string[] = [];
    indices.forEach((index, position) => {
      if (position > 0) {
        if (current instanceof StructType) {
          if (typeof index !== 'number') throw new Error('internal: struct gep index must be constant');
          const field = current.fields[index];
          if (field === undefined) throw new Error(`internal: no field ${index} in ${current.name}`);
          parts.push(`i32 ${index}`);
          current = field;
          return;
        }
        if (current instanceof ArrayType || current instanceof VectorType) current = current.element;
        else throw new Error(`internal: gep into ${this.ty(current)}`);
      }
      parts.push(typeof index === 'number' ? `i64 ${index}` : this.op(index));
    });
    const r = this.result(name);
    this.emit(`${r} = getelementptr inbounds ${this.ty(source)}, ${this.op(base)}, ${parts.join(', ')}`);
    return { type: current.pointer(baseType.addrSpace), ref: r };
  }

  /** The same pointer in another address space (`addrspacecast`), or itself. */
  toAddrSpace(v: Value, addrSpace: number, name?: string): Value {
    const t = v.type as PointerType;
    if (t.addrSpace === addrSpace) return v;
    return this.cast('addrspacecast', v, t.pointee.pointer(addrSpace), name ?? `${stripSigil(v.ref)}.ascast`);
  }

  /** The same pointer seen as pointing to `pointee`: a bitcast with typed pointers, nothing otherwise. */
  toPointee(v: Value, pointee: IrType, name = 'ptr.cast'): Value {
    const t = v.type as PointerType;
    if (t.pointee === pointee) return v;
    const target = pointee.pointer(t.addrSpace);
    if (this.mode === 'opaque') return { type: target, ref: v.ref };
    return this.cast('bitcast', v, target, name);
  }

  cast(op: string, v: Value, to: IrType, name: string): Value {
    const r = this.result(name);
    this.emit(`${r} = ${op} ${this.op(v)} to ${this.ty(to)}`);
    return { type: to, ref: r };
  }

  // --- arithmetic -----------------------------------------------------------------------------

  binop(op: string, a: Value, b: Value, name: string): Value {
    const r = this.result(name);
    this.emit(`${r} = ${op} ${this.op(a)}, ${b.ref}`);
    return { type: a.type, ref: r };
  }

  cmp(predicate: string, a: Value, b: Value, name = 'cmp'): Value {
    const r = this.result(name);
    this.emit(`${r} = ${predicate} ${this.op(a)}, ${b.ref}`);
    return { type: i1, ref: r };
  }

  select(condition: Value, a: Value, b: Value, name = 'cond'): Value {
    const r = this.result(name);
    this.emit(`${r} = select ${this.op(condition)}, ${this.op(a)}, ${this.op(b)}`);
    return { type: a.type, ref: r };
  }

  phiText(name: string, type: IrType, incoming: readonly (readonly [Value, string])[]): string {
    return `${name} = phi ${this.ty(type)} ${incoming.map(([v, block]) => `[ ${v.ref}, ${localName(block)} ]`).join(', ')}`;
  }

  phi(type: IrType, incoming: readonly (readonly [Value, string])[], name: string): Value {
    const r = localName(this.fresh(name));
    this.emit(this.phiText(r, type, incoming), false);
    return { type, ref: r };
  }

  extractElement(vector: Value, index: number, name: string): Value {
    const t = vector.type as VectorType;
    const r = this.result(name);
    this.emit(`${r} = extractelement ${this.op(vector)}, i64 ${index}`);
    return { type: t.element, ref: r };
  }

  insertElement(vector: Value, element: Value, index: number, name: string): Value {
    const r = this.result(name);
    this.emit(`${r} = insertelement ${this.op(vector)}, ${this.op(element)}, i64 ${index}`);
    return { type: vector.type, ref: r };
  }

  shuffleSplat(vector: Value, name: string): Value {
    const t = vector.type as VectorType;
    const r = this.result(name);
    this.emit(`${r} = shufflevector ${this.op(vector)}, ${this.ty(t)} poison, <${t.count} x i32> zeroinitializer`);
    return { type: t, ref: r };
  }

  // --- calls ----------------------------------------------------------------------------------

  /**
   * A call; pointer arguments are cast to the parameter's address space and (typed mode)
   * pointee first. Returns the result, or undefined for void.
   */
  call(fn: FunctionRef, args: readonly Value[], options: { attributes?: string; metadata?: string; name?: string } = {}): Value | undefined {
    const parts: string[] = [];
    args.forEach((arg, i) => {
      const param = fn.params[i];
      let a = arg;
      if (param !== undefined && param !== arg.type) {
        if (param instanceof PointerType && arg.type instanceof PointerType) {
          a = this.toAddrSpace(a, param.addrSpace);
          a = this.toPointee(a, param.pointee);
        } else {
          throw new Error(`internal: argument ${i} of ${fn.name}: ${this.ty(arg.type)} for ${this.ty(param)}`);
        }
      }
      const attr = fn.paramAttrs?.[i];
      parts.push(attr ? `${this.ty(a.type)} ${attr} ${a.ref}` : this.op(a));
    });
    const cc = fn.spirFunc ? 'spir_func ' : '';
    const callee = fn.varArgs
      ? `${this.ty(fn.returnType)} (${[...fn.params.map((p) => this.ty(p)), '...'].join(', ')})`
      : this.ty(fn.returnType);
    const attrs = options.attributes ? ` ${this.m.attrs.ref(options.attributes)}` : '';
    const md = options.metadata ? `, ${options.metadata}` : '';
    const text = `call ${cc}${callee} ${globalName(fn.name)}(${parts.join(', ')})${attrs}${md}`;
    if (fn.returnType === voidType) {
      this.emit(text);
      return undefined;
    }
    const r = this.result(options.name ?? 'call');
    this.emit(`${r} = ${text}`);
    return { type: fn.returnType, ref: r };
  }

  /** `llvm.lifetime.start/end` on an alloca. */
  lifetime(which: 'start' | 'end', alloca: Value, size: number): void {
    const ptr = this.toPointee(alloca, i8);
    const fn: FunctionRef = {
      name: `llvm.lifetime.${which}.${this.mode === 'opaque' ? 'p0' : 'p0i8'}`,
      returnType: voidType,
      params: [i64, i8.pointer(0)],
      paramAttrs: ['immarg', 'nocapture'],
      spirFunc: false,
    };
    this.m.declare(fn, { attributes: intrinsicAttributes.lifetime });
    this.call({ ...fn, paramAttrs: undefined }, [{ type: i64, ref: String(size) }, ptr], { attributes: nounwind });
  }

  /** `llvm.memcpy` between any two address spaces. */
  memcpy(destination: Value, source: Value, size: number, align: number): void {
    const d = (destination.type as PointerType).addrSpace;
    const s = (source.type as PointerType).addrSpace;
    const suffix = this.mode === 'opaque' ? `p${d}.p${s}` : `p${d}i8.p${s}i8`;
    const fn: FunctionRef = {
      name: `llvm.memcpy.${suffix}.i64`,
      returnType: voidType,
      params: [i8.pointer(d), i8.pointer(s), i64, i1],
      paramAttrs: ['noalias nocapture writeonly', 'noalias nocapture readonly', '', 'immarg'],
      spirFunc: false,
    };
    this.m.declare(fn, { attributes: intrinsicAttributes.memcpy });
    const dst = this.toPointee(destination, i8);
    const src = this.toPointee(source, i8);
    this.emit(`call void @${fn.name}(${this.ty(dst.type)} align ${align} ${dst.ref}, ${this.ty(src.type)} align ${align} ${src.ref}, i64 ${size}, i1 false) ${this.m.attrs.ref(nounwind)}`);
  }

  // --- control flow ---------------------------------------------------------------------------

  br(target: string): void {
    this.emit(`br label ${localName(target)}`);
  }

  condBr(condition: Value, ifTrue: string, ifFalse: string): void {
    this.emit(`br ${this.op(condition)}, label ${localName(ifTrue)}, label ${localName(ifFalse)}`);
  }

  switchOn(value: Value, defaultLabel: string, cases: readonly (readonly [number, string])[]): void {
    const lines = cases.map(([v, l]) => `    ${this.ty(value.type)} ${v}, label ${localName(l)}`).join('\n');
    // The location goes on the closing bracket line, where LLVM accepts it.
    const text = `switch ${this.op(value)}, label ${localName(defaultLabel)} [\n${lines}\n  ]`;
    this.emit(text);
  }

  ret(value?: Value): void {
    this.emit(value === undefined ? 'ret void' : `ret ${this.op(value)}`);
  }

  /** The function text: `header {`, allocas, the body, `}`. */
  finish(header: string): string {
    const allocas = this.allocas.length > 0 ? `${this.allocas.join('\n')}\n` : '';
    return `${header} {\nentry:\n${allocas}${this.out.join('\n')}\n}\n`;
  }
}

/** Stands for `metadata` parameters of `llvm.dbg.declare`. */
const metadataType = new (class extends IrType {
  readonly size = 0;
  readonly align = 1;
  protected compute(): string {
    return 'metadata';
  }
})();

function pointeeOf(ptr: Value): IrType {
  if (!(ptr.type instanceof PointerType)) throw new Error('internal: memory access through a non-pointer');
  return ptr.type.pointee;
}

function stripSigil(ref: string): string {
  const raw = ref.startsWith('%"') ? ref.slice(2, -1) : ref.startsWith('%') ? ref.slice(1) : 'tmp';
  return /^\d/.test(raw) ? 'tmp' : raw.replace(/\d+$/, '');
}
