import { describe, expect, it } from 'vitest';
import { formatLLVMVerifierFailures, functionAttributeRulesBroken, llvmVerifierFailures, llvmVerifierFunctionFailures, verifyWhileParsing, type LLVMVerifierFailure } from './llvm-verifier.js';
import { parseModule } from '../reader/parser.js';
import { llvmTool, runTool } from '../../test/llvm.js';
import { parses } from '../../test/verdict.js';

/** Each case: IR that parses, and what LLVM 16's verifier writes before "input module is broken!". */
const BROKEN: readonly { name: string; ir: string; report: string }[] = [
  {
    name: 'a branch back to the entry block',
    ir: 'define void @f() {\nentry:\n  br label %entry\n}\n',
    report: 'Entry block to function must not have predecessors!\nlabel %entry\n',
  },
  {
    name: 'a PHI node missing a predecessor',
    ir: 'define i32 @f(i1 %c) {\nentry:\n  br i1 %c, label %a, label %b\na:\n  br label %m\nb:\n  br label %m\nm:\n  %p = phi i32 [ 0, %a ]\n  ret i32 %p\n}\n',
    report: 'PHINode should have one entry for each predecessor of its parent basic block!\n  %p = phi i32 [ 0, %a ]\n',
  },
  {
    name: 'a PHI node with one entry for an edge taken twice',
    ir: 'define i32 @f(i1 %c) {\nentry:\n  br i1 %c, label %m, label %m\nm:\n  %p = phi i32 [ 0, %entry ]\n  ret i32 %p\n}\n',
    report: 'PHINode should have one entry for each predecessor of its parent basic block!\n  %p = phi i32 [ 0, %entry ]\n',
  },
  {
    name: 'a PHI node naming a block that is not a predecessor',
    ir: 'define i32 @f(i1 %c) {\nentry:\n  br i1 %c, label %a, label %b\na:\n  br label %m\nb:\n  br label %m\nm:\n  %p = phi i32 [ 0, %a ], [ 1, %entry ]\n  ret i32 %p\n}\n',
    report: 'PHI node entries do not match predecessors!\n  %p = phi i32 [ 0, %a ], [ 1, %entry ]\nlabel %entry\nlabel %a\n',
  },
  {
    name: 'two values for the same predecessor',
    ir: 'define i32 @f(i1 %c) {\nentry:\n  br i1 %c, label %m, label %m\nm:\n  %p = phi i32 [ 0, %entry ], [ 1, %entry ]\n  ret i32 %p\n}\n',
    report: 'PHI node has multiple entries for the same basic block with different incoming values!\n  %p = phi i32 [ 0, %entry ], [ 1, %entry ]\nlabel %entry\ni32 1\ni32 0\n',
  },
  {
    name: 'a PHI node after another instruction',
    ir: 'define i32 @f() {\nentry:\n  br label %m\nm:\n  %a = add i32 1, 2\n  %p = phi i32 [ 0, %entry ]\n  ret i32 %p\n}\n',
    report: 'PHI nodes not grouped at top of basic block!\n  %p = phi i32 [ 0, %entry ]\nlabel %m\n',
  },
  {
    name: 'an instruction using itself (numbered, with an attachment numbered as in the module)',
    ir: 'define i32 @f() {\n  br label %1\n1:\n  %2 = add i32 %2, 1, !foo !0\n  br label %1\n}\n\n!0 = !{!"x"}\n',
    report: 'Only PHI nodes may reference their own value!\n  %2 = add i32 %2, 1, !foo !0\n',
  },
  {
    name: 'a switch case of another type',
    ir: 'define void @f(i32 %x) {\nentry:\n  switch i32 %x, label %d [ i64 1, label %d\n                            i32 2, label %d ]\nd:\n  ret void\n}\n',
    report: 'Switch constants must all be same type as switch value!\n  switch i32 %x, label %d [\n    i64 1, label %d\n    i32 2, label %d\n  ]\n',
  },
  {
    name: 'resume without a personality',
    ir: 'define void @f() {\nentry:\n  resume { ptr, i32 } undef\n}\n',
    report: 'ResumeInst needs to be in a function with a personality.\n  resume { ptr, i32 } undef\n',
  },
  {
    name: 'failures in two functions, in module order',
    ir:
      'define void @f() {\nentry:\n  br label %entry\n}\n\n' +
      'define i32 @g() {\nentry:\n  br label %m\nm:\n  %a = add i32 1, 2\n  %p = phi i32 [ 0, %entry ]\n  ret i32 %p\n}\n',
    report: 'Entry block to function must not have predecessors!\nlabel %entry\nPHI nodes not grouped at top of basic block!\n  %p = phi i32 [ 0, %entry ]\nlabel %m\n',
  },
  {
    name: 'a use in a block its definition does not dominate',
    ir: 'define i32 @f(i1 %c) {\nentry:\n  br i1 %c, label %a, label %b\na:\n  %x = add i32 1, 2\n  br label %b\nb:\n  %y = add i32 %x, 1\n  ret i32 %y\n}\n',
    report: 'Instruction does not dominate all uses!\n  %x = add i32 1, 2\n  %y = add i32 %x, 1\n',
  },
  {
    name: 'a use before the definition in the same block',
    ir: 'define i32 @f(i32 %a) {\nentry:\n  %y = add i32 %x, 1\n  %x = add i32 %a, 2\n  ret i32 %y\n}\n',
    report: 'Instruction does not dominate all uses!\n  %x = add i32 %a, 2\n  %y = add i32 %x, 1\n',
  },
  {
    name: 'a PHI entry whose value does not dominate its incoming block',
    ir: 'define i32 @f(i1 %c) {\nentry:\n  br i1 %c, label %a, label %m\na:\n  %x = add i32 1, 2\n  br label %m\nm:\n  %p = phi i32 [ %x, %entry ], [ %x, %a ]\n  ret i32 %p\n}\n',
    report: 'Instruction does not dominate all uses!\n  %x = add i32 1, 2\n  %p = phi i32 [ %x, %entry ], [ %x, %a ]\n',
  },
  {
    name: 'an invoke result used on the unwind path',
    ir:
      'declare i32 @g()\ndeclare i32 @pers(...)\n\ndefine i32 @f() personality ptr @pers {\nentry:\n  %r = invoke i32 @g()\n          to label %ok unwind label %bad\n' +
      'ok:\n  ret i32 %r\nbad:\n  %lp = landingpad { ptr, i32 }\n          cleanup\n  %z = add i32 %r, 1\n  ret i32 %z\n}\n',
    report: 'Instruction does not dominate all uses!\n  %r = invoke i32 @g()\n          to label %ok unwind label %bad\n  %z = add i32 %r, 1\n',
  },
  {
    name: 'a callbr result used in its indirect destination',
    ir: 'define i32 @f() {\nentry:\n  %r = callbr i32 asm "", "=r,!i"()\n          to label %ok [label %ind]\nok:\n  ret i32 %r\nind:\n  %z = add i32 %r, 1\n  ret i32 %z\n}\n',
    report: 'Instruction does not dominate all uses!\n  %r = callbr i32 asm "", "=r,!i"()\n          to label %ok [label %ind]\n  %z = add i32 %r, 1\n',
  },
  {
    name: 'a definition in an unreachable block used in a reachable one',
    ir: 'define i32 @g(i1 %c) {\nentry:\n  br label %b\ndead:\n  %x = add i32 1, 2\n  br label %b\nb:\n  %y = add i32 %x, 1\n  ret i32 %y\n}\n',
    report: 'Instruction does not dominate all uses!\n  %x = add i32 1, 2\n  %y = add i32 %x, 1\n',
  },
  {
    name: 'two operands that do not dominate a call (one failure each, arguments in order)',
    ir:
      'declare void @h(i32, i32)\n\ndefine void @f(i1 %c) {\nentry:\n  br i1 %c, label %a, label %b\na:\n  %x = add i32 1, 2\n  %y = add i32 1, 2\n  br label %b\n' +
      'b:\n  call void @h(i32 %y, i32 %x)\n  ret void\n}\n',
    report:
      'Instruction does not dominate all uses!\n  %y = add i32 1, 2\n  call void @h(i32 %y, i32 %x)\n' +
      'Instruction does not dominate all uses!\n  %x = add i32 1, 2\n  call void @h(i32 %y, i32 %x)\n',
  },
  {
    name: 'parameter attributes on types they do not apply to, on a definition and at a call',
    ir: 'define void @f(i32 byval(i32) %x, ptr zeroext %p, i32 nonnull %q) {\n  ret void\n}\n\ndefine void @g(ptr %p) {\n  call void @f(i32 noalias 1, ptr %p, i32 2)\n  ret void\n}\n',
    report:
      "Attribute 'byval(i32)' applied to incompatible type!\nptr @f\nAttribute 'zeroext' applied to incompatible type!\nptr @f\n" +
      "Attribute 'nonnull' applied to incompatible type!\nptr @f\nAttribute 'noalias' applied to incompatible type!\n  call void @f(i32 noalias 1, ptr %p, i32 2)\n",
  },
  {
    name: 'a declaration between two broken definitions, in module order',
    ir:
      'define void @a() {\nentry:\n  br label %entry\n}\n\ndeclare noalias i32 @b(ptr byval(i32) inalloca(i32))\n\n' +
      'define void @c() {\nentry:\n  br label %entry\n}\n',
    report:
      'Entry block to function must not have predecessors!\nlabel %entry\n' +
      "Attribute 'noalias' applied to incompatible type!\nptr @b\nAttributes 'byval', 'inalloca', 'preallocated', 'inreg', 'nest', 'byref', and 'sret' are incompatible!\nptr @b\n" +
      'Entry block to function must not have predecessors!\nlabel %entry\n',
  },
  {
    name: "'sret' with 'returned' on a void function (two failures, the second ends the list)",
    ir: 'declare void @f(ptr sret(i32) returned %x, i32 zeroext signext %y)\n',
    report: "Attributes 'sret and returned' are incompatible!\nptr @f\nIncompatible argument and return types for 'returned' attribute\nptr @f\n",
  },
  {
    name: 'parameter attribute positions: immarg outside intrinsics, sret on the third parameter, inalloca not last',
    ir: 'declare void @f(i32 immarg)\ndeclare void @g(i32, i32, ptr sret(i32))\ndeclare void @h(ptr inalloca(i32), i32)\ndeclare i32 @k(i64 returned)\n',
    report:
      'immarg attribute only applies to intrinsics\nptr @f\n' +
      "Attribute 'sret' is not on first or second parameter!\nptr @g\n" +
      "inalloca isn't on the last parameter!\nptr @h\n" +
      "Incompatible argument and return types for 'returned' attribute\nptr @k\n",
  },
  {
    name: 'intrinsic immarg arguments that are not constants (the intrinsic declared after its use)',
    ir:
      'define void @f(ptr %a, ptr %b, i1 %v) {\n  call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr %b, i64 8, i1 %v)\n  %x = add i1 %v, %v\n' +
      '  call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr %b, i64 8, i1 %x)\n  ret void\n}\n\ndeclare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)\n',
    report:
      'immarg operand has non-immediate parameter\ni1 %v\n  call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr %b, i64 8, i1 %v)\n' +
      'immarg operand has non-immediate parameter\n  %x = add i1 %v, %v\n  call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr %b, i64 8, i1 %x)\n',
  },
  {
    name: 'one broken call-site group in two functions, after a call without it, beside a function whose calls pass',
    ir:
      'declare void @f()\n\ndefine void @g() {\n  call void @f() #1\n  ret void\n}\n\ndefine void @h() {\n  call void @f()\n  call void @f() #1\n  ret void\n}\n\n' +
      'define void @k() {\n  call void @f() #0\n  ret void\n}\n\nattributes #0 = { nounwind }\nattributes #1 = { noinline alwaysinline }\n',
    report: "Attributes 'noinline and alwaysinline' are incompatible!\n  call void @f() #0\nAttributes 'noinline and alwaysinline' are incompatible!\n  call void @f() #0\n",
  },
  {
    name: "a callee's 'preallocated' parameter at a call without attributes that uses a value of another block",
    ir: 'declare void @p(ptr preallocated(i32))\n\ndefine void @f() {\nentry:\n  %q = alloca i32\n  br label %next\nnext:\n  call void @p(ptr %q)\n  ret void\n}\n',
    report: 'preallocated operand either requires a preallocated bundle or the call to be musttail (but not both)\n  %q = alloca i32, align 4\n  call void @p(ptr %q)\n',
  },
  {
    name: "a call-site 'immarg' the callee does not have, and 'preallocated' without its bundle",
    ir: 'declare void @h(i32)\ndeclare void @p(ptr)\n\ndefine void @f(ptr %q) {\n  call void @h(i32 immarg 1)\n  call void @p(ptr preallocated(i32) %q)\n  ret void\n}\n',
    report:
      'immarg attribute only applies to intrinsics\n  call void @h(i32 immarg 1)\nimmarg may not apply only to call sites\ni32 1\n  call void @h(i32 immarg 1)\n' +
      'preallocated operand either requires a preallocated bundle or the call to be musttail (but not both)\nptr %q\n  call void @p(ptr preallocated(i32) %q)\n',
  },
  {
    name: "'elementtype' on a function parameter (its entry-block check is skipped, as LLVM's is)",
    ir: 'define void @f(ptr elementtype(i32) %p) {\nentry:\n  br label %entry\n}\n',
    report: "Attribute 'elementtype' can only be applied to intrinsics and inline asm.\nptr @f\nAttribute 'elementtype' can only be applied to a callsite.\nptr @f\n",
  },
  {
    name: 'inlining and optnone combinations, on definitions, declarations and calls (groups after their uses)',
    ir:
      'declare void @a() noinline alwaysinline\n\ndefine void @b() #0 {\n  call void @a() #1\n  call void @a() #2\n  ret void\n}\n\n' +
      'declare void @c() #3\ndeclare void @d() optnone noinline minsize\n\n' +
      'attributes #0 = { optnone }\nattributes #1 = { noinline alwaysinline }\nattributes #2 = { optnone noinline }\nattributes #3 = { optnone noinline optsize }\n',
    report:
      "Attributes 'noinline and alwaysinline' are incompatible!\nptr @a\nAttribute 'optnone' requires 'noinline'!\nptr @b\n" +
      "Attributes 'noinline and alwaysinline' are incompatible!\n  call void @a() #0\n" +
      "Attributes 'optsize and optnone' are incompatible!\nptr @c\nAttributes 'minsize and optnone' are incompatible!\nptr @d\n",
  },
  {
    name: "'jumptable' without unnamed_addr, and 'allocsize' arguments out of bounds or not integers",
    ir:
      'define void @j() local_unnamed_addr jumptable {\n  ret void\n}\n\n' +
      'declare ptr @s1(i32) allocsize(5)\ndeclare ptr @s2(ptr) allocsize(0)\ndeclare ptr @s3(i32) allocsize(0, 3)\ndeclare ptr @s4(i32, ptr) allocsize(0, 1) vscale_range(0,4)\n',
    report:
      "Attribute 'jumptable' requires 'unnamed_addr'\nptr @j\n'allocsize' element size argument is out of bounds\nptr @s1\n" +
      "'allocsize' element size argument must refer to an integer parameter\nptr @s2\n'allocsize' number of elements argument is out of bounds\nptr @s3\n" +
      "'allocsize' number of elements argument must refer to an integer parameter\nptr @s4\n",
  },
  {
    name: "'allockind' combinations (written without a value), 'vscale_range' bounds, and checked string attributes",
    ir:
      'declare ptr @k1(i32) allockind("alloc,realloc") vscale_range(0,4) "frame-pointer"="reserved"\ndeclare ptr @k2(i32) allockind("free,zeroed,uninitialized") vscale_range(4,2)\n' +
      'declare void @v() "patchable-function-entry"="x" "patchable-function-prefix"="-1" "warn-stack-size"="4294967296"\n',
    report:
      "'allockind()' requires exactly one of alloc, realloc, and free\n'vscale_range' minimum must be greater than 0\nptr @k1\n" +
      "invalid value for 'frame-pointer' attribute: reserved\nptr @k1\n" +
      '\'allockind("free")\' doesn\'t allow uninitialized, zeroed, or aligned modifiers.\n\'allockind()\' can\'t be both zeroed and uninitialized\n' +
      "'vscale_range' minimum cannot be greater than maximum\nptr @k2\n" +
      '"patchable-function-prefix" takes an unsigned integer: -1\nptr @v\n"patchable-function-entry" takes an unsigned integer: x\nptr @v\n' +
      '"warn-stack-size" takes an unsigned integer: 4294967296\nptr @v\n',
  },
  {
    name: 'metadata and token parameters and token results outside intrinsics (the entry-block check is then skipped)',
    ir: 'declare void @g(metadata)\n\ndefine void @h(token %t) {\nentry:\n  br label %entry\n}\n\ndeclare token @k()\n\ndeclare void @llvm.foo(metadata)\n',
    report:
      "Function takes metadata but isn't an intrinsic\nmetadata %0\nptr @g\nFunction takes token but isn't an intrinsic\ntoken %t\nptr @h\n" +
      "Function returns a token but isn't an intrinsic\nptr @k\n",
  },
  {
    name: "a call whose attribute group holds 'align' (a function's 'align' is its alignment instead)",
    ir: 'define void @z() #0 {\n  call void @z() #0\n  ret void\n}\n\nattributes #0 = { align=16 nounwind }\n',
    report: "Attribute 'align 16' does not apply to functions!\n  call void @z() #1\n",
  },
];

/** Valid IR that exercises the same rules. */
const VALID: readonly { name: string; ir: string }[] = [
  {
    name: 'one entry per edge, repeated blocks with the same value',
    ir:
      'define i32 @k(i32 %x) {\nentry:\n  switch i32 %x, label %a [ i32 1, label %b\n                            i32 2, label %b ]\na:\n  br label %b\nb:\n' +
      '  %p = phi i32 [ 0, %a ], [ 1, %entry ], [ 1, %entry ]\n  ret i32 %p\n}\n',
  },
  { name: 'an unreachable instruction using itself', ir: 'define i32 @h() {\nentry:\n  ret i32 0\ndead:\n  %y = add i32 %y, 1\n  br label %dead\n}\n' },
  { name: 'a loop PHI using its own value', ir: 'define i32 @l() {\nentry:\n  br label %m\nm:\n  %i = phi i32 [ 0, %entry ], [ %i, %m ]\n  br label %m\n}\n' },
  {
    name: 'invoke results on the normal path, in a PHI of the normal destination, and in a loop it dominates',
    ir:
      'declare i32 @g()\ndeclare i32 @pers(...)\n\ndefine i32 @f(i1 %c) personality ptr @pers {\nentry:\n  br i1 %c, label %a, label %ok\n' +
      'a:\n  %r = invoke i32 @g()\n          to label %ok unwind label %bad\nok:\n  %p = phi i32 [ 0, %entry ], [ %r, %a ]\n  %q = add i32 %p, 1\n  ret i32 %q\n' +
      'bad:\n  %lp = landingpad { ptr, i32 }\n          cleanup\n  ret i32 0\n}\n',
  },
  {
    name: 'a callbr result in a PHI of its default destination',
    ir:
      'define i32 @f(i1 %c) {\nentry:\n  br i1 %c, label %a, label %ok\na:\n  %r = callbr i32 asm "", "=r,!i"()\n          to label %ok [label %ind]\n' +
      'ok:\n  %p = phi i32 [ 0, %entry ], [ %r, %a ]\n  ret i32 %p\nind:\n  ret i32 0\n}\n',
  },
  {
    name: 'uses in unreachable blocks of values defined in unreachable blocks',
    ir: 'define i32 @f() {\nentry:\n  ret i32 0\ndead:\n  %x = add i32 1, 2\n  br label %dead2\ndead2:\n  %y = add i32 %x, 1\n  br label %dead2\n}\n',
  },
  {
    name: 'attributes on the types they apply to, and immarg on an intrinsic',
    ir:
      'declare void @f(ptr inreg sret(i32) %s, ptr byval(i32) align 4 %p, i32 zeroext %z, <2 x ptr> align 8 %v, ptr noalias nocapture readonly %r)\n' +
      'declare noundef nonnull ptr @g(ptr returned %p)\ndeclare void @llvm.memcpy.p0.p0.i64(ptr noalias nocapture writeonly, ptr noalias nocapture readonly, i64, i1 immarg)\n\n' +
      'define void @h(ptr %a, ptr %b) {\n  call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr %b, i64 8, i1 false)\n  %c = call ptr @g(ptr nonnull %a)\n  ret void\n}\n',
  },
  {
    name: 'function attributes within the rules',
    ir:
      'define void @a() unnamed_addr jumptable noinline optnone {\n  call void @b(i32 1) #0\n  ret void\n}\n\n' +
      'declare ptr @b(i32) allocsize(0) allockind("alloc,zeroed,aligned") vscale_range(1,0) "frame-pointer"="non-leaf" "warn-stack-size"="007"\n' +
      'declare ptr @c(i32, i64) allocsize(1, 0) allockind("free") vscale_range(2) "patchable-function-entry"="4294967295"\n\n' +
      'attributes #0 = { alwaysinline "frame-pointer"="all" }\n',
  },
  {
    name: 'resume in a function with a personality',
    ir: 'declare i32 @p(...)\n\ndefine void @f() personality ptr @p {\nentry:\n  resume { ptr, i32 } undef\n}\n',
  },
];

const report = (ir: string): string => {
  const m = parseModule(ir, { filename: 'v.ll' });
  return formatLLVMVerifierFailures(m, llvmVerifierFailures(m));
};

describe('llvmVerifierFailures', () => {
  it.each(BROKEN)('reports $name as LLVM 16 does', ({ ir, report: expected }) => {
    expect(report(ir)).toBe(expected);
  });

  it.each(VALID)('accepts $name', ({ ir }) => {
    expect(report(ir)).toBe('');
  });

  it('gives the same failures checked per function while parsing (then declarations and function attributes) as on the parsed module', () => {
    for (const { ir } of [...BROKEN, ...VALID]) {
      const verifier = verifyWhileParsing();
      const m = parseModule(ir, { filename: 'v.ll', onFunction: verifier.onFunction });
      expect(formatLLVMVerifierFailures(m, verifier.failures(m))).toBe(formatLLVMVerifierFailures(m, llvmVerifierFailures(m)));
    }
  });

  it('leaves function attributes to after the parse: their #N groups are not read yet while it runs', () => {
    const ir = 'declare void @f()\n\ndefine void @g() #0 {\n  call void @f() #1\n  ret void\n}\n\nattributes #0 = { optnone }\nattributes #1 = { noinline alwaysinline }\n';
    const during: LLVMVerifierFailure[] = [];
    const m = parseModule(ir, { filename: 'v.ll', onFunction: (fn, facts) => during.push(...llvmVerifierFunctionFailures(fn, facts)) });
    expect(during).toEqual([]);
    const g = m.getFunction('g')!;
    expect(functionAttributeRulesBroken(g)).toBe(true);
    expect(functionAttributeRulesBroken(m.getFunction('f')!)).toBe(false);
    expect(formatLLVMVerifierFailures(m, llvmVerifierFunctionFailures(g))).toBe(
      "Attribute 'optnone' requires 'noinline'!\nptr @g\nAttributes 'noinline and alwaysinline' are incompatible!\n  call void @f() #1\n",
    );
  });

  const opt16 = llvmTool('opt');

  /**
   * Every LLVM 16 parameter and return attribute on every kind of type, one declaration each, and
   * as call-site attributes (except `swifterror`, whose call-site check is not made): all in one
   * module, so one `opt` run gives the whole report.
   */
  const ATTRIBUTES = [
    'align 8', 'allocalign', 'allocptr', 'byref(i32)', 'byval(i32)', 'dereferenceable(8)', 'dereferenceable_or_null(8)', 'elementtype(i32)', 'immarg',
    'inalloca(i32)', 'inreg', 'nest', 'noalias', 'nocapture', 'nofree', 'nonnull', 'noundef', 'preallocated(i32)', 'readnone', 'readonly', 'returned',
    'signext', 'sret(i32)', 'swiftasync', 'swifterror', 'swiftself', 'writeonly', 'zeroext',
  ];
  const TYPES = ['i32', 'ptr', 'float', '<2 x ptr>', '<2 x i32>', '{ i32 }', '[2 x i32]'];
  const matrix = (): string => {
    const lines: string[] = [];
    let n = 0;
    for (const attr of ATTRIBUTES) {
      for (const ty of TYPES) {
        const decl = `declare void @p${n++}(${ty} ${attr})`;
        if (parses(decl)) lines.push(decl);
        if (attr === 'swifterror') continue;
        const caller = `define void @c${n++}(${ty} %x) {\n  call void @callee${n}(${ty} ${attr} %x)\n  ret void\n}\ndeclare void @callee${n}(${ty})`;
        if (parses(caller)) lines.push(caller);
      }
      for (const ty of ['void', 'i32', 'ptr', '<2 x ptr>', 'float']) {
        const decl = `declare ${attr} ${ty} @r${n++}()`;
        if (parses(decl)) lines.push(decl);
      }
    }
    return lines.join('\n') + '\n';
  };

  it.skipIf(opt16 === undefined)('matches LLVM 16 opt on every parameter and return attribute on every kind of type', () => {
    const ir = matrix();
    const r = runTool(opt16!, ['-S', '-o', '/dev/null', '-'], ir);
    const ours = report(ir);
    expect(ours.split('\n').filter((l) => l.includes('incompatible type')).length).toBeGreaterThan(100);
    expect(r.stderr).toBe(`${ours}${opt16}: -: error: input module is broken!\n`);
  });
  it.skipIf(opt16 === undefined)('matches what LLVM 16 opt writes for every case', () => {
    for (const { ir, report: expected } of BROKEN) {
      const r = runTool(opt16!, ['-S', '-o', '/dev/null', '-'], ir);
      expect(r.status).toBe(1);
      expect(r.stderr).toBe(`${expected}${opt16}: -: error: input module is broken!\n`);
    }
    for (const { ir } of VALID) expect(runTool(opt16!, ['-S', '-o', '/dev/null', '-'], ir).status).toBe(0);
    // one opt process per case: on a busy machine the default 5 s is not enough
  }, 60_000);
});
