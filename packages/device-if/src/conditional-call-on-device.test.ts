import { readFileSync } from 'node:fs';
import { moduleKind } from '@syclkit/ir';
import { createRegistry } from '@syclkit/pass-manager';
import { describe, expect, it } from 'vitest';
import {
  CALLER_ATTRIBUTES,
  PRELUDE,
  actionDefinition,
  callToDefinition,
  callerDefinition,
  functionNames,
  functionText,
  parse,
  print,
} from '../test/ir.js';
import { conditionalCallOnDevicePass, rewriteConditionalCallers } from './conditional-call-on-device.js';

const fixture = (name: string): string => readFileSync(new URL(`../test/fixtures/${name}`, import.meta.url), 'utf8');

/** A kernel calling two conditional callers (module order: kernel, cc_a, cc_b, actions). */
const TWO_CALLERS = `${PRELUDE}
define spir_kernel void @kernel() {
entry:
  %a = alloca %class.anon, align 8
  %b = alloca %class.anon, align 8
${callToDefinition('cc_a', 'a', [-1, 5])}
${callToDefinition('cc_b', 'b', [-2, 251660032])}
  ret void
}

${callerDefinition('cc_a', 'action_a', 2)}
${callerDefinition('cc_b', 'action_b', 2)}
${actionDefinition('action_a')}
${actionDefinition('action_b')}
${CALLER_ATTRIBUTES}`;

describe('rewriteConditionalCallers', () => {
  it('reproduces intel/llvm on conditional-call-on-device-1.ll, byte for byte apart from the kept marker attribute', () => {
    const module = parse(fixture('conditional-call-on-device-1/input.ll'));
    const result = rewriteConditionalCallers(module, { uniquePrefix: 'PREFIX', markDeclarations: false });
    expect(result.diagnostics).toEqual([]);
    expect(print(module)).toBe(fixture('conditional-call-on-device-1/output.ll'));
  });

  it('numbers callers in module order, appends the declarations at the end and deletes the callers', () => {
    const module = parse(TWO_CALLERS);
    const result = rewriteConditionalCallers(module, { uniquePrefix: 'GUID' });
    expect(result.callers).toEqual([
      { caller: 'cc_a', action: 'action_a', declarations: ['cc_a_GUID_1'], calls: 1 },
      { caller: 'cc_b', action: 'action_b', declarations: ['cc_b_GUID_2'], calls: 1 },
    ]);
    expect(functionNames(module)).toEqual(['kernel', 'action_a', 'action_b', 'cc_a_GUID_1', 'cc_b_GUID_2']);
    expect(functionText(module, 'kernel')).toContain(
      'call spir_func void @cc_a_GUID_1(ptr @action_a, ptr %a, i32 -1, i32 5)\n  call spir_func void @cc_b_GUID_2(ptr @action_b, ptr %b, i32 -2, i32 251660032)',
    );
    expect(functionText(module, 'cc_b_GUID_2')).toBe('declare spir_func void @cc_b_GUID_2(ptr, ptr, i32, i32) #0');
    expect(print(module)).toContain('attributes #0 = { "sycl-call-if-on-device-conditionally"="true" }');
  });

  it('writes <caller>__<N> when the prefix is empty', () => {
    const module = parse(TWO_CALLERS);
    rewriteConditionalCallers(module);
    expect(functionNames(module).slice(-2)).toEqual(['cc_a__1', 'cc_b__2']);
  });

  it('rewrites every call site of a caller to one declaration, in place, keeping only the debug location', () => {
    const module = parse(`${PRELUDE}
define spir_kernel void @kernel() !dbg !5 {
entry:
  %a = alloca %class.anon, align 8
  %b = alloca %class.anon, align 8
${callToDefinition('cc', 'a', [-1, 5], ', !dbg !8, !srcloc !9')}
  store i32 0, ptr %b, align 4
${callToDefinition('cc', 'b', [-1, 6], ', !dbg !10')}
  ret void
}

define spir_func void @other() {
entry:
  %c = alloca %class.anon, align 8
${callToDefinition('cc3', 'c', [-3, -1, 5])}
  ret void
}

${callerDefinition('cc', 'action', 2)}
define internal spir_func void @cc3(ptr noundef byval(%class.anon) align 8 %fn, i32 %0, i32 %1, i32 %2) #0 {
entry:
  %fn.ascast = addrspacecast ptr %fn to ptr addrspace(4)
  call spir_func void @action(ptr addrspace(4) %fn.ascast)
  ret void
}
${actionDefinition('action')}
${CALLER_ATTRIBUTES}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!4}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.cpp", directory: "/src")
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "kernel", scope: !1, file: !1, line: 1, type: !6, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 3, column: 5, scope: !5)
!9 = !{i32 42}
!10 = !DILocation(line: 4, column: 5, scope: !5)
`);
    const result = rewriteConditionalCallers(module, { uniquePrefix: 'P' });
    expect(result.callers.map((c) => [c.caller, c.declarations, c.calls])).toEqual([
      ['cc', ['cc_P_1'], 2],
      ['cc3', ['cc3_P_2'], 1],
    ]);
    const kernel = functionText(module, 'kernel');
    const lines = kernel.split('\n').map((line) => line.replace(/!dbg !\d+/, '!dbg !N'));
    expect(lines.slice(4, 7)).toEqual([
      '  call spir_func void @cc_P_1(ptr @action, ptr %a, i32 -1, i32 5), !dbg !N',
      '  store i32 0, ptr %b, align 4',
      '  call spir_func void @cc_P_1(ptr @action, ptr %b, i32 -1, i32 6), !dbg !N',
    ]);
    expect(kernel).not.toContain('srcloc');
    expect(functionText(module, 'other')).toContain('call spir_func void @cc3_P_2(ptr @action, ptr %c, i32 -3, i32 -1, i32 5)\n');
    expect(functionText(module, 'cc3_P_2')).toBe('declare spir_func void @cc3_P_2(ptr, ptr, i32, i32, i32) #0');
  });

  it('rewrites nested conditional callers: the action of one holds a call to the other', () => {
    const module = parse(`${PRELUDE}
define spir_kernel void @kernel() {
entry:
  %a = alloca %class.anon, align 8
${callToDefinition('cc_outer', 'a', [-1, 5])}
  ret void
}

${callerDefinition('cc_outer', 'action_a', 2)}
${actionDefinition('action_a', `  %b = alloca %class.anon, align 8\n${callToDefinition('cc_inner', 'b', [-2, 251660032])}\n`)}
${callerDefinition('cc_inner', 'action_b', 2)}
${actionDefinition('action_b')}
${CALLER_ATTRIBUTES}`);
    const result = rewriteConditionalCallers(module, { uniquePrefix: 'X' });
    expect(result.callers.map((c) => c.declarations[0])).toEqual(['cc_outer_X_1', 'cc_inner_X_2']);
    expect(functionText(module, 'kernel')).toContain('call spir_func void @cc_outer_X_1(ptr @action_a, ptr %a, i32 -1, i32 5)');
    expect(functionText(module, 'action_a')).toContain('call spir_func void @cc_inner_X_2(ptr @action_b, ptr %b, i32 -2, i32 251660032)');
    expect(functionNames(module)).toEqual(['kernel', 'action_a', 'action_b', 'cc_outer_X_1', 'cc_inner_X_2']);
  });

  it('creates the declaration of a caller nobody calls', () => {
    const module = parse(`${PRELUDE}${callerDefinition('cc', 'action', 1)}${actionDefinition('action')}${CALLER_ATTRIBUTES}`);
    const result = rewriteConditionalCallers(module, { uniquePrefix: 'P' });
    expect(result.callers).toEqual([{ caller: 'cc', action: 'action', declarations: ['cc_P_1'], calls: 0 }]);
    expect(functionText(module, 'cc_P_1')).toBe('declare spir_func void @cc_P_1(ptr, ptr, i32) #0');
  });

  it('gives the declaration no attributes at all when markDeclarations is false, as intel/llvm does', () => {
    const module = parse(TWO_CALLERS);
    rewriteConditionalCallers(module, { uniquePrefix: 'P', markDeclarations: false });
    expect(functionText(module, 'cc_a_P_1')).toBe('declare spir_func void @cc_a_P_1(ptr, ptr, i32, i32)');
    expect(print(module)).not.toContain('sycl-call-if-on-device-conditionally');
  });

  it('ignores intrinsic calls when looking for the action', () => {
    const module = parse(`${PRELUDE}
define internal spir_func void @cc(ptr noundef byval(%class.anon) align 8 %fn, i32 %0, i32 %1) #0 {
entry:
  call void @llvm.lifetime.start.p0(i64 8, ptr %fn)
  %fn.ascast = addrspacecast ptr %fn to ptr addrspace(4)
  call spir_func void @action(ptr addrspace(4) %fn.ascast)
  call void @llvm.lifetime.end.p0(i64 8, ptr %fn)
  ret void
}
${actionDefinition('action')}
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture)
${CALLER_ATTRIBUTES}`);
    const result = rewriteConditionalCallers(module);
    expect(result.diagnostics).toEqual([]);
    expect(result.callers.map((c) => c.action)).toEqual(['action']);
  });

  it('leaves kernels, declarations and unmarked functions alone, so a second run changes nothing', () => {
    const module = parse(TWO_CALLERS);
    rewriteConditionalCallers(module, { uniquePrefix: 'P' });
    const once = print(module);
    const again = rewriteConditionalCallers(module, { uniquePrefix: 'P' });
    expect(again).toEqual({ changed: false, callers: [], diagnostics: [] });
    expect(print(module)).toBe(once);

    const kernel = parse(`define spir_kernel void @k() #0 {\nentry:\n  call void @f()\n  ret void\n}\ndeclare void @f()\n${CALLER_ATTRIBUTES}`);
    expect(rewriteConditionalCallers(kernel).changed).toBe(false);
  });

  it('reports a caller without exactly one direct call and leaves it alone, without giving it a number', () => {
    const module = parse(`${PRELUDE}
define internal spir_func void @two_calls(ptr %fn, i32 %0) #0 {
entry:
  call spir_func void @action(ptr addrspace(4) null)
  call spir_func void @action(ptr addrspace(4) null)
  ret void
}
define internal spir_func void @indirect(ptr %fn, i32 %0) #0 {
entry:
  call spir_func void %fn(ptr addrspace(4) null)
  ret void
}
${callerDefinition('good', 'action', 1)}
${actionDefinition('action')}
${CALLER_ATTRIBUTES}`);
    const result = rewriteConditionalCallers(module, { uniquePrefix: 'P' });
    expect(result.diagnostics.map((p) => [p.code, p.severity, p.location?.function])).toEqual([
      ['conditional-caller-malformed', 'error', 'two_calls'],
      ['conditional-caller-malformed', 'error', 'indirect'],
    ]);
    expect(result.diagnostics[0]!.message).toContain('exactly one call (intrinsics aside), found 2');
    expect(result.diagnostics[1]!.message).toContain('does not call its action directly');
    expect(result.callers.map((c) => c.declarations)).toEqual([['good_P_1']]);
    expect(functionNames(module)).toEqual(['two_calls', 'indirect', 'action', 'good_P_1']);
  });

  it('reports a caller used other than as a callee and leaves it and its calls alone', () => {
    const module = parse(`${PRELUDE}
@table = internal global ptr @cc
define spir_kernel void @kernel() {
entry:
  %a = alloca %class.anon, align 8
${callToDefinition('cc', 'a', [-1, 5])}
  ret void
}
${callerDefinition('cc', 'action', 2)}
${actionDefinition('action')}
${CALLER_ATTRIBUTES}`);
    const before = print(module);
    const result = rewriteConditionalCallers(module);
    expect(result.diagnostics.map((p) => p.code)).toEqual(['conditional-caller-address-taken']);
    expect(result.diagnostics[0]!.message).toContain('the initializer of @table');
    expect(result.changed).toBe(false);
    expect(print(module)).toBe(before);
  });

  it('redirects uses of a non-void call to the new call', () => {
    const module = parse(`${PRELUDE}
define spir_func i32 @user(ptr %a) {
entry:
  %r = call spir_func i32 @cc(ptr %a, i32 -1, i32 5)
  %s = add i32 %r, 1
  ret i32 %s
}
define internal spir_func i32 @cc(ptr %fn, i32 %0, i32 %1) #0 {
entry:
  %v = call spir_func i32 @action(ptr %fn)
  ret i32 %v
}
define internal spir_func i32 @action(ptr %this) {
entry:
  ret i32 7
}
${CALLER_ATTRIBUTES}`);
    rewriteConditionalCallers(module, { uniquePrefix: 'P' });
    expect(functionText(module, 'user')).toContain('  %0 = call spir_func i32 @cc_P_1(ptr @action, ptr %a, i32 -1, i32 5)\n  %s = add i32 %0, 1');
  });

  describe('normalize', () => {
    const withCondition = (...conditions: number[][]): string => `${PRELUDE}
define spir_kernel void @kernel() {
entry:
${conditions.map((_, i) => `  %c${i} = alloca %class.anon, align 8`).join('\n')}
${conditions.map((condition, i) => callToDefinition('cc', `c${i}`, condition)).join('\n')}
  ret void
}
${callerDefinition('cc', 'action', conditions[0]!.length)}
${actionDefinition('action')}
${CALLER_ATTRIBUTES}`;

    it('is off by default: conditions stay as written', () => {
      const module = parse(withCondition([-4, -1, 6, -1, 5]));
      rewriteConditionalCallers(module);
      expect(functionText(module, 'kernel')).toContain('i32 -4, i32 -1, i32 6, i32 -1, i32 5)');
    });

    it('rewrites a condition to its normal form when it keeps its length', () => {
      const module = parse(withCondition([-4, -1, 6, -1, 5]));
      const result = rewriteConditionalCallers(module, { normalize: true });
      expect(result.diagnostics).toEqual([]);
      expect(functionText(module, 'kernel')).toContain('@cc__1(ptr @action, ptr %c0, i32 -4, i32 -1, i32 5, i32 -1, i32 6)');
    });

    it('gives calls whose normal form is shorter a declaration of their own', () => {
      // if_architecture_is<pvc>(f0).else_if_architecture_is<dg1>(f1): the else_if condition is
      // !arch(pvc) && arch(dg1), which normalizes to arch(dg1).
      const module = parse(withCondition([-4, -3, -2, 251660032, -2, 41943040], [-3, -4, -1, 5, -1, 5]));
      const result = rewriteConditionalCallers(module, { uniquePrefix: 'P', normalize: true });
      expect(result.callers).toEqual([{ caller: 'cc', action: 'action', declarations: ['cc_P_1', 'cc_P_1_2'], calls: 2 }]);
      const kernel = functionText(module, 'kernel');
      expect(kernel).toContain('call spir_func void @cc_P_1(ptr @action, ptr %c0, i32 -2, i32 41943040)');
      expect(kernel).toContain('call spir_func void @cc_P_1_2(ptr @action, ptr %c1, i32 -3, i32 -1, i32 5)');
      expect(functionText(module, 'cc_P_1')).toBe('declare spir_func void @cc_P_1(ptr, ptr, i32, i32) #0');
      expect(functionText(module, 'cc_P_1_2')).toBe('declare spir_func void @cc_P_1_2(ptr, ptr, i32, i32, i32) #0');
    });

    it('writes always-true and always-false conditions in their canonical six-value forms', () => {
      const module = parse(withCondition([-5, -1, 5, -3, -1, 5], [-4, -2, 0, -2, 41943040]));
      rewriteConditionalCallers(module, { normalize: true });
      const kernel = functionText(module, 'kernel');
      expect(kernel).toContain('ptr %c0, i32 -5, i32 -1, i32 0, i32 -3, i32 -1, i32 0)');
      expect(kernel).toContain('ptr %c1, i32 -4, i32 -1, i32 0, i32 -3, i32 -1, i32 0)');
    });

    it('keeps a condition that does not decode, with a warning', () => {
      const module = parse(withCondition([0, 0]));
      const result = rewriteConditionalCallers(module, { normalize: true });
      expect(result.diagnostics.map((p) => [p.code, p.severity, p.location?.function])).toEqual([['condition-undecodable', 'warning', 'kernel']]);
      expect(functionText(module, 'kernel')).toContain('@cc__1(ptr @action, ptr %c0, i32 0, i32 0)');
    });
  });
});

describe('conditionalCallOnDevicePass', () => {
  const registry = createRegistry({ unitKinds: [moduleKind], passes: [conditionalCallOnDevicePass] });
  const run = (pipeline: string, flags: [string, string | undefined][], text: string) => {
    const module = parse(text);
    const result = registry.build(registry.parse(pipeline), { flags: registry.parseFlags(flags) }).run(module, { file: 'test.ll' });
    return { module, result };
  };

  it('takes the prefix from the cl::opt flag, which overrides the unique-prefix option', () => {
    expect(functionNames(run('sycl-conditional-call-on-device', [['sycl-conditional-call-on-device-unique-prefix', 'F']], TWO_CALLERS).module)).toContain('cc_a_F_1');
    expect(functionNames(run('sycl-conditional-call-on-device<unique-prefix=O>', [], TWO_CALLERS).module)).toContain('cc_a_O_1');
    expect(
      functionNames(run('sycl-conditional-call-on-device<unique-prefix=O>', [['sycl-conditional-call-on-device-unique-prefix', 'F']], TWO_CALLERS).module),
    ).toContain('cc_a_F_1');
  });

  it('prints its options canonically, defaults filled in', () => {
    expect(registry.print(registry.parse('sycl-conditional-call-on-device<normalize>'))).toBe(
      'sycl-conditional-call-on-device<unique-prefix=;normalize;mark-declarations>',
    );
  });

  it('reports problems as diagnostics of the pass, with their codes', () => {
    const text = `define internal void @cc(ptr %fn, i32 %0) #0 {\nentry:\n  ret void\n}\n${CALLER_ATTRIBUTES}`;
    const { result } = run('sycl-conditional-call-on-device', [], text);
    expect(result.diagnostics.map((d) => [d.pass, d.code, d.severity, d.location?.function])).toEqual([
      ['sycl-conditional-call-on-device', 'conditional-caller-malformed', 'error', 'cc'],
    ]);
  });
});
