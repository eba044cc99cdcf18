/**
 * Properties of the type finder's shortcut (types that hold no identified struct, such as `i32`,
 * `ptr` or `[4 x float]`, are not walked), on random modules whose struct types (named,
 * numbered, opaque, nested by value, behind arrays, vectors, literal and packed structs) are
 * used from globals, instructions (result, GEP source, alloca, constants), call attributes and
 * metadata, in random orders:
 * 1. `identifiedStructTypes` finds the same structs in the same order as a finder that walks
 *    every type, constant and metadata node it meets (LLVM's TypeFinder without the shortcut,
 *    in its worklist order: a struct's fields pushed last first, each marked seen when pushed).
 * 2. So does `rootStructTypes` for each function.
 * 3. Still true after mutations that change what a type reaches: an opaque struct given a body
 *    that holds another struct, and new instructions using types made after the parse.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fcOptions } from '@syclkit/testing';
import { identifiedStructTypes, rootStructTypes } from './type-finder.js';
import { constantOperands } from './uses.js';
import { AllocaInst, CallInst, GetElementPtrInst, Instruction, ShuffleVectorInst } from '../model/instructions.js';
import { forEachDIOperand, type MDNode, type Metadata } from '../model/metadata.js';
import type { Module } from '../model/module.js';
import { subtypes, type StructType, type Type } from '../model/types.js';
import { BasicBlock, isConstant, type IRFunction, type Value } from '../model/values.js';
import type { AttributeList } from '../model/attributes.js';
import { parseModule } from '../reader/parser.js';
import { llvm16, run } from '../../test/support.js';

const opt16 = llvm16('opt');

/** The finder's walk with nothing skipped: every type, constant and node met is walked. */
class ReferenceFinder {
  readonly structs: StructType[] = [];
  private readonly types = new Set<Type>();
  private readonly constants = new Set<Value>();
  private readonly nodes = new Set<Metadata>();

  /**
   * LLVM's order: a stack of types, each subtype marked seen as it is pushed (last first), so
   * `{ %A, %B, %A }` finds %B before %A.
   */
  type(t: Type): void {
    if (this.types.has(t)) return;
    this.types.add(t);
    const work = [t];
    while (work.length > 0) {
      const next = work.pop()!;
      if (next.kind === 'struct' && !next.literal) this.structs.push(next);
      const subs = subtypes(next);
      for (let i = subs.length - 1; i >= 0; i--) {
        const sub = subs[i]!;
        if (this.types.has(sub)) continue;
        this.types.add(sub);
        work.push(sub);
      }
    }
  }

  value(v: Value): void {
    if (v.vk === 'metadata') {
      const md = v.metadata;
      if (md.mk === 'tuple' || md.mk === 'di') this.node(md);
      else if (md.mk === 'value') this.value(md.value);
      else if (md.mk === 'arglist') for (const a of md.args) this.value(a.value);
      return;
    }
    if (!isConstant(v) || v.vk === 'global' || v.vk === 'function' || v.vk === 'alias' || v.vk === 'ifunc') return;
    if (this.constants.has(v)) return;
    this.constants.add(v);
    this.type(v.type);
    if (v.vk === 'expr' && v.extra.sourceElementType) this.type(v.extra.sourceElementType);
    for (const op of constantOperands(v)) this.value(op);
  }

  node(n: MDNode): void {
    if (this.nodes.has(n)) return;
    this.nodes.add(n);
    const operand = (op: Metadata | null): void => {
      if (op === null) return;
      if (op.mk === 'tuple' || op.mk === 'di') this.node(op);
      else if (op.mk === 'value' && isConstant(op.value)) this.value(op.value);
    };
    if (n.mk === 'tuple') n.operands.forEach(operand);
    else forEachDIOperand(n, operand);
  }

  attributes(list: AttributeList): void {
    for (const set of [list.fn, list.ret, ...list.params]) for (const a of set.attributes) if (a.kind === 'type' && a.type) this.type(a.type);
  }

  fn(f: IRFunction): void {
    this.type(f.functionType);
    this.attributes(f.attributes);
    for (const c of [f.personality, f.prefix, f.prologue]) if (c) this.value(c);
    for (const block of f.blocks) {
      for (const inst of block.instructions) {
        this.type(inst.type);
        for (const op of inst.operands) if (op.vk !== 'instruction' && op.vk !== 'argument' && op.vk !== 'block') this.value(op);
        if (inst instanceof GetElementPtrInst) this.type(inst.sourceElementType);
        if (inst instanceof AllocaInst) this.type(inst.allocatedType);
        if (inst instanceof CallInst) {
          this.attributes(inst.attributes);
          for (const bundle of inst.bundles) for (const v of bundle.inputs) if (v.vk !== 'instruction') this.value(v);
        }
        if (inst instanceof ShuffleVectorInst) this.value(inst.maskValue);
        if (inst.attachments) for (const a of inst.attachments) if (a.kind !== 0) this.node(a.node);
      }
    }
  }

  module(m: Module): StructType[] {
    for (const g of m.globals) {
      this.type(g.valueType);
      if (g.initializer) this.value(g.initializer);
    }
    for (const f of m.functions) this.fn(f);
    for (const ops of m.namedMetadata.values()) for (const op of ops) if (op.mk === 'tuple' || op.mk === 'di') this.node(op);
    return this.structs;
  }
}

/** A struct definition: its body refers to structs defined after it (so none holds itself by value). */
interface StructShape {
  readonly numbered: boolean;
  readonly opaque: boolean;
  readonly fields: readonly TypeShape[];
}

/** A type: a scalar, or a struct (by index) bare or wrapped. */
type TypeShape = { readonly scalar: 'i32' | 'ptr' | 'float' | '<2 x i16>' } | { readonly struct: number; readonly wrap: 'none' | 'array' | 'vector-free' | 'literal' | 'packed' };

const scalarShape = fc.record({ scalar: fc.constantFrom('i32' as const, 'ptr' as const, 'float' as const, '<2 x i16>' as const) });
const typeShape = (structs: number): fc.Arbitrary<TypeShape> =>
  structs === 0 ? scalarShape : fc.oneof(scalarShape, fc.record({ struct: fc.nat({ max: structs - 1 }), wrap: fc.constantFrom('none' as const, 'array' as const, 'vector-free' as const, 'literal' as const, 'packed' as const) }));

type Use = 'alloca' | 'gep' | 'load' | 'store' | 'byval' | 'attachment' | 'global' | 'named';

const moduleShape = fc.integer({ min: 1, max: 6 }).chain((n) =>
  fc.record({
    structs: fc.tuple(...Array.from({ length: n }, (_, i) => fc.record({ numbered: fc.boolean(), opaque: fc.boolean(), fields: fc.array(typeShape(n), { minLength: 1, maxLength: 3 }) }).map((s) => ({ ...s, fields: s.fields.map((f) => ('struct' in f && f.struct <= i ? { scalar: 'i32' as const } : f)) })))),
    functions: fc.array(fc.array(fc.record({ use: fc.constantFrom<Use>('alloca', 'gep', 'load', 'store', 'byval', 'attachment', 'global', 'named'), type: typeShape(n) }), { maxLength: 6 }), { minLength: 1, maxLength: 4 }),
  }),
);

function moduleText(shape: { readonly structs: readonly StructShape[]; readonly functions: readonly (readonly { readonly use: Use; readonly type: TypeShape }[])[] }): string {
  const structs = shape.structs;
  // numbered structs take %0, %1, ... in definition order
  let nextNumber = 0;
  const names = structs.map((s, i) => (s.numbered ? `%${nextNumber++}` : `%struct.S${i}`));
  const sized = (t: TypeShape): boolean => !('struct' in t) || !structs[t.struct]!.opaque;
  const text = (t: TypeShape): string => {
    if ('scalar' in t) return t.scalar;
    const s = names[t.struct]!;
    switch (t.wrap) {
      case 'none':
        return s;
      case 'array':
        return `[2 x ${s}]`;
      case 'vector-free':
        return `{ <2 x i32>, ${s} }`;
      case 'literal':
        return `{ i8, [3 x ${s}] }`;
      case 'packed':
        return `<{ i16, ${s} }>`;
    }
  };
  // a struct holding an opaque one by value has no size: such bodies use a pointer instead
  const lines = structs.map((s, i) => `${names[i]} = type ${s.opaque ? 'opaque' : `{ ${s.fields.map((f) => (sized(f) ? text(f) : 'ptr')).join(', ')} }`}`);
  const globals: string[] = [];
  const named: string[] = [];
  const nodes: string[] = [];
  const bodies = shape.functions.map((uses, fi) => {
    const body: string[] = [];
    uses.forEach(({ use, type }, k) => {
      const t = sized(type) ? text(type) : 'i32';
      const zero = 'struct' in type && sized(type) ? 'zeroinitializer' : t === 'ptr' ? 'null' : t === 'float' ? '0.0' : t === 'i32' ? '0' : 'zeroinitializer';
      switch (use) {
        case 'alloca':
          return body.push(`  %a${k} = alloca ${t}, align 8`);
        case 'gep':
          return body.push(`  %g${k} = getelementptr ${t}, ptr %p, i64 1`);
        case 'load':
          return body.push(`  %l${k} = load ${t}, ptr %p, align 8`);
        case 'store':
          return body.push(`  store ${t} ${zero}, ptr %p, align 8`);
        case 'byval':
          return body.push(`  call void @use(ptr byval(${t}) %p)`);
        case 'attachment':
          nodes.push(`!${nodes.length} = !{${t} ${zero}}`);
          return body.push(`  store i32 0, ptr %p, align 4, !extra !${nodes.length - 1}`);
        case 'global':
          return globals.push(`@g${fi}_${k} = global ${t} ${zero}`);
        case 'named':
          nodes.push(`!${nodes.length} = !{${t} ${zero}}`);
          return named.push(`!${nodes.length - 1}`);
      }
    });
    return [`define void @f${fi}(ptr %p) {`, ...body, '  ret void', '}'].join('\n');
  });
  return [
    ...lines,
    ...globals,
    ...bodies,
    'declare void @use(ptr)',
    ...(named.length > 0 ? [`!types = !{${named.join(', ')}}`] : []),
    ...nodes,
    '',
  ].join('\n');
}

describe('type finder (properties)', () => {
  it('finds the structs of a full walk, in its order, per module and per function', () => {
    fc.assert(
      fc.property(moduleShape, (shape) => {
        const m = parseModule(moduleText(shape), { filename: 'types.ll' });
        expectSameStructs(identifiedStructTypes(m), new ReferenceFinder().module(m));
        for (const f of m.functions) expectSameStructs(rootStructTypes(f), referenceOf(f));
      }),
      fcOptions(150),
    );
  }, 120_000);

  it("finds a struct that a body holds twice, around another, in LLVM's order (as opt-16 -S prints them)", () => {
    const text = '%S0 = type { %S2, %S3, %S2 }\n%S2 = type { i32 }\n%S3 = type { i32 }\n@g = global %S0 zeroinitializer\n';
    expect(identifiedStructTypes(parseModule(text, { filename: 'twice.ll' })).map((s) => s.name)).toEqual(['S0', 'S3', 'S2']);
    if (opt16 === undefined) return;
    const printed = run(opt16, ['-S'], text);
    expect(printed?.split('\n').filter((l) => l.includes(' = type ')).map((l) => l.split(' ')[0])).toEqual(['%S0', '%S3', '%S2']);
  });

  it('finds a struct reached through a body given after the types holding it were made', () => {
    fc.assert(
      fc.property(fc.constantFrom('[4 x %T]', '{ i8, %T }', '<{ %T, i8 }>', '%T', 'ptr'), fc.boolean(), fc.boolean(), (wrapper, numbered, viaInstruction) => {
        const inner = numbered ? '%0' : '%U';
        const m = parseModule(`${inner} = type { float }\n%T = type opaque\n@g = global ${wrapper} zeroinitializer\n@h = global ${inner} zeroinitializer\n`, { filename: 'late.ll' });
        const h = m.getGlobalVariable('h')!;
        const other = h.valueType as StructType;
        m.remove(h);
        const t = m.context.getStruct('T')!;
        expect(identifiedStructTypes(m)).toEqual(wrapper.includes('%T') ? [t] : []);
        // %T gets a body holding the other struct: whatever holds %T reaches it from now on
        t.setBody([m.context.array(other, 2)]);
        if (viaInstruction) {
          // and a function made after the parse uses a type made after the parse
          const f = m.createFunction('late', m.context.fn(m.context.void, []));
          const block = new BasicBlock('entry', f, m.context.label);
          f.blocks.push(block);
          const alloca = new AllocaInst(m.context.ptr(0), m.context.vector(m.context.ptr(0), 2), m.context.constI32(1), 8, 0);
          const gep = new GetElementPtrInst(m.context.ptr(0), m.context.literalStruct([m.context.i8, m.context.array(t, 3)]), [alloca, m.context.constI64(0)]);
          const ret = new Instruction('ret', m.context.void, []);
          for (const inst of [alloca, gep, ret]) {
            inst.parent = block;
            block.instructions.push(inst);
          }
        }
        const found = identifiedStructTypes(m);
        expect(found).toEqual(new ReferenceFinder().module(m));
        expect(found).toEqual(wrapper.includes('%T') || viaInstruction ? [t, other] : []);
      }),
      fcOptions(40),
    );
  });
});

/** The same structs (the very objects, not look-alikes: two structs may have equal bodies) in the same order. */
function expectSameStructs(actual: readonly StructType[], expected: readonly StructType[]): void {
  expect(actual.map((s) => s.name)).toEqual(expected.map((s) => s.name));
  actual.forEach((s, i) => expect(s).toBe(expected[i]));
}

function referenceOf(f: IRFunction): StructType[] {
  const finder = new ReferenceFinder();
  finder.fn(f);
  return finder.structs;
}
