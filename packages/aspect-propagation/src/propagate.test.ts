import { describe, expect, it } from 'vitest';
import { aspectsTable, parse, runPass } from '../test/helpers.js';
import { POST_OPTIMIZATION, PRE_OPTIMIZATION, propagateAspectsUsage } from './propagate.js';

const TYPES = `%A = type { i32 }
%B = type { i32 }
%C = type { i32 }
%D = type { i32 }
`;
const TYPE_MD = `!sycl_types_that_use_aspects = !{!800, !801, !802, !803}
!800 = !{!"A", i32 1}
!801 = !{!"B", i32 2}
!802 = !{!"C", i32 3}
!803 = !{!"D", i32 4, i32 5}
`;
const ir = (body: string, extra = ''): string => `${TYPES}${body}\n${TYPE_MD}${aspectsTable()}${extra}`;

describe('direct uses', () => {
  it('counts the allocated type of an alloca', () => {
    const r = runPass(ir('define void @f() {\n  %x = alloca %A\n  ret void\n}'));
    expect(r.used('f')).toEqual([1]);
  });

  it('counts the source element type of a GEP on an opaque pointer', () => {
    const r = runPass(ir('define void @f(ptr %p) {\n  %q = getelementptr inbounds %B, ptr %p, i32 0, i32 0\n  ret void\n}'));
    expect(r.used('f')).toEqual([2]);
  });

  it('counts the value type of a global operand, also behind an address-space cast', () => {
    const r = runPass(
      ir(`@g = internal addrspace(3) global %C undef
define void @load() {
  %v = load ptr addrspace(3), ptr addrspace(3) @g
  ret void
}
declare void @ext(ptr addrspace(4))
define void @cast() {
  call void @ext(ptr addrspace(4) addrspacecast (ptr addrspace(3) @g to ptr addrspace(4)))
  ret void
}`),
    );
    expect(r.used('load')).toEqual([3]);
    expect(r.used('cast')).toEqual([3]);
  });

  it("counts the callee's function type (return and parameter types) at a call", () => {
    const r = runPass(ir('declare void @takesA(%A)\ndefine void @f() {\n  call void @takesA(%A zeroinitializer)\n  ret void\n}'));
    expect(r.used('takesA')).toEqual([1]);
    expect(r.used('f')).toEqual([1]);
  });

  it('counts return and argument types, also of declarations', () => {
    const r = runPass(ir('declare %B @ret()\ndeclare void @arg(i32, %C)'));
    expect(r.used('ret')).toEqual([2]);
    expect(r.used('arg')).toEqual([3]);
  });

  it("adds an instruction's !sycl_used_aspects, negative (internal) aspects included", () => {
    const r = runPass(ir('declare void @llvm.fpbuiltin.f64()\ndefine void @f() {\n  call void @llvm.fpbuiltin.f64(), !sycl_used_aspects !1\n  ret void\n}', '!1 = !{i32 -1, i32 7}\n'));
    expect(r.used('f')).toEqual([-1, 7]);
  });

  it("keeps the function's own !sycl_used_aspects (__uses_aspects__) after what its body uses", () => {
    const r = runPass(ir('define void @f() !sycl_used_aspects !1 {\n  %x = alloca %B\n  ret void\n}', '!1 = !{i32 9}\n'));
    expect(r.used('f')).toEqual([2, 9]);
  });

  it('inserts in the order return type, arguments, instructions, function metadata', () => {
    const r = runPass(ir('define %C @f(%B %b) !sycl_used_aspects !1 {\n  %x = alloca %A\n  ret %C zeroinitializer\n}', '!1 = !{i32 9}\n'));
    expect(r.used('f')).toEqual([3, 2, 1, 9]);
  });

  it('does not count pointers to types that use aspects', () => {
    const r = runPass(ir('%P = type { ptr }\ndefine void @f(ptr %p) {\n  %x = alloca %P\n  %y = alloca ptr\n  ret void\n}'));
    expect(r.used('f')).toBeUndefined();
  });

  it('reads instruction metadata written as (name, value) pairs, as RecordSYCLAspectNamesPass does', () => {
    const r = runPass(ir('define void @f() {\n  ret void, !sycl_used_aspects !1\n}', '!1 = !{!2}\n!2 = !{!"fp16", i32 5}\n'));
    expect(r.used('f')).toEqual([5]);
  });
});

describe('double and fp64', () => {
  it("takes fp64's value from !sycl_aspects", () => {
    const text = `define void @f() {\n  %x = alloca double\n  ret void\n}\n!sycl_aspects = !{!0}\n!0 = !{!"fp64", i32 12}\n`;
    expect(runPass(text).used('f')).toEqual([12]);
  });

  it('finds double in arrays, vectors and structs', () => {
    const r = runPass(
      ir(`%S = type { double }
define void @arr() {\n  %x = alloca [4 x double]\n  ret void\n}
define void @vec() {\n  %x = alloca <2 x double>\n  ret void\n}
define void @str() {\n  %x = alloca %S\n  ret void\n}`),
    );
    expect([r.used('arr'), r.used('vec'), r.used('str')]).toEqual([[6], [6], [6]]);
  });

  it('uses 6 when the module has no !sycl_aspects, silently', () => {
    const r = runPass('define void @f() {\n  %x = alloca double\n  ret void\n}\n');
    expect(r.used('f')).toEqual([6]);
    expect(r.diagnostics).toEqual([]);
  });

  it('warns when !sycl_aspects lacks fp64, and uses 6', () => {
    const r = runPass('define void @f() {\n  %x = alloca double\n  ret void\n}\n!sycl_aspects = !{!0}\n!0 = !{!"gpu", i32 2}\n');
    expect(r.used('f')).toEqual([6]);
    expect(r.codes()).toEqual(['missing-fp64-aspect']);
  });

  it('with fp64 conversion emulation, skips fp64 for conversions but not for arithmetic', () => {
    const body = `define void @conv(float %f) {
  %d = fpext float %f to double
  %x = alloca double
  ret void
}
define double @arith(double %a) {
  %s = fadd double %a, %a
  ret double %s
}
define void @sig(double %a) {
  ret void
}`;
    const r = runPass(ir(body), { fp64ConvEmu: true });
    expect(r.used('conv')).toBeUndefined();
    expect(r.used('arith')).toEqual([6]);
    expect(r.used('sig')).toBeUndefined();
    expect(runPass(ir(body)).used('conv')).toEqual([6]);
  });
});

describe('propagation up the call graph', () => {
  it('gives every function its callees aspects (call-graph-1 shape)', () => {
    const r = runPass(
      ir(`define spir_kernel void @k1() {\n  call void @f1()\n  call void @f2()\n  ret void\n}
define spir_kernel void @k2() {\n  call void @f2()\n  call void @f3()\n  ret void\n}
define void @f1() {\n  ret void\n}
define void @f2() {\n  %x = alloca %A\n  ret void\n}
define void @f3() {\n  %x = alloca %B\n  ret void\n}`),
    );
    expect([r.used('k1'), r.used('k2'), r.used('f1'), r.used('f2'), r.used('f3')]).toEqual([[1], [1, 2], undefined, [1], [2]]);
  });

  it('orders five or more aspects ascending, like LLVM SmallSet', () => {
    const r = runPass(
      ir(`define void @top() {\n  %x = alloca %D\n  call void @mid()\n  ret void\n}
define void @mid() {\n  %x = alloca %C\n  call void @low()\n  ret void\n}
define void @low() {\n  %x = alloca %B\n  %y = alloca %A\n  ret void\n}`),
    );
    expect(r.used('mid')).toEqual([3, 2, 1]);
    expect(r.used('top')).toEqual([1, 2, 3, 4, 5]);
  });

  it('also closes functions that no kernel reaches (design), unlike intel/llvm', () => {
    const r = runPass(ir('define void @caller() {\n  call void @callee()\n  ret void\n}\ndefine void @callee() {\n  %x = alloca %A\n  ret void\n}'));
    expect(r.used('caller')).toEqual([1]);
  });

  it('gives every member of a recursive cycle the aspects of the whole cycle', () => {
    const r = runPass(
      ir(`define spir_kernel void @k() {\n  call void @a()\n  ret void\n}
define void @a() {\n  %x = alloca %A\n  call void @b()\n  ret void\n}
define void @b() {\n  %x = alloca %B\n  call void @a()\n  call void @c()\n  ret void\n}
define void @c() {\n  %x = alloca %C\n  ret void\n}`),
    );
    expect(new Set(r.used('a'))).toEqual(new Set([1, 2, 3]));
    expect(new Set(r.used('b'))).toEqual(new Set([1, 2, 3]));
    expect(new Set(r.used('k'))).toEqual(new Set([1, 2, 3]));
    expect(r.used('c')).toEqual([3]);
  });

  it('ignores invoke and indirect calls as call-graph edges', () => {
    const r = runPass(
      ir(`define void @viaInvoke() personality ptr null {
  invoke void @usesA() to label %ok unwind label %bad
ok:
  ret void
bad:
  %lp = landingpad { ptr, i32 } cleanup
  ret void
}
define void @viaPointer(ptr %fp) {\n  call void %fp()\n  ret void\n}
define void @usesA() {\n  %x = alloca %A\n  ret void\n}`),
    );
    expect(r.used('viaInvoke')).toBeUndefined();
    expect(r.used('viaPointer')).toBeUndefined();
  });
});

describe('declared aspects', () => {
  it('merges !sycl_declared_aspects into !sycl_used_aspects and propagates it, sharing the node', () => {
    const r = runPass(
      ir('define spir_kernel void @k() {\n  call void @f()\n  ret void\n}\ndefine void @f() !sycl_declared_aspects !1 {\n  ret void\n}', '!1 = !{i32 2}\n'),
    );
    expect(r.used('f')).toEqual([2]);
    expect(r.used('k')).toEqual([2]);
    expect(r.text).toMatch(/define void @f\(\) !sycl_declared_aspects (!\d+) !sycl_used_aspects \1 \{/);
  });

  it('writes used aspects on a declaration that declares aspects', () => {
    const r = runPass(ir('declare !sycl_declared_aspects !1 void @f()', '!1 = !{i32 2}\n'));
    expect(r.used('f')).toEqual([2]);
  });

  it('prints attachments in kind order: declared first when the input names it first', () => {
    const r = runPass(ir('define void @f() !sycl_declared_aspects !1 {\n  %x = alloca %A\n  ret void\n}', '!1 = !{i32 2}\n'));
    expect(r.text).toMatch(/@f\(\) !sycl_declared_aspects !\d+ !sycl_used_aspects !\d+ \{/);
  });
});

describe('excluded aspects (pre-optimization run)', () => {
  const chain = ir(`define spir_kernel void @k() {\n  call void @f()\n  ret void\n}
define void @f() {\n  %x = alloca double\n  %y = alloca %A\n  ret void\n}`);

  it('does not save an excluded aspect, given by name', () => {
    const r = runPass(chain, { excludeAspects: ['fp64'] });
    expect(r.used('f')).toEqual([1]);
    expect(r.used('k')).toEqual([1]);
  });

  it('accepts numbers as well as names', () => {
    expect(runPass(chain, { excludeAspects: ['6'] }).used('f')).toEqual([1]);
  });

  it('warns about an excluded name that !sycl_aspects does not know, and ignores it', () => {
    const r = runPass(chain, { excludeAspects: ['fp128'] });
    expect(r.used('f')).toEqual([6, 1]);
    expect(r.codes()).toEqual(['unknown-excluded-aspect']);
  });

  it('keeps an excluded aspect a function already listed, appended after the new ones', () => {
    const r = runPass(ir('define void @f() !sycl_used_aspects !1 {\n  %x = alloca %B\n  ret void\n}', '!1 = !{i32 4, i32 2}\n'), { excludeAspects: ['4'] });
    expect(r.used('f')).toEqual([2, 4]);
  });

  it('leaves a function whose only aspects are excluded untouched', () => {
    const r = runPass(ir('define void @f() !sycl_used_aspects !1 {\n  ret void\n}\ndefine void @g() {\n  call void @f()\n  ret void\n}', '!1 = !{i32 6}\n'), {
      excludeAspects: ['fp64'],
    });
    expect(r.used('f')).toEqual([6]);
    expect(r.used('g')).toBeUndefined();
  });

  it('never excludes declared aspects', () => {
    const r = runPass(ir('define void @f() !sycl_declared_aspects !1 {\n  ret void\n}\ndefine void @g() {\n  call void @f()\n  ret void\n}', '!1 = !{i32 6}\n'), {
      excludeAspects: ['fp64'],
    });
    expect(r.used('f')).toEqual([6]);
    expect(r.used('g')).toEqual([6]);
  });
});

describe('two-run scheme', () => {
  const text = ir(`define spir_kernel void @k() {\n  call void @f()\n  ret void\n}
define void @f() {\n  %x = alloca double\n  ret void\n}`);

  it('saves fp64 only in the post-optimization run (double-prop-after-exclude)', () => {
    const module = parse(text);
    propagateAspectsUsage(module, PRE_OPTIMIZATION.options);
    const pre = runPass(module, { validate: false, excludeAspects: ['fp64'] });
    expect(pre.used('f')).toBeUndefined();
    expect(pre.used('k')).toBeUndefined();
    const post = runPass(module, POST_OPTIMIZATION.options);
    expect(post.used('f')).toEqual([6]);
    expect(post.used('k')).toEqual([6]);
  });

  it('reports nothing in the post-optimization run', () => {
    const withDeclared = ir('define void @f() !sycl_declared_aspects !1 {\n  %x = alloca %A\n  ret void\n}', '!1 = !{}\n');
    expect(runPass(withDeclared).codes()).toEqual(['sycl-aspect-mismatch']);
    expect(runPass(withDeclared, POST_OPTIMIZATION.options).diagnostics).toEqual([]);
  });

  it('spells both runs as pipeline text', () => {
    expect(PRE_OPTIMIZATION.pipeline).toBe('sycl-propagate-aspects-usage<exclude-aspects=fp64>');
    expect(POST_OPTIMIZATION.pipeline).toBe('sycl-propagate-aspects-usage<no-validate>');
  });
});

describe('!sycl_fixed_targets', () => {
  const entries = ir(`define spir_kernel void @k() {\n  ret void\n}
define void @ext() #0 {\n  ret void\n}
define void @_Z20__spirv_SomeBuiltinv() #0 {\n  ret void\n}
define void @plain() {\n  ret void\n}
declare spir_kernel void @declared()
attributes #0 = { "sycl-module-id"="a.cpp" }`);

  it('attaches an empty list to every kernel and SYCL_EXTERNAL definition when no targets are given', () => {
    const r = runPass(entries);
    expect(r.list('k', 'sycl_fixed_targets')).toEqual([]);
    expect(r.list('ext', 'sycl_fixed_targets')).toEqual([]);
    expect(r.list('_Z20__spirv_SomeBuiltinv', 'sycl_fixed_targets')).toBeUndefined();
    expect(r.list('plain', 'sycl_fixed_targets')).toBeUndefined();
    expect(r.list('declared', 'sycl_fixed_targets')).toBeUndefined();
  });

  it('lists the !sycl_aspects value of each target name it finds there, in order, skipping others', () => {
    const r = runPass(entries, { fixedTargets: ['gpu', 'intel_gpu_pvc', 'cpu', 'gpu'], validate: false });
    expect(r.list('k', 'sycl_fixed_targets')).toEqual([2, 1, 2]);
  });

  it('writes nothing when the module has no !sycl_aspects (intel/llvm skips such modules)', () => {
    const r = runPass('define spir_kernel void @k() {\n  ret void\n}\n');
    expect(r.list('k', 'sycl_fixed_targets')).toBeUndefined();
    expect(r.changed).toBe(false);
  });
});

describe('internal (negative) aspects', () => {
  it('propagate like any other aspect', () => {
    const r = runPass(
      ir('define spir_kernel void @k() {\n  call void @f()\n  ret void\n}\ndefine void @f() {\n  ret void, !sycl_used_aspects !1\n}', '!1 = !{i32 -2}\n'),
    );
    expect(r.used('k')).toEqual([-2]);
  });

  it('can be excluded by number', () => {
    const r = runPass(ir('define void @f() {\n  ret void, !sycl_used_aspects !1\n}', '!1 = !{i32 -2, i32 5}\n'), { excludeAspects: ['-2'] });
    expect(r.used('f')).toEqual([5]);
  });
});

describe('robustness', () => {
  it('reports a type name in !sycl_types_that_use_aspects that the module does not define', () => {
    const r = runPass('define void @f() {\n  ret void\n}\n!sycl_types_that_use_aspects = !{!0}\n!0 = !{!"Missing", i32 1}\n');
    expect(r.codes()).toEqual(['malformed-aspect-metadata']);
  });

  it('reports aspect lists with operands that are not i32 values and uses the rest', () => {
    const r = runPass(ir('define void @f() !sycl_used_aspects !1 {\n  ret void\n}', '!1 = !{i32 3, !"x"}\n'));
    expect(r.codes()).toEqual(['malformed-aspect-metadata']);
    expect(r.used('f')).toEqual([3]);
  });

  it('is idempotent: running again changes nothing, in memory and after printing', () => {
    const text = ir(`define spir_kernel void @k() {\n  call void @f()\n  ret void\n}
define void @f() !sycl_declared_aspects !1 {\n  %x = alloca %D\n  %y = alloca double\n  ret void\n}`, '!1 = !{i32 2}\n');
    const module = parse(text);
    propagateAspectsUsage(module, { validate: false });
    const once = runPass(module, {}).text;
    const again = propagateAspectsUsage(module, { validate: false });
    expect(again.changed).toBe(false);
    expect(runPass(module, { validate: false }).text).toBe(once);
    // Printed and read back, kinds are numbered in the order the text names them (as in LLVM);
    // the pass still has nothing to change.
    const reread = parse(once);
    expect(propagateAspectsUsage(reread, { validate: false }).changed).toBe(false);
  });
});
