import { describe, expect, it } from 'vitest';
import { printModule, type Module } from '@syclkit/ir';
import { aspectsTable, parse, runPass } from '../test/helpers.js';
import { AspectSet } from './aspect-set.js';
import { directAspectUses, type AspectUse, type FunctionAspectUses } from './direct-uses.js';

/** %A uses 1, %B uses 2, %H uses 5 (fp16); %W wraps %H; double uses 6 (fp64). */
const TYPES = `%A = type { i32 }
%B = type { i32 }
%H = type { half }
%W = type { [2 x %H] }
`;
const LISTED = `!sycl_types_that_use_aspects = !{!800, !801, !802}
!800 = !{!"A", i32 1}
!801 = !{!"B", i32 2}
!802 = !{!"H", i32 5}
${aspectsTable()}`;

function usesIn(body: string, options: { fp64ConvEmu?: boolean } = {}): { module: Module; of: (name: string) => FunctionAspectUses } {
  const module = parse(`${TYPES}${body}\n${LISTED}`);
  const all = directAspectUses(module, options);
  return { module, of: (name) => all.find((f) => f.fn.name === name)! };
}

/** A use as plain data: the aspect, its kind, the type's name and the instruction's opcode. */
function brief(use: AspectUse): string {
  switch (use.kind) {
    case 'signature':
      return `${use.aspect} signature ${typeName(use)} ${use.argument === undefined ? 'return' : `arg ${use.argument.index}`}`;
    case 'instruction':
      return `${use.aspect} ${use.instruction.opcode} ${typeName(use)}`;
    case 'instruction-metadata':
      return `${use.aspect} ${use.instruction.opcode} metadata`;
    case 'function-metadata':
      return `${use.aspect} function metadata`;
  }
}

function typeName(use: { type: { kind: string; name?: string; fp?: string } }): string {
  const t = use.type;
  return t.kind === 'struct' ? `%${t.name}` : t.kind === 'float' ? t.fp! : t.kind;
}

describe('directAspectUses', () => {
  it("lists a function's uses in the pass's order: return type, arguments, instructions, its own !sycl_used_aspects", () => {
    const { of } = usesIn(`define double @f(%A %a, i32 %n, %B %b) !sycl_used_aspects !10 !sycl_declared_aspects !11 {
  %h = alloca %H
  %x = call i32 @ext(i32 %n), !sycl_used_aspects !12
  ret double 0.0
}
declare i32 @ext(i32)
!10 = !{i32 9, i32 1}
!11 = !{i32 28, i32 5}
!12 = !{i32 7}`);
    const f = of('f');
    expect(f.uses.map(brief)).toEqual([
      '6 signature double return',
      '1 signature %A arg 0',
      '2 signature %B arg 2',
      '5 alloca %H',
      '7 call metadata',
      '6 ret double',
      '9 function metadata',
      '1 function metadata',
    ]);
    expect(f.declared).toEqual([28, 5]);
  });

  it('names the first type that carries an aspect in an instruction: result, operands in LLVM order (a global with its value type), GEP source type', () => {
    const { of } = usesIn(`@gh = global %H zeroinitializer
@ga = global %A zeroinitializer
define void @f(ptr %p) {
  %l = load %B, ptr @gh
  %g = getelementptr %W, ptr %p, i64 0
  %c = call double @g(%A zeroinitializer, ptr @ga)
  ret void
}
declare double @g(%A, ptr)`);
    expect(of('f').uses.map(brief)).toEqual([
      // load: result %B, then the operand @gh counts with its value type %H.
      '2 load %B',
      '5 load %H',
      // GEP: no aspect in its result (ptr) or operands; its source element type %W wraps %H.
      '5 getelementptr %W',
      // call: result double, then the arguments (%A, then @ga's value type %A: already there), then the callee's function type.
      '6 call double',
      '1 call %A',
    ]);
  });

  it('counts an aspect of an instruction once, from a type before its metadata', () => {
    const { of } = usesIn(`define void @f() {
  %d = alloca double, !sycl_used_aspects !10
  ret void
}
!10 = !{i32 6, i32 3}`);
    expect(of('f').uses.map(brief)).toEqual(['6 alloca double', '3 alloca metadata']);
  });

  it('lists the aspects of one instruction in its SmallSet order (ascending from the fifth)', () => {
    const { of } = usesIn(`define void @f() {
  %x = alloca { %B, %A, double, %H }, !sycl_used_aspects !10
  ret void
}
!10 = !{i32 -3}`);
    expect(of('f').uses.map((u) => [u.aspect, u.kind])).toEqual([
      [-3, 'instruction-metadata'],
      [1, 'instruction'],
      [2, 'instruction'],
      [5, 'instruction'],
      [6, 'instruction'],
    ]);
  });

  it('with fp64ConvEmu leaves out fp64 of conversions of double and of the signature, as the pass does', () => {
    const body = `define double @f(double %a, float %f) {
  %c = fpext float %f to double
  %s = fadd double %a, %c
  ret double %s
}`;
    const plain = usesIn(body).of('f').uses.map(brief);
    const emulated = usesIn(body, { fp64ConvEmu: true }).of('f').uses.map(brief);
    expect(plain).toEqual(['6 signature double return', '6 signature double arg 0', '6 fpext double', '6 fadd double', '6 ret double']);
    expect(emulated).toEqual(['6 fadd double']);
  });

  it('covers every function in module order, declarations included, and reads the module without changing it', () => {
    const { module } = usesIn(`declare double @d()
define void @f() {
  ret void
}`);
    const before = printModule(module);
    const all = directAspectUses(module);
    expect(all.map((f) => f.fn)).toEqual(module.functions);
    expect(all.map((f) => f.uses.map(brief))).toEqual([['6 signature double return'], []]);
    expect(printModule(module)).toBe(before);
  });

  it('does not register the aspect metadata kinds in the context (printing order of attachments stays as it was)', () => {
    const module = parse('define void @f() {\n  %x = alloca double\n  ret void\n}\n');
    directAspectUses(module);
    expect(module.context.md.kinds.lookup('sycl_used_aspects')).toBeUndefined();
    expect(module.context.md.kinds.lookup('sycl_declared_aspects')).toBeUndefined();
  });

  it('uses fp64 = 6 without !sycl_aspects, and the table value when there is one', () => {
    const without = parse('define void @f(double %d) {\n  ret void\n}\n');
    expect(directAspectUses(without)[0]!.uses.map((u) => u.aspect)).toEqual([6]);
    const renumbered = parse(`define void @f(double %d) {\n  ret void\n}\n!sycl_aspects = !{!0}\n!0 = !{!"fp64", i32 42}\n`);
    expect(directAspectUses(renumbered)[0]!.uses.map((u) => u.aspect)).toEqual([42]);
  });

  it("agrees with the pass: the uses, then the declared aspects, are a leaf function's !sycl_used_aspects", () => {
    const text = `${TYPES}define void @f(%B %b) !sycl_used_aspects !10 !sycl_declared_aspects !11 {
  %h = alloca %W
  %d = fmul double 1.0, 2.0
  ret void
}
!10 = !{i32 9}
!11 = !{i32 28}
${LISTED}`;
    const [f] = directAspectUses(parse(text));
    expect(new AspectSet([...f!.uses.map((u) => u.aspect), ...f!.declared]).toArray()).toEqual(runPass(text, { validate: false }).used('f'));
  });
});

describe('directAspectUses: onInstruction', () => {
  it('is called once with every instruction of every function, in module order, with its function', () => {
    const module = parse(`${TYPES}
define void @f(ptr %p) {
entry:
  %a = alloca %A
  br label %next
next:
  call void @g()
  ret void
}
declare void @h()
define void @g() {
  %x = fpext float 1.0 to double
  ret void
}
\n${LISTED}`);
    const seen: string[] = [];
    const withCallback = directAspectUses(module, { onInstruction: (inst, fn) => seen.push(`${fn.name}:${inst.opcode}`) });
    expect(seen).toEqual(module.functions.flatMap((fn) => fn.blocks.flatMap((b) => b.instructions.map((inst) => `${fn.name}:${inst.opcode}`))));
    expect(seen).toEqual(['f:alloca', 'f:br', 'f:call', 'f:ret', 'g:fpext', 'g:ret']);
    expect(withCallback.map((f) => f.uses.map(brief))).toEqual(directAspectUses(module).map((f) => f.uses.map(brief)));
  });
});
