import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusFiles } from '../../test/support.js';
import { CallInst } from '../model/instructions.js';
import { parseModule } from './parser.js';
import type { Module } from '../model/module.js';
import { constantOperands } from '../analysis/uses.js';
import type { Value } from '../model/values.js';

/** Forward-reference placeholders the parser left anywhere a value can sit (it must leave none). */
function placeholdersLeft(m: Module): string[] {
  const left: string[] = [];
  const seen = new Set<Value>();
  const visit = (v: Value, where: string): void => {
    if (seen.has(v)) return;
    seen.add(v);
    if ((v as { vk: string }).vk === 'fwd') left.push(where);
    for (const op of constantOperands(v)) visit(op, where);
  };
  for (const g of m.globals) if (g.initializer) visit(g.initializer, `@${g.name} initializer`);
  for (const a of m.aliases) visit(a.aliasee, `@${a.name} aliasee`);
  for (const f of m.functions) {
    for (const v of [f.personality, f.prefix, f.prologue]) if (v) visit(v, `@${f.name} header`);
    for (const b of f.blocks) {
      for (const inst of b.instructions) {
        const where = `@${f.name} ${inst.opcode}`;
        for (const op of inst.operands) visit(op, where);
        if (inst instanceof CallInst) for (const bundle of inst.bundles) for (const v of bundle.inputs) visit(v, where);
      }
    }
  }
  return left;
}

const FORWARD = `
define void @user(i1 %c) personality ptr @personality {
entry:
  call void @callee(ptr @later, ptr getelementptr (i8, ptr @table, i64 4), ptr dso_local_equivalent @target, ptr no_cfi @target) [ "deopt"(ptr @later) ]
  store ptr @later, ptr @table
  %s = select i1 %c, ptr @later, ptr addrspacecast (ptr addrspace(1) @g1 to ptr)
  br i1 %c, label %a, label %b
a:
  br label %b
b:
  %p = phi ptr [ @later, %a ], [ @target, %entry ]
  invoke void @callee(ptr @later, ptr null, ptr null, ptr null) to label %ok unwind label %lp
ok:
  ret void
lp:
  %e = landingpad { ptr, i32 } catch ptr @typeinfo
  resume { ptr, i32 } %e
}
define void @callee(ptr, ptr, ptr, ptr) {
  ret void
}
declare i32 @personality(...)
define void @target() {
  ret void
}
@later = global i32 0
@table = global [2 x ptr] [ptr @later, ptr @target]
@g1 = addrspace(1) global i8 0
@typeinfo = constant ptr null
`;

describe('forward references to globals', () => {
  it('resolve to the globals themselves in every operand position, dso_local_equivalent and no_cfi included', () => {
    const m = parseModule(FORWARD, { filename: 'fwd.ll' });
    expect(placeholdersLeft(m)).toEqual([]);
    const call = m.functions[0]!.blocks[0]!.instructions[0] as CallInst;
    const later = m.globals.find((g) => g.name === 'later');
    const target = m.functions.find((f) => f.name === 'target');
    expect(call.operands[1]).toBe(later);
    expect(constantOperands(call.operands[3]!)).toEqual([target]);
    expect(constantOperands(call.operands[4]!)).toEqual([target]);
    expect(call.bundles[0]!.inputs[0]).toBe(later);
  });

  const files = corpusFiles();
  it.skipIf(files.length === 0)('leave no placeholder behind in any intel/llvm corpus input that parses', () => {
    const problems: string[] = [];
    let parsed = 0;
    for (const file of files) {
      let m: Module;
      try {
        m = parseModule(readFileSync(file, 'latin1'), { filename: file });
      } catch {
        continue; // inputs that only LLVM 19 or no LLVM reads
      }
      parsed++;
      for (const where of placeholdersLeft(m)) problems.push(`${file}: ${where}`);
    }
    expect(problems).toEqual([]);
    expect(parsed).toBeGreaterThan(100);
  }, 120_000);
});
