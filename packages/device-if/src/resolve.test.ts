import { DeviceConfig } from '@syclkit/device-config';
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
import { rewriteConditionalCallers } from './conditional-call-on-device.js';
import { deviceFacts } from './evaluate.js';
import { resolveConditionalCallsForTarget, resolveDeviceIfPass } from './resolve.js';
import { targetDeviceFacts } from './targets.js';

const PVC = 0x000000030f000700n;
const DG1 = 0x0000000302800000n;
const PVC_OPERAND = 251660032;
const config = DeviceConfig.builtin();

/**
 * After sycl-conditional-call-on-device: the kernel calls cc_1 (fp16) and cc_2 (arch(pvc)) with
 * actions a1 (uses fp16) and a2 (uses fp64). `extra` goes at the end of the kernel.
 */
function rewritten(extra = ''): string {
  return `${PRELUDE}
define spir_kernel void @kernel() !sycl_conditionally_used_aspects !10 {
entry:
  %x = alloca %class.anon, align 8
  %y = alloca %class.anon, align 8
  call spir_func void @cc_1(ptr @a1, ptr %x, i32 -1, i32 5), !dbg !8
  call spir_func void @cc_2(ptr @a2, ptr %y, i32 -2, i32 ${PVC_OPERAND})
${extra}  ret void
}

${actionDefinition('a1', '', '!sycl_used_aspects !1')}
${actionDefinition('a2', '', '!sycl_used_aspects !2')}
declare spir_func void @cc_1(ptr, ptr, i32, i32) #0
declare spir_func void @cc_2(ptr, ptr, i32, i32) #0
${CALLER_ATTRIBUTES}
!llvm.module.flags = !{!4}
!1 = !{i32 5}
!2 = !{i32 6}
!3 = !DIFile(filename: "t.cpp", directory: "/src")
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !3, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!6 = distinct !DISubprogram(name: "kernel", scope: !3, file: !3, line: 1, spFlags: DISPFlagDefinition, unit: !5)
!8 = !DILocation(line: 12, column: 7, scope: !6)
!10 = !{!11}
!11 = !{!12, !1}
!12 = !{i32 -1, i32 5}
`;
}

/** Aspect numbers of a function's !sycl_used_aspects, as printed. */
function usedAspects(text: string): string | undefined {
  return /!sycl_used_aspects (![0-9]+)/.exec(text)?.[1];
}

describe('resolveConditionalCallsForTarget', () => {
  it('turns a call whose condition holds into a direct call of the action, casting the callable to its address space', () => {
    const module = parse(rewritten());
    const result = resolveConditionalCallsForTarget(module, deviceFacts([5], DG1), { updateAspects: false });
    expect(result.calls).toEqual([
      { function: 'kernel', caller: 'cc_1', action: 'a1', condition: [-1, 5], outcome: 'called' },
      { function: 'kernel', caller: 'cc_2', action: 'a2', condition: [-2, PVC_OPERAND], outcome: 'removed' },
    ]);
    expect(result.diagnostics).toEqual([]);
    const kernel = functionText(module, 'kernel');
    expect(kernel).toMatch(/ {2}%0 = addrspacecast ptr %x to ptr addrspace\(4\), !dbg !\d+\n {2}call spir_func void @a1\(ptr addrspace\(4\) %0\), !dbg !\d+\n {2}ret void/);
    expect(kernel).not.toContain('@a2');
  });

  it('deletes the conditional callers nothing calls any more, and keeps those still called', () => {
    const module = parse(rewritten());
    const result = resolveConditionalCallsForTarget(module, deviceFacts([5], DG1));
    expect(result.removedCallers).toEqual(['cc_1', 'cc_2']);
    expect(functionNames(module)).toEqual(['kernel', 'a1', 'a2']);

    const partly = parse(rewritten('  call spir_func void @cc_2(ptr @a2, ptr %y, i32 0, i32 0)\n'));
    const kept = resolveConditionalCallsForTarget(partly, deviceFacts([5], DG1));
    expect(kept.removedCallers).toEqual(['cc_1']);
    expect(functionNames(partly)).toContain('cc_2');
  });

  it("adds the called actions' aspects to the functions that reach them, and drops the conditional aspects once none are left", () => {
    const module = parse(rewritten());
    const result = resolveConditionalCallsForTarget(module, deviceFacts([5, 6], PVC));
    expect([...result.addedAspects]).toEqual([['kernel', [5, 6]]]);
    const printed = print(module);
    const kernel = functionText(module, 'kernel');
    expect(printed).toContain(`${usedAspects(kernel)} = !{i32 5, i32 6}`);
    expect(kernel).not.toContain('sycl_conditionally_used_aspects');
  });

  it('keeps !sycl_conditionally_used_aspects while a conditional call is left', () => {
    const module = parse(rewritten('  call spir_func void @cc_2(ptr @a2, ptr %y, i32 0, i32 0)\n'));
    resolveConditionalCallsForTarget(module, deviceFacts([5, 6], PVC));
    expect(functionText(module, 'kernel')).toContain('!sycl_conditionally_used_aspects');
  });

  it('appends to an existing !sycl_used_aspects in its own style (named pairs here)', () => {
    const text = rewritten()
      .replace('define spir_kernel void @kernel() !sycl_conditionally_used_aspects !10', 'define spir_kernel void @kernel() !sycl_used_aspects !20')
      .concat('!20 = !{!21}\n!21 = !{!"atomic64", i32 28}\n!sycl_aspects = !{!22, !23}\n!22 = !{!"fp16", i32 5}\n!23 = !{!"fp64", i32 6}\n');
    const module = parse(text);
    resolveConditionalCallsForTarget(module, deviceFacts([5, 6], PVC));
    const printed = print(module);
    expect(printed).toMatch(/!\d+ = !\{!\d+, !\d+, !\d+\}/);
    expect(printed).toContain('!{!"atomic64", i32 28}');
    expect(printed).toMatch(/!\{!"fp16", i32 5\}/);
    const node = new RegExp(`^${usedAspects(functionText(module, 'kernel'))} = (.*)$`, 'm').exec(printed)![1]!;
    const parts = node.match(/!\d+/g)!.map((ref) => new RegExp(`^${ref} = (.*)$`, 'm').exec(printed)![1]);
    expect(parts).toEqual(['!{!"atomic64", i32 28}', '!{!"fp16", i32 5}', '!{!"fp64", i32 6}']);
  });

  describe('nested conditional callers (ExpA AND ExpB)', () => {
    // kernel --cc_a[fp16]--> action_a --cc_b[arch(pvc)]--> action_b
    const nested = (): string => `${PRELUDE}
define spir_kernel void @kernel() {
entry:
  %a = alloca %class.anon, align 8
  call spir_func void @cc_a(ptr @action_a, ptr %a, i32 -1, i32 5)
  ret void
}
${actionDefinition('action_a', `  %b = alloca %class.anon, align 8\n  call spir_func void @cc_b(ptr @action_b, ptr %b, i32 -2, i32 ${PVC_OPERAND})\n`, '!sycl_used_aspects !1')}
${actionDefinition('action_b', '', '!sycl_used_aspects !2')}
declare spir_func void @cc_a(ptr, ptr, i32, i32) #0
declare spir_func void @cc_b(ptr, ptr, i32, i32) #0
${CALLER_ATTRIBUTES}
!1 = !{i32 5}
!2 = !{i32 6}
`;
    const cases = [
      { name: 'both hold: the kernel reaches both actions', facts: deviceFacts([5], PVC), kernel: [5, 6], calls: ['called', 'called'] },
      { name: 'only ExpA holds: the kernel reaches action_a only', facts: deviceFacts([5], DG1), kernel: [5], calls: ['called', 'removed'] },
      { name: 'only ExpB holds: the kernel reaches neither', facts: deviceFacts([], PVC), kernel: [], calls: ['removed', 'called'] },
      { name: 'neither holds', facts: deviceFacts([], DG1), kernel: [], calls: ['removed', 'removed'] },
    ] as const;
    for (const c of cases) {
      it(c.name, () => {
        const module = parse(nested());
        const result = resolveConditionalCallsForTarget(module, c.facts);
        expect(result.calls.map((call) => [call.function, call.outcome])).toEqual([
          ['kernel', c.calls[0]],
          ['action_a', c.calls[1]],
        ]);
        expect(result.addedAspects.get('kernel') ?? []).toEqual(c.kernel);
        expect(functionText(module, 'kernel').includes('call spir_func void @action_a(')).toBe(c.calls[0] === 'called');
        expect(functionText(module, 'action_a').includes('call spir_func void @action_b(')).toBe(c.calls[1] === 'called');
        // action_a gains action_b's aspect exactly when its own call to action_b stays.
        expect(result.addedAspects.get('action_a') ?? []).toEqual(c.calls[1] === 'called' ? [6] : []);
      });
    }
  });

  it('decides each call site of one caller separately', () => {
    const module = parse(`${PRELUDE}
define spir_kernel void @kernel() {
entry:
  %p = alloca %class.anon, align 8
  %q = alloca %class.anon, align 8
  %r = alloca %class.anon, align 8
  call spir_func void @cc(ptr @act, ptr %p, i32 -1, i32 5)
  call spir_func void @cc(ptr @act, ptr %q, i32 -1, i32 6)
  call spir_func void @cc(ptr @act, ptr %r, i32 -3, i32 -1, i32 6)
  ret void
}
${actionDefinition('act')}
declare spir_func void @cc(ptr, ptr, ...) #0
${CALLER_ATTRIBUTES}`.replace(/call spir_func void @cc\(/g, 'call spir_func void (ptr, ptr, ...) @cc('));
    const result = resolveConditionalCallsForTarget(module, deviceFacts([5], DG1));
    expect(result.calls.map((c) => [c.condition, c.outcome])).toEqual([
      [[-1, 5], 'called'],
      [[-1, 6], 'removed'],
      [[-3, -1, 6], 'called'],
    ]);
    const kernel = functionText(module, 'kernel');
    expect(kernel).toContain('addrspacecast ptr %p to ptr addrspace(4)');
    expect(kernel).not.toContain('%q to');
    expect(kernel).toContain('addrspacecast ptr %r to ptr addrspace(4)');
  });

  it('resolves calls to caller definitions the rewrite pass has not seen, with the same outcome', () => {
    const before = `${PRELUDE}
define spir_kernel void @kernel() {
entry:
  %a = alloca %class.anon, align 8
  %b = alloca %class.anon, align 8
${callToDefinition('cc_a', 'a', [-1, 5])}
${callToDefinition('cc_b', 'b', [-2, PVC_OPERAND])}
  ret void
}
${callerDefinition('cc_a', 'action_a', 2)}
${callerDefinition('cc_b', 'action_b', 2)}
${actionDefinition('action_a')}
${actionDefinition('action_b')}
${CALLER_ATTRIBUTES}`;
    const direct = parse(before);
    const viaPass = parse(before);
    rewriteConditionalCallers(viaPass, { uniquePrefix: 'P' });
    const facts = deviceFacts([5], DG1);
    const a = resolveConditionalCallsForTarget(direct, facts);
    const b = resolveConditionalCallsForTarget(viaPass, facts);
    expect(a.calls.map((c) => [c.action, c.outcome])).toEqual(b.calls.map((c) => [c.action, c.outcome]));
    expect(functionText(direct, 'kernel')).toBe(functionText(viaPass, 'kernel'));
    expect(functionNames(direct)).toEqual(['kernel', 'action_a', 'action_b']);
  });

  it('keeps and reports calls it cannot decide, decode or read', () => {
    const module = parse(
      rewritten('  call spir_func void @cc_2(ptr @a2, ptr %y, i32 0, i32 0)\n  %n = add i32 1, 2\n  call spir_func void @cc_2(ptr @a2, ptr %y, i32 -1, i32 %n)\n'),
    );
    const spir64Gen = targetDeviceFacts(config, 'spir64_gen');
    const result = resolveConditionalCallsForTarget(module, spir64Gen);
    expect(result.calls.map((c) => c.outcome)).toEqual(['kept', 'kept', 'kept', 'kept']);
    expect(result.diagnostics.map((p) => [p.code, p.severity])).toEqual([
      ['condition-undecided', 'error'],
      ['condition-undecided', 'error'],
      ['condition-undecodable', 'error'],
      ['condition-not-constant', 'error'],
    ]);
    expect(result.diagnostics[0]!.message).toBe(
      "'spir64_gen' cannot decide 'fp16' (the call to 'cc_1' with action 'a1'): it may or may not hold on its devices",
    );
    expect(result.diagnostics[0]!.location?.debugLoc).toEqual({ line: 12, column: 7, file: 't.cpp', scope: 'kernel' });
    expect(result.diagnostics[1]!.message).toContain("cannot decide 'arch(intel_gpu_pvc)'");
    expect(result.changed).toBe(false);
  });

  it('decides every condition for a target with a fixed architecture and a closed aspect list', () => {
    const result = resolveConditionalCallsForTarget(parse(rewritten()), targetDeviceFacts(config, 'intel_gpu_pvc'));
    expect(result.calls.map((c) => c.outcome)).toEqual(['called', 'called']);
    expect(result.diagnostics).toEqual([]);
  });

  it('warns when the target matches an architecture operand that stands for several architectures', () => {
    const module = parse(rewritten().replace(`i32 -2, i32 ${PVC_OPERAND}`, 'i32 -2, i32 0'));
    const result = resolveConditionalCallsForTarget(module, targetDeviceFacts(config, 'intel_gpu_tgllp'));
    expect(result.calls[1]!.outcome).toBe('called');
    expect(result.diagnostics.map((p) => [p.code, p.severity])).toEqual([['condition-ambiguous-architecture', 'warning']]);
    expect(result.diagnostics[0]!.message).toContain('stands for x86_64, intel_gpu_bdw, intel_gpu_tgllp');
    // A target that does not match the operand gets no warning.
    const other = resolveConditionalCallsForTarget(parse(rewritten().replace(`i32 -2, i32 ${PVC_OPERAND}`, 'i32 -2, i32 0')), deviceFacts([], DG1));
    expect(other.diagnostics).toEqual([]);
  });

  it('keeps a call whose action cannot take the callable object', () => {
    const module = parse(`${PRELUDE}
define spir_kernel void @kernel() {
entry:
  %a = alloca %class.anon, align 8
  call spir_func void @cc(ptr @two, ptr %a, i32 -1, i32 5)
  call spir_func void @cc(ptr @int, ptr %a, i32 -1, i32 5)
  call spir_func void @cc(ptr @none, ptr %a, i32 -1, i32 5)
  ret void
}
define internal spir_func void @two(ptr %x, ptr %y) {
entry:
  ret void
}
define internal spir_func void @int(i32 %x) {
entry:
  ret void
}
define internal spir_func void @none() {
entry:
  ret void
}
declare spir_func void @cc(ptr, ptr, i32, i32) #0
${CALLER_ATTRIBUTES}`);
    const result = resolveConditionalCallsForTarget(module, deviceFacts([5], DG1));
    expect(result.calls.map((c) => c.outcome)).toEqual(['kept', 'kept', 'called']);
    expect(result.diagnostics.map((p) => p.code)).toEqual(['conditional-action-mismatch', 'conditional-action-mismatch']);
    expect(result.diagnostics[0]!.message).toContain("action 'two' of the call to 'cc' takes 2 parameters");
    expect(result.diagnostics[1]!.message).toContain("action 'int' of the call to 'cc' takes an i32, but the callable object is a pointer");
    expect(functionText(module, 'kernel')).toContain('call spir_func void @none()');
  });

  it("recognizes intel/llvm's own output, whose declarations carry no attribute, by name", () => {
    const module = parse(`${PRELUDE}
define spir_kernel void @kernel() {
entry:
  %a = alloca %class.anon, align 8
  call spir_func void @call_if_on_device_conditionally_G_1(ptr @act, ptr %a, i32 -1, i32 5)
  ret void
}
${actionDefinition('act')}
declare spir_func void @call_if_on_device_conditionally_G_1(ptr, ptr, i32, i32)
`);
    const result = resolveConditionalCallsForTarget(module, deviceFacts([], DG1));
    expect(result.calls.map((c) => c.outcome)).toEqual(['removed']);
    expect(functionNames(module)).toEqual(['kernel', 'act']);
  });
});

describe('resolveDeviceIfPass', () => {
  const registry = createRegistry({ unitKinds: [moduleKind], passes: [resolveDeviceIfPass] });
  const run = (pipeline: string, text: string) => {
    const module = parse(text);
    const result = registry.build(registry.parse(pipeline)).run(module, { file: 'test.ll' });
    return { module, result };
  };

  it('resolves for a target of the built-in configuration', () => {
    const { module, result } = run('sycl-resolve-device-if<target=intel_gpu_dg1>', rewritten());
    expect(result.diagnostics).toEqual([]);
    const kernel = functionText(module, 'kernel');
    expect(kernel).toContain('call spir_func void @a1(');
    expect(kernel).not.toContain('@a2');
  });

  it("reads aspect numbers with the module's !sycl_aspects first", () => {
    // The module numbers fp16 as 100: [-1, 100] asks for fp16, which pvc has …
    const table = '!sycl_aspects = !{!30}\n!30 = !{!"fp16", i32 100}\n';
    const renumbered = run('sycl-resolve-device-if<target=intel_gpu_pvc>', rewritten().replace('i32 -1, i32 5)', 'i32 -1, i32 100)').concat(table));
    expect(functionText(renumbered.module, 'kernel')).toContain('call spir_func void @a1(');
    // … and [-1, 5] no longer names an aspect pvc has.
    const stale = run('sycl-resolve-device-if<target=intel_gpu_pvc>', rewritten().concat(table));
    expect(functionText(stale.module, 'kernel')).not.toContain('@a1(');
    expect(stale.result.diagnostics).toEqual([]);
  });

  it('rejects a missing, unknown or JIT target when the pipeline is parsed', () => {
    expect(() => registry.parse('sycl-resolve-device-if')).toThrow(/needs a target/);
    expect(() => registry.parse('sycl-resolve-device-if<target=intel_gpu_pvcc>')).toThrow(/unknown SYCL target 'intel_gpu_pvcc'; did you mean 'intel_gpu_pvc'/);
    expect(() => registry.parse('sycl-resolve-device-if<target=spir64>')).toThrow(/not an AOT target/);
  });

  it('reports what it could not resolve as diagnostics with codes and locations', () => {
    const { result } = run('sycl-resolve-device-if<target=spir64_gen>', rewritten());
    expect(result.diagnostics.map((d) => [d.pass, d.code, d.severity, d.location?.function, d.location?.debugLoc?.line])).toEqual([
      ['sycl-resolve-device-if', 'condition-undecided', 'error', 'kernel', 12],
      ['sycl-resolve-device-if', 'condition-undecided', 'error', 'kernel', undefined],
    ]);
  });

  it('says it preserved everything when the module has no conditional calls, and nothing when it changed it', () => {
    const untouched = run('sycl-resolve-device-if<target=intel_gpu_pvc>', 'define void @f() {\nentry:\n  ret void\n}\n');
    expect(untouched.result.preserved.areAllPreserved()).toBe(true);
    expect(run('sycl-resolve-device-if<target=intel_gpu_pvc>', rewritten()).result.preserved.areAllPreserved()).toBe(false);
  });
});
