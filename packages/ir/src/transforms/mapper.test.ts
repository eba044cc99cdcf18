import { describe, expect, it } from 'vitest';
import { cloneModuleWithMap } from './clone.js';
import { Context } from '../model/context.js';
import { ValueMapper } from './mapper.js';
import type { MDNode } from '../model/metadata.js';
import { parseModule } from '../reader/parser.js';
import { printModule } from '../printer/printer.js';
import type { Constant, GlobalValue, IRFunction } from '../model/values.js';
import { IrError } from '../errors.js';
import { AttributeList, AttributeSet, enumAttr, intAttr, typeAttr } from '../model/attributes.js';
import type { Type } from '../model/types.js';

const text = `
@g = global i32 0
@h = global i32 1

!plain = !{!0}
!withGlobal = !{!1}
!cycle = !{!2}

!0 = !{!"no values", i32 7}
!1 = !{!0, ptr @g}
!2 = distinct !{!3, ptr @g}
!3 = !{!2, !"back"}
`;

/** Parsed, plus a DI node holding a value (`DITemplateValueParameter(value: ptr @g)`), built
 * through the API: the parser does not read value fields of specialized nodes yet. */
function parseWithTemplateParameter(): ReturnType<typeof parseModule> {
  const m = parseModule(text, { filename: 'md.ll' });
  const md = m.context.md;
  const param = md.di(
    'DITemplateValueParameter',
    new Map([
      ['name', { k: 'str' as const, v: 'p' }],
      ['value', { k: 'md' as const, v: md.value(m.getGlobalVariable('g')!) }],
    ]),
  );
  m.setNamedMetadata('di', [param]);
  return m;
}

const named = (m: ReturnType<typeof parseModule>, name: string): MDNode => m.getNamedMetadata(name)![0]!;

describe('metadata mapping', () => {
  const m = parseWithTemplateParameter();
  const { module: clone } = cloneModuleWithMap(m);

  it('shares nodes that reach no remapped value', () => {
    expect(named(clone, 'plain')).toBe(named(m, 'plain'));
  });

  it('rebuilds uniqued nodes that reach a remapped global, sharing their unchanged operands', () => {
    const original = named(m, 'withGlobal');
    const copy = named(clone, 'withGlobal');
    expect(copy).not.toBe(original);
    expect(copy.mk === 'tuple' && copy.operands[0]).toBe(named(m, 'plain'));
    const wrapped = copy.mk === 'tuple' ? copy.operands[1] : null;
    expect(wrapped?.mk === 'value' && wrapped.value).toBe(clone.getGlobalVariable('g'));
    // interned again: asking the context for the same tuple gives the copy
    expect(clone.context.md.tuple(copy.mk === 'tuple' ? copy.operands : [])).toBe(copy);
  });

  it('copies a cycle through a distinct node, keeping the cycle', () => {
    const copy = named(clone, 'cycle');
    expect(copy).not.toBe(named(m, 'cycle'));
    expect(copy.distinct).toBe(true);
    const inner = copy.mk === 'tuple' ? copy.operands[0] : null;
    expect(inner !== null && inner?.mk === 'tuple' && inner.operands[0]).toBe(copy);
  });

  it('remaps values inside specialized (DI) nodes', () => {
    const copy = named(clone, 'di');
    const value = copy.mk === 'di' ? copy.mdField('value') : undefined;
    expect(value?.mk === 'value' && value.value).toBe(clone.getGlobalVariable('g'));
  });

  it('prints the copy like the original', () => {
    expect(printModule(clone)).toBe(printModule(m));
  });
});

describe('ValueMapper with a global map', () => {
  it('maps constants once, rebuilding only those that contain a mapped global', () => {
    const ctx = new Context();
    const m = parseModule('@g = global i32 0\n@h = global i32 0\n@a = global [2 x ptr] [ptr @g, ptr null]\n@b = global [1 x i32] [i32 5]', { context: ctx });
    const g = m.getGlobalVariable('g')!;
    const h = m.getGlobalVariable('h')!;
    let calls = 0;
    const mapper = new ValueMapper({
      context: ctx,
      mapGlobal: (gv: GlobalValue): Constant => {
        calls++;
        return gv === g ? h : gv;
      },
    });
    const a = m.getGlobalVariable('a')!.initializer!;
    const b = m.getGlobalVariable('b')!.initializer!;
    const mappedA = mapper.mapConstant(a);
    expect(mappedA).not.toBe(a);
    expect(mappedA?.vk === 'array' && mappedA.elements[0]).toBe(h);
    expect(mapper.mapConstant(a)).toBe(mappedA);
    expect(calls).toBe(1);
    expect(mapper.mapConstant(b)).toBe(b);
  });

  it('turns nodes whose value is deleted into distinct nodes when asked (LLVM deletion semantics)', () => {
    const ctx = new Context();
    const m = parseModule('@g = global i32 0\n!n = !{!0}\n!0 = !{ptr @g, !"x"}', { context: ctx });
    const node = m.getNamedMetadata('n')![0]!;
    const deleting = new ValueMapper({ context: ctx, mapGlobal: () => null, distinctWhenNulled: true });
    const mapped = deleting.mapNode(node);
    expect(mapped.distinct).toBe(true);
    expect(mapped.mk === 'tuple' && mapped.operands[0]).toBe(null);
    const linking = new ValueMapper({ context: ctx, mapGlobal: () => null });
    expect(linking.mapNode(node).distinct).toBe(false);
  });
});

describe('moving a body instead of copying it', () => {
  const body = `
@g = global i32 0
@h = global i32 0
declare void @use(ptr, metadata)
define i32 @f(i32 %x, ptr %p) {
entry:
  %a = add i32 %x, 1
  store i32 %a, ptr @g
  call void @use(ptr %p, metadata i32 %a)
  br label %next
next:
  %r = phi i32 [ %a, %entry ]
  ret i32 %r
}
declare i32 @t(i32, ptr)
`;
  const setUp = (): { m: ReturnType<typeof parseModule>; mapper: ValueMapper; f: IRFunction; t: IRFunction } => {
    const ctx = new Context();
    const m = parseModule(body, { context: ctx });
    const g = m.getGlobalVariable('g')!;
    const h = m.getGlobalVariable('h')!;
    const mapper = new ValueMapper({ context: ctx, mapGlobal: (gv: GlobalValue): Constant => (gv === g ? h : gv) });
    return { m, mapper, f: m.getFunction('f')!, t: m.getFunction('t')! };
  };

  it('gives the text copying gives, keeping the objects and every list that does not change', () => {
    const copied = setUp();
    copied.mapper.cloneBody(copied.f, copied.t);
    copied.f.blocks = [];
    const moved = setUp();
    const [add, store] = moved.f.blocks[0]!.instructions;
    const addOperands = add!.operands;
    const storeOperands = store!.operands;
    const args = moved.f.args;
    moved.mapper.moveBody(moved.f, moved.t);
    expect(printModule(moved.m)).toBe(printModule(copied.m));
    expect(moved.f.blocks).toEqual([]);
    expect(moved.t.args).toEqual(args);
    for (const a of moved.t.args) expect(a.parent).toBe(moved.t);
    expect(moved.t.blocks[0]!.instructions[0]).toBe(add);
    expect(add!.operands).toBe(addOperands);
    expect(store!.operands).not.toBe(storeOperands);
    expect(store!.operands[1]).toBe(moved.m.getGlobalVariable('h'));
  });

  it("refuses an operand local to another function, as copying does", () => {
    const messages = (['cloneBody', 'moveBody'] as const).map((how) => {
      const { m, mapper, f, t } = setUp();
      const other = parseModule('define void @o(i32 %y) {\n  ret void\n}', { context: m.context }).getFunction('o')!;
      f.blocks[0]!.instructions[0]!.operands[0] = other.args[0]!;
      try {
        mapper[how](f, t);
        return 'no error';
      } catch (e) {
        return e instanceof IrError ? e.message : String(e);
      }
    });
    expect(messages[0]).toMatch(/does not belong to the function being copied/);
    expect(messages[1]).toBe(messages[0]);
  });
});

describe('attribute lists under a type map', () => {
  it('keeps every list and set whose types map to themselves, and rebuilds only what changes', () => {
    const ctx = new Context();
    const a = ctx.createStruct('A', [ctx.i32]);
    const b = ctx.createStruct('B', [ctx.i32]);
    const mapper = new ValueMapper({ context: ctx, mapGlobal: (gv: GlobalValue): Constant => gv, mapType: (t) => (t === a ? b : t) });
    const plain = AttributeSet.of([enumAttr('noundef')]);
    const byvalA = AttributeSet.of([typeAttr('byval', a), intAttr('align', 4)]);
    const unchanged = new AttributeList(AttributeSet.of([enumAttr('nounwind')]), plain, [plain, AttributeSet.of([typeAttr('byval', ctx.i32)])]);
    expect(mapper.mapAttributeList(unchanged)).toBe(unchanged);
    const list = new AttributeList(AttributeSet.empty, plain, [plain, byvalA, plain]);
    const mapped = mapper.mapAttributeList(list);
    expect(mapped).not.toBe(list);
    expect(mapped.fn).toBe(list.fn);
    expect(mapped.ret).toBe(plain);
    expect(mapped.params[0]).toBe(plain);
    expect(mapped.params[2]).toBe(plain);
    expect(mapped.params[1]!.attributes).toEqual(AttributeSet.of([typeAttr('byval', b), intAttr('align', 4)]).attributes);
    // memoized: the reader shares a list among calls with the same sets
    expect(mapper.mapAttributeList(list)).toBe(mapped);
  });

  it('maps each list and set once, visiting its types the first time only, in order', () => {
    const ctx = new Context();
    const a = ctx.createStruct('A', [ctx.i32]);
    const b = ctx.createStruct('B', [ctx.i32]);
    const c = ctx.createStruct('C', [ctx.i64]);
    const visits: string[] = [];
    const mapType = (t: Type): Type => {
      if (t.kind === 'struct') visits.push(t.name);
      return t === a ? b : t;
    };
    const mapper = new ValueMapper({ context: ctx, mapGlobal: (gv: GlobalValue): Constant => gv, mapType });
    const byvalA = AttributeSet.of([typeAttr('byval', a)]);
    const sretC = AttributeSet.of([typeAttr('sret', c)]);
    const first = new AttributeList(AttributeSet.empty, AttributeSet.empty, [byvalA, sretC]);
    // another list sharing the first one's sets: they map to the same objects
    const second = new AttributeList(AttributeSet.empty, sretC, [byvalA]);
    const m1 = mapper.mapAttributeList(first);
    expect(visits).toEqual(['A', 'C']);
    const m2 = mapper.mapAttributeList(second);
    expect(visits).toEqual(['A', 'C']);
    expect(m2.params[0]).toBe(m1.params[0]);
    expect(m2.ret).toBe(sretC);
    expect(m1.params[1]).toBe(sretC);
    expect(mapper.mapAttributeSet(byvalA)).toBe(m1.params[0]);
    expect(m1.params[0]!.attributes).toEqual([typeAttr('byval', b)]);
    // a mapper without a type map leaves every list alone
    const plain = new ValueMapper({ context: ctx, mapGlobal: (gv: GlobalValue): Constant => gv });
    expect(plain.mapAttributeList(first)).toBe(first);
  });
});
