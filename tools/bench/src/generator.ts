/**
 * Prints a planned module as LLVM 16-compatible textual IR shaped like DPC++ device code after
 * `llvm-link` of several translation units.
 */
import { syclAspects } from './aspects.js';
import { convergentCall, emitSegments, indexReach, localMemory, convert, loadValue, storeValue, valuePointer, type BodyContext, type BodyState } from './bodies.js';
import { FunctionBuilder, intrinsicAttributes, ModuleEmitter, type DebugScope, type FunctionRef } from './emitter.js';
import { ArrayType, floatType, globalName, i1, i32, i64, localName, StructType, voidType, type IrType, type Value } from './ir-types.js';
import { kindInfo, smallConstant } from './kinds.js';
import { diString, mdString } from './metadata.js';
import { resolveGeneratorOptions, type GeneratorOptions } from './options.js';
import { featureStructs, planModule, type ModulePlan, type PlannedFunction } from './plan.js';
import { Prng } from './prng.js';
import { TypeFactory } from './types.js';

/** Bumped whenever the output for given options changes (it keys the benchmark cache). */
export const generatorVersion = 3;

export const spirDataLayout = 'e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64';

const commonAttributes = '"frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8"';
const helperAttributes = `convergent mustprogress norecurse nounwind ${commonAttributes}`;

export interface ModuleStats {
  readonly bytes: number;
  readonly kernels: number;
  /** Function definitions, kernels included. */
  readonly definitions: number;
  readonly declarations: number;
  readonly options: GeneratorOptions;
}

export interface GeneratedModule {
  readonly text: string;
  readonly stats: ModuleStats;
}

/** Something the module text is written to, piece by piece. */
export interface TextSink {
  write(chunk: string): void;
}

class ModulePrinter {
  readonly m: ModuleEmitter;
  readonly types: TypeFactory;
  private readonly options: GeneratorOptions;
  private readonly functions: readonly PlannedFunction[];
  private readonly refs = new Map<number, FunctionRef>();
  private readonly tables = new Map<number, Value>();
  private readonly counters = new Map<number, Value>();
  private readonly locals = new Map<number, Value>();
  private readonly usedFeatureTypes = new Set<string>();
  private readonly compileUnits = new Map<number, { unit: number; file: number; nextLine: number }>();
  private readonly moduleFlags: number[] = [];
  private readonly perTu: { spir: number; source: number; ident: number };
  private readonly aspectNodes: number[];
  private readonly ctx: BodyContext;
  private readonly kernelOfOperator = new Map<number, PlannedFunction>();
  private readonly reaches = new Map<number, number>();
  private declarationCount = 0;

  constructor(private readonly plan: ModulePlan) {
    this.options = plan.options;
    this.functions = plan.functions;
    this.m = new ModuleEmitter(this.options.pointers);
    this.types = new TypeFactory(this.m);
    const md = this.m.md;
    // Module-level nodes first, so they get the small numbers clang gives them.
    this.moduleFlags.push(md.node('!{i32 1, !"wchar_size", i32 4}'), md.node('!{i32 7, !"frame-pointer", i32 2}'));
    if (this.options.debugInfo) {
      this.moduleFlags.push(md.node('!{i32 7, !"Dwarf Version", i32 4}'), md.node('!{i32 2, !"Debug Info Version", i32 3}'));
    }
    this.perTu = {
      spir: md.node('!{i32 1, i32 2}'),
      source: md.node('!{i32 4, i32 100000}'),
      ident: md.node(`!{${mdString(`clang version 19.0.0git (syclkit bench generator, seed ${this.options.seed})`)}}`),
    };
    for (const f of this.functions) if (f.kernel?.operator !== undefined) this.kernelOfOperator.set(f.kernel.operator, f);
    this.aspectNodes = syclAspects.map(([name, value]) => md.node(`!{${mdString(name)}, i32 ${value}}`));
    this.ctx = {
      m: this.m,
      types: this.types,
      functions: this.functions,
      refOf: (f) => this.refOf(f),
      tuTable: (tu) => this.tuTable(tu),
      tuCounter: (tu) => this.tuCounter(tu),
      localArray: (f, element) => this.localArray(f, element),
      debugType: (t) => this.debugType(t),
      reach: (f) => indexReach(f, this.functions, (g) => this.types.storage(g.kind), this.reaches),
    };
  }

  /** The call signature of a planned function. */
  refOf(f: PlannedFunction): FunctionRef {
    let ref = this.refs.get(f.id);
    if (ref !== undefined) return ref;
    const k = kindInfo[f.kind];
    switch (f.role) {
      case 'kernel':
        ref = {
          name: f.name,
          returnType: voidType,
          params: this.kernelParams(f).map((p) => p.type),
          paramAttrs: this.kernelParams(f).map((p) => p.attrs),
          spirFunc: false,
        };
        break;
      case 'operator': {
        const kernel = this.kernelOfOperator.get(f.id)!;
        const lambda = this.types.lambda(kernel);
        ref = {
          name: f.name,
          returnType: voidType,
          params: [lambda.pointer(4)],
          paramAttrs: [`noundef align 8 dereferenceable_or_null(${lambda.size})`],
          spirFunc: true,
        };
        break;
      }
      case 'init': {
        const accessor = this.types.accessor(f.kind);
        const range = this.types.range();
        const id = this.types.id();
        ref = {
          name: f.name,
          returnType: voidType,
          params: [accessor.pointer(4), this.types.storage(f.kind).pointer(1), range.pointer(0), range.pointer(0), id.pointer(0)],
          paramAttrs: [
            `noundef align 8 dereferenceable_or_null(${accessor.size})`,
            'noundef',
            `noundef byval(${range.render(this.m.mode)}) align 8`,
            `noundef byval(${range.render(this.m.mode)}) align 8`,
            `noundef byval(${id.render(this.m.mode)}) align 8`,
          ],
          spirFunc: true,
        };
        break;
      }
      default:
        ref =
          f.family === 'data'
            ? {
                name: f.name,
                returnType: f.returnsValue ? k.value : voidType,
                params: [this.types.storage(f.kind).pointer(4), i64, k.value],
                paramAttrs: ['noundef', 'noundef', 'noundef'],
                spirFunc: true,
              }
            : { name: f.name, returnType: k.value, params: [k.value, k.value], paramAttrs: ['noundef', 'noundef'], spirFunc: true };
    }
    this.refs.set(f.id, ref);
    return ref;
  }

  private kernelParams(f: PlannedFunction): { name: string; type: IrType; attrs: string; isPointer: boolean }[] {
    const k = f.kernel!;
    const range = this.types.range();
    const id = this.types.id();
    const mode = this.m.mode;
    const params: { name: string; type: IrType; attrs: string; isPointer: boolean }[] = [];
    k.accessors.forEach((kind, a) => {
      const base = `_arg_${a === 0 ? 'in' : 'out'}`;
      const storage = this.types.storage(kind);
      params.push({ name: base, type: storage.pointer(1), attrs: `noundef align ${storage.align}`, isPointer: true });
      params.push({ name: `${base}1`, type: range.pointer(0), attrs: `noundef byval(${range.render(mode)}) align 8`, isPointer: false });
      params.push({ name: `${base}2`, type: range.pointer(0), attrs: `noundef byval(${range.render(mode)}) align 8`, isPointer: false });
      params.push({ name: `${base}3`, type: id.pointer(0), attrs: `noundef byval(${id.render(mode)}) align 8`, isPointer: false });
    });
    if (k.capturesCount) params.push({ name: '_arg_n', type: i32, attrs: 'noundef', isPointer: false });
    if (k.capturesScale) params.push({ name: '_arg_scale', type: kindInfo[f.kind].value, attrs: 'noundef', isPointer: false });
    return params;
  }

  private tuTable(tu: number): Value {
    let v = this.tables.get(tu);
    if (v === undefined) {
      const type = floatType.array(16);
      // llvm-link renames clashing internal globals of later TUs with `.N` suffixes.
      const name = globalName(this.tables.size === 0 ? '_ZL3lut' : `_ZL3lut.${this.tables.size}`);
      const values = Array.from({ length: 16 }, (_, i) => `float ${smallConstant('float', (i * 7 + tu) % 10)}`).join(', ');
      this.m.globals.push(`${name} = internal unnamed_addr addrspace(1) constant ${type.render(this.m.mode)} [${values}], align 4`);
      v = { type: type.pointer(1), ref: name };
      this.tables.set(tu, v);
    }
    return v;
  }

  private tuCounter(tu: number): Value {
    let v = this.counters.get(tu);
    if (v === undefined) {
      const type = this.types.deviceGlobal();
      const mangled = `_ZN${`tu${tu}`.length}tu${tu}7counterE`;
      const attrs = this.m.attrs.ref(`"sycl-device-global-size"="4" "sycl-unique-id"="${(0x5eed0000 + tu).toString(16)}____${mangled}"`);
      this.m.globals.push(`${globalName(mangled)} = dso_local addrspace(1) global ${type.render(this.m.mode)} zeroinitializer, align 4 ${attrs}`);
      v = { type: type.pointer(1), ref: globalName(mangled) };
      this.counters.set(tu, v);
    }
    return v;
  }

  private localArray(f: PlannedFunction, element: IrType): Value {
    let v = this.locals.get(f.id);
    if (v === undefined) {
      const type = element.array(64);
      // A function-local static in operator(): _ZZ<encoding of operator()>E7scratch.
      const name = globalName(`_ZZ${f.name.slice(2)}E7scratch`);
      this.m.globals.push(`${name} = internal addrspace(3) global ${type.render(this.m.mode)} undef, align ${element.align}`);
      v = { type: type.pointer(3), ref: name };
      this.locals.set(f.id, v);
    }
    return v;
  }

  private debugType(t: IrType): number | undefined {
    if (!this.options.debugInfo) return undefined;
    const md = this.m.md;
    if (t instanceof ArrayType) {
      const element = this.debugType(t.element)!;
      const range = md.tuple([`!${md.node(`!DISubrange(count: ${t.count})`)}`]);
      return md.node(`!DICompositeType(tag: DW_TAG_array_type, baseType: !${element}, size: ${t.size * 8}, elements: !${range})`);
    }
    if (t instanceof StructType) {
      return md.node(`!DICompositeType(tag: DW_TAG_structure_type, name: ${diString(t.name)}, size: ${t.size * 8}, flags: DIFlagFwdDecl)`);
    }
    const kind = Object.values(kindInfo).find((k) => k.value === t);
    const name = kind?.tbaaName ?? 'int';
    const encoding = kind?.isFloat ? 'DW_ATE_float' : 'DW_ATE_signed';
    return md.node(`!DIBasicType(name: ${diString(name)}, size: ${t.size * 8}, encoding: ${encoding})`);
  }

  private debugScope(f: PlannedFunction): DebugScope | undefined {
    if (!this.options.debugInfo) return undefined;
    const md = this.m.md;
    let cu = this.compileUnits.get(f.homeTu);
    if (cu === undefined) {
      const file = md.node(`!DIFile(filename: "tu${f.homeTu}.cpp", directory: "/work/app")`);
      const unit = md.distinct(
        `!DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !${file}, producer: "clang version 19.0.0git", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)`,
      );
      cu = { unit, file, nextLine: 10 };
      this.compileUnits.set(f.homeTu, cu);
    }
    const line = cu.nextLine;
    cu.nextLine += 60;
    const type = md.node(`!DISubroutineType(types: !${md.node('!{null}')})`);
    const local = f.role === 'operator' || f.role === 'helper';
    const flags = `${local ? 'DISPFlagLocalToUnit | ' : ''}DISPFlagDefinition | DISPFlagOptimized`;
    const subprogram = md.distinct(
      `!DISubprogram(name: ${diString(f.displayName)}, linkageName: ${diString(f.name)}, scope: !${cu.file}, file: !${cu.file}, line: ${line}, type: !${type}, scopeLine: ${line}, flags: DIFlagPrototyped, spFlags: ${flags}, unit: !${cu.unit}, retainedNodes: !${md.node('!{}')})`,
    );
    return { subprogram, file: cu.file, line };
  }

  private comdat(name: string): void {
    const n = /^[-a-zA-Z$._][-a-zA-Z$._0-9]*$/.test(name) ? `$${name}` : `$"${name}"`;
    this.m.comdats.push(`${n} = comdat any`);
  }

  private header(f: PlannedFunction, dbg: DebugScope | undefined, extraMetadata: string[] = []): string {
    const ref = this.refOf(f);
    const mode = this.m.mode;
    const names = this.parameterNames(f);
    const params = ref.params.map((p, i) => {
      const attr = ref.paramAttrs?.[i];
      return `${p.render(mode)}${attr ? ` ${attr}` : ''} ${localName(names[i]!)}`;
    });
    const md = [...extraMetadata];
    if (f.usedAspect !== undefined) md.push(`!sycl_used_aspects !${this.m.md.i32s([f.usedAspect])}`);
    if (dbg !== undefined) md.push(`!dbg !${dbg.subprogram}`);
    const mdText = md.length > 0 ? ` ${md.join(' ')}` : '';
    const ret = ref.returnType.render(mode);
    const sig = `${globalName(f.name)}(${params.join(', ')})`;
    switch (f.role) {
      case 'kernel':
        return `define weak_odr dso_local spir_kernel void ${sig} local_unnamed_addr ${this.m.attrs.ref(kernelAttributes(f.tu))} comdat${mdText}`;
      case 'operator':
        return `define internal spir_func void ${sig} unnamed_addr ${this.m.attrs.ref(helperAttributes)} align 2${mdText}`;
      case 'init':
        return `define linkonce_odr dso_local spir_func void ${sig} local_unnamed_addr ${this.m.attrs.ref(helperAttributes)} comdat align 2${mdText}`;
      case 'helper':
        return `define internal spir_func ${ret} ${sig} unnamed_addr ${this.m.attrs.ref(helperAttributes)}${mdText}`;
      case 'external':
        return `define dso_local spir_func ${ret} ${sig} local_unnamed_addr ${this.m.attrs.ref(`${helperAttributes} "sycl-module-id"="tu${f.tu}.cpp"`)}${mdText}`;
      case 'shared':
        return `define linkonce_odr dso_local spir_func ${ret} ${sig} local_unnamed_addr ${this.m.attrs.ref(helperAttributes)} comdat${mdText}`;
    }
  }

  private parameterNames(f: PlannedFunction): string[] {
    switch (f.role) {
      case 'kernel':
        return this.kernelParams(f).map((p) => p.name);
      case 'operator':
        return ['this'];
      case 'init':
        return ['this', 'Ptr', 'AccessRange', 'MemRange', 'Offset'];
      default:
        return f.family === 'data' ? ['data', 'i', 'x'] : ['a', 'b'];
    }
  }

  private builder(f: PlannedFunction, dbg: DebugScope | undefined): FunctionBuilder {
    const fb = new FunctionBuilder(this.m, dbg);
    for (const n of this.parameterNames(f)) fb.reserve(n);
    return fb;
  }

  private param(f: PlannedFunction, index: number): Value {
    return { type: this.refOf(f).params[index]!, ref: localName(this.parameterNames(f)[index]!) };
  }

  printFunction(f: PlannedFunction): string {
    switch (f.role) {
      case 'kernel':
        return this.printKernel(f);
      case 'operator':
        return this.printOperator(f);
      case 'init':
        return this.printInit(f);
      default:
        return this.printHelper(f);
    }
  }

  private printKernel(f: PlannedFunction): string {
    const k = f.kernel!;
    const md = this.m.md;
    const params = this.kernelParams(f);
    const dbg = this.debugScope(f);
    const fb = this.builder(f, dbg);
    const rng = new Prng(this.options.seed, 0x10000 + f.id);
    this.comdat(f.name);
    if (k.operator !== undefined) {
      const lambda = this.types.lambda(f);
      const closure = fb.alloca(lambda, '__SYCLKernel', this.debugType(lambda));
      fb.lifetime('start', closure, lambda.size);
      const generic = fb.toAddrSpace(closure, 4, '__SYCLKernel.ascast');
      let p = 0;
      k.accessors.forEach((kind, a) => {
        const field = fb.gep(lambda, generic, [0, a], 'acc');
        const init = k.inits[a];
        const [ptr, accessRange, memRange, offset] = [0, 1, 2, 3].map((j) => ({ type: params[p + j]!.type, ref: localName(params[p + j]!.name) }));
        p += 4;
        if (init !== undefined) {
          fb.call(this.refOf(this.functions[init]!), [field, ptr!, accessRange!, memRange!, offset!], { attributes: convergentCall });
        } else {
          // No __init utility in this module: store the pointer the way the inlined __init does.
          const accessor = this.types.accessor(kind);
          const slot = fb.gep(accessor, field, [0, 1, 0], 'MData');
          fb.store(ptr!, slot, { tbaa: this.m.tbaa('any pointer') });
        }
      });
      let field = k.accessors.length;
      for (const captured of params.slice(p)) {
        const slot = fb.gep(lambda, generic, [0, field++], captured.name.slice(5));
        fb.store({ type: captured.type, ref: localName(captured.name) }, slot, { tbaa: this.m.tbaa(captured.type === i32 ? 'int' : kindInfo[f.kind].tbaaName) });
      }
      fb.call(this.refOf(this.functions[k.operator]!), [generic], { attributes: convergentCall });
      fb.lifetime('end', closure, lambda.size);
    } else {
      // The lambda was inlined: read the element, scale it, write it back.
      const gid = fb.extractElement(fb.load(this.m.builtinVector('GlobalInvocationId'), { align: 32 }), 0, 'gid');
      const kind = kindInfo[f.kind];
      const storage = this.types.storage(f.kind);
      const base = { type: params[0]!.type, ref: localName(params[0]!.name) };
      const offsetArg = { type: params[3]!.type, ref: localName(params[3]!.name) };
      const offset = fb.load(fb.gep(this.types.id(), offsetArg, [0, 0, 0, 0], 'offset'), { tbaa: this.m.tbaa('long') });
      const shifted = fb.gep(storage, base, [offset], 'add.ptr');
      const p = valuePointer(fb, storage, shifted, gid);
      const v = fb.load(p, { tbaa: this.m.tbaa(kind.tbaaName) });
      const scale = k.capturesScale
        ? { type: kind.value, ref: localName('_arg_scale') }
        : { type: kind.value, ref: smallConstant(f.kind, rng.int(2, 9)) };
      const r = fb.binop(kind.isFloat ? 'fmul' : 'mul nsw', v, scale, 'mul');
      fb.store(r, p, { tbaa: this.m.tbaa(kind.tbaaName) });
    }
    fb.ret();

    const extra = [`!srcloc !${md.i32s([1000 + rng.int(0, 90000)])}`];
    extra.push(`!kernel_arg_buffer_location !${md.i32s(params.map(() => -1))}`);
    extra.push(`!kernel_arg_runtime_aligned !${md.tuple(params.map((p) => `i1 ${p.isPointer}`))}`);
    extra.push(`!kernel_arg_exclusive_ptr !${md.tuple(params.map(() => 'i1 false'))}`);
    if (k.subGroupSize !== undefined) extra.push(`!intel_reqd_sub_group_size !${md.i32s([k.subGroupSize])}`);
    if (k.workGroupSize !== undefined) extra.push(`!reqd_work_group_size !${md.i32s(k.workGroupSize)}`);
    if (k.declaredAspects !== undefined) extra.push(`!sycl_declared_aspects !${md.i32s(k.declaredAspects)}`);
    extra.push(`!sycl_kernel_omit_args !${md.tuple(params.map(() => 'i1 false'))}`);
    this.noteFeatureTypes();
    return fb.finish(this.header(f, dbg, extra));
  }

  private printOperator(f: PlannedFunction): string {
    const kernel = this.kernelOfOperator.get(f.id)!;
    const k = kernel.kernel!;
    const kind = kindInfo[f.kind];
    const dbg = this.debugScope(f);
    const fb = this.builder(f, dbg);
    const rng = new Prng(this.options.seed, 0x10000 + f.id);
    const lambda = this.types.lambda(kernel);
    const self = this.param(f, 0);
    const storage = this.types.storage(f.kind);

    const gid = fb.extractElement(fb.load(this.m.builtinVector('GlobalInvocationId'), { align: 32 }), 0, 'gid');
    const inRange = fb.cmp('icmp ult', gid, { type: i64, ref: '2147483648' }, 'cmp.i');
    const assume: FunctionRef = { name: 'llvm.assume', returnType: voidType, params: [i1], paramAttrs: ['noundef'], spirFunc: false };
    this.m.declare(assume, { attributes: intrinsicAttributes.assume });
    fb.call(assume, [inRange]);
    const slot = fb.gep(lambda, self, [0, 0, 1, 0], 'MData');
    const base = fb.load(slot, { tbaa: this.m.tbaa('any pointer') });
    const offset = fb.load(fb.gep(lambda, self, [0, 0, 0, 0, 0, 0, 0], 'offset'), { tbaa: this.m.tbaa('long') });
    const shifted = fb.gep(storage, base, [offset], 'add.ptr');
    const element = fb.gep(storage, shifted, [gid], 'arrayidx');
    const data = fb.toAddrSpace(element, 4, 'arrayidx.ascast');

    let x: Value;
    if (k.capturesCount) {
      const n = fb.load(fb.gep(lambda, self, [0, k.accessors.length], 'n'), { tbaa: this.m.tbaa('int') });
      x = convert(fb, n, kind);
    } else if (k.capturesScale) {
      x = fb.load(fb.gep(lambda, self, [0, k.accessors.length], 'scale'), { tbaa: this.m.tbaa(kind.tbaaName) });
    } else {
      x = { type: kind.value, ref: smallConstant(f.kind, rng.int(1, 9)) };
    }
    const s: BodyState = { fb, ctx: this.ctx, f, rng, k: kind, storage, data, idx: gid, x, cur: x };
    s.cur = loadValue(s, 0);
    if (k.usesLocalMemory) localMemory(s);
    emitSegments(s, this.options.segments);
    storeValue(s, s.cur, 0);
    fb.ret();
    this.noteFeatureTypes();
    return fb.finish(this.header(f, dbg));
  }

  private printInit(f: PlannedFunction): string {
    const dbg = this.debugScope(f);
    const fb = this.builder(f, dbg);
    this.comdat(f.name);
    const accessor = this.types.accessor(f.kind);
    const self = this.param(f, 0);
    const slot = fb.gep(accessor, self, [0, 1, 0], 'MData');
    fb.store(this.param(f, 1), slot, { tbaa: this.m.tbaa('any pointer') });
    ['Offset', 'AccessRange', 'MemRange'].forEach((name, i) => {
      const field = fb.gep(accessor, self, [0, 0, i], name === 'Offset' ? 'MOffset' : name === 'AccessRange' ? 'MAccessRange' : 'MMemRange');
      fb.memcpy(field, this.param(f, [4, 2, 3][i]!), 8, 8);
    });
    fb.ret();
    return fb.finish(this.header(f, dbg));
  }

  private printHelper(f: PlannedFunction): string {
    const kind = kindInfo[f.kind];
    const dbg = this.debugScope(f);
    const fb = this.builder(f, dbg);
    const rng = new Prng(this.options.seed, 0x10000 + f.id);
    if (f.role === 'shared') this.comdat(f.name);
    const storage = this.types.storage(f.kind);
    let s: BodyState;
    if (f.family === 'data') {
      const x = this.param(f, 2);
      s = { fb, ctx: this.ctx, f, rng, k: kind, storage, data: this.param(f, 0), idx: this.param(f, 1), x, cur: x };
    } else {
      // Scalar helpers work on a private scratch array, from an index below 8.
      const arrayType = storage.array(8 + this.ctx.reach(f));
      const scratch = fb.alloca(arrayType, 'scratch', this.debugType(arrayType));
      const data = fb.toAddrSpace(fb.gep(arrayType, scratch, [0, 0], 'arraydecay'), 4, 'scratch.ascast');
      const b = this.param(f, 1);
      const wide = convert(fb, b, kindInfo.i64);
      const idx = fb.binop('and', wide, { type: i64, ref: '7' }, 'idx');
      s = { fb, ctx: this.ctx, f, rng, k: kind, storage, data, idx, x: b, cur: this.param(f, 0) };
      storeValue(s, s.cur, s.idx);
    }
    emitSegments(s, this.options.segments);
    if (f.returnsValue) {
      fb.ret(s.cur);
    } else {
      storeValue(s, s.cur, s.idx);
      fb.ret();
    }
    this.noteFeatureTypes();
    return fb.finish(this.header(f, dbg));
  }

  /** Feature types the module now defines (listed in `!sycl_types_that_use_aspects`). */
  private noteFeatureTypes(): void {
    if (this.m.hasStruct('class.sycl::_V1::detail::half_impl::half')) this.usedFeatureTypes.add('class.sycl::_V1::detail::half_impl::half');
    for (const fs of featureStructs) if (this.m.hasStruct(fs.name)) this.usedFeatureTypes.add(fs.name);
  }

  /** Writes the whole module to `sink`; returns the statistics. */
  print(sink: TextSink): Omit<ModuleStats, 'bytes'> {
    const bodies: string[] = [];
    let definitions = 0;
    let kernels = 0;
    for (const id of this.plan.order) {
      const f = this.functions[id]!;
      bodies.push(`${this.printFunction(f)}${this.m.takeDeclarations()}`);
      definitions++;
      if (f.role === 'kernel') kernels++;
    }
    this.declarationCount = bodies.reduce((n, b) => n + countOccurrences(b, '\ndeclare '), 0);

    const o = this.options;
    sink.write(
      `; ModuleID = 'llvm-link'\n; Synthetic DPC++-shaped device module from @syclkit/bench (generator v${generatorVersion}): ` +
        `seed=${o.seed} kernels=${o.kernels} tus=${o.tus} functions=${o.functions} segments=${o.segments} pointers=${o.pointers} debug-info=${o.debugInfo}\n` +
        `source_filename = "llvm-link"\ntarget datalayout = "${spirDataLayout}"\ntarget triple = "spir64-unknown-unknown"\n\n`,
    );
    const types = this.m.structDefinitions();
    if (types) sink.write(`${types}\n`);
    if (this.m.comdats.length > 0) sink.write(`${this.m.comdats.join('\n\n')}\n\n`);
    if (this.m.globals.length > 0) sink.write(`${this.m.globals.join('\n')}\n\n`);
    for (let i = 0; i < bodies.length; i++) sink.write(i === 0 ? bodies[i]! : `\n${bodies[i]}`);
    sink.write(`\n${this.m.attrs.render()}\n`);
    sink.write(this.namedMetadata());
    sink.write(`\n${this.m.md.render()}`);
    return { kernels, definitions, declarations: this.declarationCount, options: this.options };
  }

  private namedMetadata(): string {
    const md = this.m.md;
    const list = (ids: readonly number[]): string => `!{${ids.map((i) => `!${i}`).join(', ')}}`;
    const tus = this.options.tus;
    const repeat = (id: number): number[] => Array.from({ length: tus }, () => id);
    const lines: string[] = [];
    if (this.options.debugInfo) lines.push(`!llvm.dbg.cu = ${list([...this.compileUnits.values()].map((c) => c.unit))}`);
    lines.push(`!llvm.module.flags = ${list(this.moduleFlags)}`);
    lines.push(`!opencl.spir.version = ${list(repeat(this.perTu.spir))}`);
    lines.push(`!spirv.Source = ${list(repeat(this.perTu.source))}`);
    lines.push(`!sycl_aspects = ${list(this.aspectNodes)}`);
    const featureTypes: number[] = [];
    for (const name of this.usedFeatureTypes) {
      const aspect = name.startsWith('class.sycl::_V1::detail::half_impl') ? 5 : featureStructs.find((fs) => fs.name === name)!.aspect;
      featureTypes.push(md.node(`!{${mdString(name)}, i32 ${aspect}}`));
    }
    if (featureTypes.length > 0) lines.push(`!sycl_types_that_use_aspects = ${list(featureTypes)}`);
    lines.push(`!llvm.ident = ${list(repeat(this.perTu.ident))}`);
    return `${lines.join('\n')}\n`;
  }
}

function kernelAttributes(tu: number): string {
  return `mustprogress norecurse nounwind ${commonAttributes} "sycl-module-id"="tu${tu}.cpp" "sycl-optlevel"="2" "uniform-work-group-size"="true"`;
}

function countOccurrences(text: string, needle: string): number {
  let n = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) n++;
  return n;
}

/** Prints the module for `options` into `sink`. */
export function writeModule(options: Partial<GeneratorOptions>, sink: TextSink): ModuleStats {
  const resolved = resolveGeneratorOptions(options);
  let bytes = 0;
  const counting: TextSink = {
    write(chunk) {
      bytes += chunk.length;
      sink.write(chunk);
    },
  };
  const stats = new ModulePrinter(planModule(resolved)).print(counting);
  return { ...stats, bytes };
}

/** The module for `options` as one string. */
export function generateModule(options: Partial<GeneratorOptions> = {}): GeneratedModule {
  const chunks: string[] = [];
  const stats = writeModule(options, { write: (c) => chunks.push(c) });
  return { text: chunks.join(''), stats };
}
