import { describe, expect, it } from 'vitest';
import { llvmTool, runTool } from '../../test/llvm.js';
import { syntaxVerdict } from '../../test/verdict.js';

/**
 * Operand type errors LLVM's IR reader reports while it builds instructions and constant
 * expressions, as `name, IR, line:col, message`; `undefined` means the input is valid. The
 * expected texts are LLVM 16 `opt`'s; with LLVM 16 installed the table is also checked against it.
 */
const CASES: readonly (readonly [string, string, string | undefined, string | undefined])[] = [
  ["ret-value-in-void", "define void @f() {\n  ret i32 0\n}\n", '2:7', "value doesn't match function result type 'void'"],
  ["ret-void-in-i32", "define i32 @f() {\n  ret void\n}\n", '2:7', "value doesn't match function result type 'i32'"],
  ["ret-wrong-type", "define i32 @f() {\n  ret i64 0\n}\n", '2:7', "value doesn't match function result type 'i32'"],
  ["add-float", "define float @f(float %a) {\n  %c = add float %a, %a\n  ret float %c\n}\n", '2:12', "invalid operand type for instruction"],
  ["shl-ptr", "define void @f(ptr %a) {\n  %c = shl ptr %a, %a\n  ret void\n}\n", '2:12', "invalid operand type for instruction"],
  ["and-float", "define void @f(float %a) {\n  %c = and float %a, %a\n  ret void\n}\n", '2:12', "instruction requires integer or integer vector operands"],
  ["xor-vec-float", "define void @f(<2 x float> %a) {\n  %c = xor <2 x float> %a, %a\n  ret void\n}\n", '2:12', "instruction requires integer or integer vector operands"],
  ["fadd-int", "define void @f(i32 %a) {\n  %c = fadd i32 %a, %a\n  ret void\n}\n", '2:13', "invalid operand type for instruction"],
  ["frem-vec-int", "define void @f(<2 x i32> %a) {\n  %c = frem <2 x i32> %a, %a\n  ret void\n}\n", '2:13', "invalid operand type for instruction"],
  ["fneg-int", "define void @f(i32 %a) {\n  %c = fneg i32 %a\n  ret void\n}\n", '2:13', "invalid operand type for instruction"],
  ["trunc-wider", "define void @f(i32 %a) {\n  %c = trunc i32 %a to i64\n  ret void\n}\n", '2:14', "invalid cast opcode for cast from 'i32' to 'i64'"],
  ["trunc-same", "define void @f(i32 %a) {\n  %c = trunc i32 %a to i32\n  ret void\n}\n", '2:14', "invalid cast opcode for cast from 'i32' to 'i32'"],
  ["zext-narrower", "define void @f(i32 %a) {\n  %c = zext i32 %a to i8\n  ret void\n}\n", '2:13', "invalid cast opcode for cast from 'i32' to 'i8'"],
  ["sext-float", "define void @f(float %a) {\n  %c = sext float %a to i64\n  ret void\n}\n", '2:13', "invalid cast opcode for cast from 'float' to 'i64'"],
  ["zext-vec-len", "define void @f(<2 x i32> %a) {\n  %c = zext <2 x i32> %a to <4 x i64>\n  ret void\n}\n", '2:13', "invalid cast opcode for cast from '<2 x i32>' to '<4 x i64>'"],
  ["fptrunc-wider", "define void @f(float %a) {\n  %c = fptrunc float %a to double\n  ret void\n}\n", '2:16', "invalid cast opcode for cast from 'float' to 'double'"],
  ["fpext-narrower", "define void @f(double %a) {\n  %c = fpext double %a to float\n  ret void\n}\n", '2:14', "invalid cast opcode for cast from 'double' to 'float'"],
  ["fpext-half-bfloat", "define void @f(half %a) {\n  %c = fpext half %a to bfloat\n  ret void\n}\n", '2:14', "invalid cast opcode for cast from 'half' to 'bfloat'"],
  ["fptoui-int", "define void @f(i32 %a) {\n  %c = fptoui i32 %a to i32\n  ret void\n}\n", '2:15', "invalid cast opcode for cast from 'i32' to 'i32'"],
  ["sitofp-float", "define void @f(float %a) {\n  %c = sitofp float %a to double\n  ret void\n}\n", '2:15', "invalid cast opcode for cast from 'float' to 'double'"],
  ["ptrtoint-int", "define void @f(i32 %a) {\n  %c = ptrtoint i32 %a to i64\n  ret void\n}\n", '2:17', "invalid cast opcode for cast from 'i32' to 'i64'"],
  ["inttoptr-ptr", "define void @f(ptr %a) {\n  %c = inttoptr ptr %a to ptr\n  ret void\n}\n", '2:17', "invalid cast opcode for cast from 'ptr' to 'ptr'"],
  ["ptrtoint-vec-scalar", "define void @f(<2 x ptr> %a) {\n  %c = ptrtoint <2 x ptr> %a to i64\n  ret void\n}\n", '2:17', "invalid cast opcode for cast from '<2 x ptr>' to 'i64'"],
  ["bitcast-size", "define void @f(i32 %a) {\n  %c = bitcast i32 %a to i64\n  ret void\n}\n", '2:16', "invalid cast opcode for cast from 'i32' to 'i64'"],
  ["bitcast-ptr-int", "define void @f(ptr %a) {\n  %c = bitcast ptr %a to i64\n  ret void\n}\n", '2:16', "invalid cast opcode for cast from 'ptr' to 'i64'"],
  ["bitcast-as", "define void @f(ptr %a) {\n  %c = bitcast ptr %a to ptr addrspace(1)\n  ret void\n}\n", '2:16', "invalid cast opcode for cast from 'ptr' to 'ptr addrspace(1)'"],
  ["bitcast-vec-ok", "define void @f(<2 x i32> %a) {\n  %c = bitcast <2 x i32> %a to i64\n  ret void\n}\n", undefined, undefined],
  ["bitcast-agg", "define void @f({i32} %a) {\n  %c = bitcast {i32} %a to i32\n  ret void\n}\n", '2:16', "invalid cast opcode for cast from '{ i32 }' to 'i32'"],
  ["bitcast-ptrvec1", "define void @f(<1 x ptr> %a) {\n  %c = bitcast <1 x ptr> %a to ptr\n  ret void\n}\n", undefined, undefined],
  ["addrspacecast-same", "define void @f(ptr %a) {\n  %c = addrspacecast ptr %a to ptr\n  ret void\n}\n", '2:22', "invalid cast opcode for cast from 'ptr' to 'ptr'"],
  ["addrspacecast-int", "define void @f(i64 %a) {\n  %c = addrspacecast i64 %a to ptr\n  ret void\n}\n", '2:22', "invalid cast opcode for cast from 'i64' to 'ptr'"],
  ["br-cond-type", "define void @f(i32 %a) {\n  br i32 %a, label %x, label %x\nx:\n  ret void\n}\n", '2:6', "branch condition must have 'i1' type"],
  ["icmp-float", "define void @f(float %a) {\n  %c = icmp eq float %a, %a\n  ret void\n}\n", '2:16', "icmp requires integer operands"],
  ["icmp-ptr-ok", "define void @f(ptr %a) {\n  %c = icmp eq ptr %a, %a\n  ret void\n}\n", undefined, undefined],
  ["fcmp-int", "define void @f(i32 %a) {\n  %c = fcmp oeq i32 %a, %a\n  ret void\n}\n", '2:17', "fcmp requires floating point operands"],
  ["select-cond", "define void @f(i32 %a) {\n  %c = select i32 %a, i32 1, i32 2\n  ret void\n}\n", '2:15', "select condition must be i1 or <n x i1>"],
  ["select-types", "define void @f(i1 %a) {\n  %c = select i1 %a, i32 1, i64 2\n  ret void\n}\n", '2:15', "both values to select must have same type"],
  ["select-vec-cond-scalar-vals", "define void @f(<2 x i1> %a) {\n  %c = select <2 x i1> %a, i32 1, i32 2\n  ret void\n}\n", '2:15', "selected values for vector select must be vectors"],
  ["select-vec-len", "define void @f(<2 x i1> %a, <4 x i32> %b) {\n  %c = select <2 x i1> %a, <4 x i32> %b, <4 x i32> %b\n  ret void\n}\n", '2:15', "vector select requires selected vectors to have the same vector length as select condition"],
  ["select-vec-cond-elt", "define void @f(<2 x i8> %a, <2 x i32> %b) {\n  %c = select <2 x i8> %a, <2 x i32> %b, <2 x i32> %b\n  ret void\n}\n", '2:15', "vector select condition element type must be i1"],
  ["load-nonptr", "define void @f(i32 %a) {\n  %x = load i32, i32 %a\n  ret void\n}\n", '2:18', "load operand must be a pointer to a first class type"],
  ["load-void", "define void @f(ptr %a) {\n  %x = load void, ptr %a\n  ret void\n}\n", '2:13', "void type only allowed for function results"],
  ["store-nonptr", "define void @f(i32 %a) {\n  store i32 1, i32 %a\n  ret void\n}\n", '2:16', "store operand must be a pointer"],
  ["gep-nonptr", "define void @f(i32 %a) {\n  %c = getelementptr i32, i32 %a, i64 1\n  ret void\n}\n", '2:27', "base of getelementptr must be a pointer"],
  ["gep-float-index", "define void @f(ptr %a) {\n  %c = getelementptr i32, ptr %a, float 1.0\n  ret void\n}\n", '2:35', "getelementptr index must be an integer"],
  ["gep-bad-indices", "define void @f(ptr %a) {\n  %c = getelementptr i32, ptr %a, i64 0, i64 1\n  ret void\n}\n", '2:27', "invalid getelementptr indices"],
  ["gep-struct-var-index", "define void @f(ptr %a, i32 %i) {\n  %c = getelementptr {i32, i32}, ptr %a, i64 0, i32 %i\n  ret void\n}\n", '2:34', "invalid getelementptr indices"],
  ["gep-unsized", "define void @f(ptr %a) {\n  %c = getelementptr void (), ptr %a, i64 1\n  ret void\n}\n", '2:31', "base element of getelementptr must be sized"],
  ["extractelement-nonvec", "define void @f(i32 %a) {\n  %c = extractelement i32 %a, i32 0\n  ret void\n}\n", '2:23', "invalid extractelement operands"],
  ["extractelement-float-idx", "define void @f(<2 x i32> %a) {\n  %c = extractelement <2 x i32> %a, float 0.0\n  ret void\n}\n", '2:23', "invalid extractelement operands"],
  ["insertelement-elt", "define void @f(<2 x i32> %a) {\n  %c = insertelement <2 x i32> %a, i64 1, i32 0\n  ret void\n}\n", '2:22', "invalid insertelement operands"],
  ["shufflevector-types", "define void @f(<2 x i32> %a, <2 x i64> %b) {\n  %c = shufflevector <2 x i32> %a, <2 x i64> %b, <2 x i32> zeroinitializer\n  ret void\n}\n", '2:22', "invalid shufflevector operands"],
  ["extractvalue-nonagg", "define void @f(i32 %a) {\n  %c = extractvalue i32 %a, 0\n  ret void\n}\n", '2:21', "extractvalue operand must be aggregate type"],
  ["extractvalue-index", "define void @f({i32} %a) {\n  %c = extractvalue {i32} %a, 3\n  ret void\n}\n", '2:21', "invalid indices for extractvalue"],
  ["insertvalue-nonagg", "define void @f(i32 %a) {\n  %c = insertvalue i32 %a, i32 1, 0\n  ret void\n}\n", '2:20', "insertvalue operand must be aggregate type"],
  ["insertvalue-field", "define void @f({i32} %a) {\n  %c = insertvalue {i32} %a, i64 1, 0\n  ret void\n}\n", '2:30', "insertvalue operand and field disagree in type: 'i64' instead of 'i32'"],
  ["switch-cond-float", "define void @f(float %a) {\nentry:\n  switch float %a, label %entry [ ]\n}\n", '3:10', "switch condition must have integer type"],
  ["switch-case-nonconst", "define void @f(i32 %a) {\nentry:\n  switch i32 %a, label %entry [ i32 %a, label %entry ]\n}\n", '3:33', "case value is not a constant integer"],
  ["switch-dup-case", "define void @f(i32 %a) {\nentry:\n  switch i32 %a, label %entry [ i32 1, label %entry\n i32 1, label %entry ]\n}\n", '4:2', "duplicate case value in switch"],
  ["indirectbr-nonptr", "define void @f(i32 %a) {\nentry:\n  indirectbr i32 %a, [label %entry]\n}\n", '3:14', "indirectbr address must have pointer type"],
  ["phi-void", "define void @f() {\nentry:\n  br label %x\nx:\n  %p = phi void [ undef, %entry ]\n  br label %x\n}\n", '5:12', "void type only allowed for function results"],
  ["cmpxchg-nonptr", "define void @f(i32 %a) {\n  %c = cmpxchg i32 %a, i32 0, i32 1 seq_cst seq_cst\n  ret void\n}\n", '2:16', "cmpxchg operand must be a pointer"],
  ["cmpxchg-types", "define void @f(ptr %a) {\n  %c = cmpxchg ptr %a, i32 0, i64 1 seq_cst seq_cst\n  ret void\n}\n", '2:31', "compare value and new value type do not match"],
  ["atomicrmw-nonptr", "define void @f(i32 %a) {\n  %c = atomicrmw add i32 %a, i32 1 seq_cst\n  ret void\n}\n", '2:22', "atomicrmw operand must be a pointer"],
  ["atomicrmw-fadd-int", "define void @f(ptr %a) {\n  %c = atomicrmw fadd ptr %a, i32 1 seq_cst\n  ret void\n}\n", '2:31', "atomicrmw fadd operand must be a floating point type"],
  ["atomicrmw-add-float", "define void @f(ptr %a) {\n  %c = atomicrmw add ptr %a, float 1.0 seq_cst\n  ret void\n}\n", '2:30', "atomicrmw add operand must be an integer"],
  ["call-nonfn-ret", "define void @f(ptr %p) {\n  call void %p(i32 1)\n  ret void\n}\n", undefined, undefined],
  ["store-atomic-noalign", "define void @f(ptr %a) {\n  store atomic i32 1, ptr %a seq_cst\n  ret void\n}\n", '2:16', "atomic store must have explicit non-zero alignment"],
  ["load-atomic-release", "define void @f(ptr %a) {\n  %x = load atomic i32, ptr %a release, align 4\n  ret void\n}\n", '2:25', "atomic load cannot use Release ordering"],
  ["const-trunc", "@g = global i64 trunc (i32 1 to i64)\n", '1:17', "invalid cast opcode for cast from 'i32' to 'i64'"],
  ["const-bitcast", "@g = global i64 bitcast (i32 1 to i64)\n", '1:17', "invalid cast opcode for cast from 'i32' to 'i64'"],
  ["const-add-float", "@g = global float add (float 1.0, float 2.0)\n", '1:19', "constexpr requires integer operands"],
  ["const-icmp-float", "@g = global i1 icmp eq (float 1.0, float 2.0)\n", '1:16', "icmp requires pointer or integer operands"],
  ["const-gep-nonptr", "@g = global ptr getelementptr (i32, i32 1, i64 1)\n", '1:17', "base of getelementptr must be a pointer"],
  ["const-select", "@g = global i32 select (i32 1, i32 1, i32 2)\n", '1:17', "select condition must be i1 or <n x i1>"],
  ["const-fadd-int", "@g = global i32 fadd (i32 1, i32 2)\n", '1:17', "fadd constexprs are no longer supported"],
  ["const-fneg-int", "@g = global i32 fneg (i32 1)\n", '1:17', "fneg constexprs are no longer supported"],
  ["const-and-float", "@g = global float and (float 1.0, float 2.0)\n", '1:19', "constexpr requires integer or integer vector operands"],
  ["const-add-mixed", "@g = global i32 add (i32 1, i64 2)\n", '1:17', "operands of constexpr must have same type"],
  ["const-icmp-mixed", "@g = global i1 icmp eq (i32 1, i64 2)\n", '1:16', "compare operands must have the same type"],
  ["const-fcmp-int", "@g = global i1 fcmp oeq (i32 1, i32 2)\n", '1:16', "fcmp requires floating point operands"],
  ["const-gep-float-idx", "@a = global i32 0\n@g = global ptr getelementptr (i32, ptr @a, float 1.0)\n", '2:17', "getelementptr index must be an integer"],
  ["const-gep-bad-idx", "@a = global i32 0\n@g = global ptr getelementptr (i32, ptr @a, i64 0, i64 1)\n", '2:17', "invalid getelementptr indices"],
  ["const-extractelement", "@g = global i32 extractelement (i32 1, i32 0)\n", '1:17', "invalid extractelement operands"],
  ["const-insertelement", "@g = global <2 x i32> insertelement (<2 x i32> zeroinitializer, i64 1, i32 0)\n", '1:23', "invalid insertelement operands"],
  ["const-shufflevector", "@g = global <2 x i32> shufflevector (<2 x i32> zeroinitializer, <2 x i64> zeroinitializer, <2 x i32> zeroinitializer)\n", '1:23', "invalid operands to shufflevector"],
  ["const-shuffle-range", "@g = global <2 x i32> shufflevector (<2 x i32> zeroinitializer, <2 x i32> zeroinitializer, <2 x i32> <i32 0, i32 4>)\n", '1:23', "invalid operands to shufflevector"],
  ["shuffle-range", "define void @f(<2 x i32> %a) {\n  %c = shufflevector <2 x i32> %a, <2 x i32> %a, <2 x i32> <i32 0, i32 4>\n  ret void\n}\n", '2:22', "invalid shufflevector operands"],
  ["shuffle-nonconst-mask", "define void @f(<2 x i32> %a, <2 x i32> %m) {\n  %c = shufflevector <2 x i32> %a, <2 x i32> %a, <2 x i32> %m\n  ret void\n}\n", '2:22', "invalid shufflevector operands"],
  ["shuffle-ok", "define void @f(<2 x i32> %a) {\n  %c = shufflevector <2 x i32> %a, <2 x i32> poison, <4 x i32> <i32 0, i32 undef, i32 3, i32 1>\n  ret void\n}\n", undefined, undefined],
  ["gep-vec-width", "define void @f(<2 x ptr> %a, <4 x i64> %i) {\n  %c = getelementptr i8, <2 x ptr> %a, <4 x i64> %i\n  ret void\n}\n", '2:40', "getelementptr vector index has a wrong number of elements"],
  ["gep-struct-i64", "define void @f(ptr %a) {\n  %c = getelementptr {i32, i32}, ptr %a, i64 0, i64 1\n  ret void\n}\n", '2:34', "invalid getelementptr indices"],
  ["store-atomic-acquire", "define void @f(ptr %a) {\n  store atomic i32 1, ptr %a acquire, align 4\n  ret void\n}\n", '2:16', "atomic store cannot use Acquire ordering"],
  ["cmpxchg-ok", "define void @f(ptr %a) {\n  %c = cmpxchg ptr %a, i32 0, i32 1 seq_cst seq_cst\n  ret void\n}\n", undefined, undefined],
  ["atomicrmw-xchg-struct", "define void @f(ptr %a) {\n  %c = atomicrmw xchg ptr %a, {i32} zeroinitializer seq_cst\n  ret void\n}\n", '2:31', "atomicrmw xchg operand must be an integer, floating point, or pointer type"],
  ["ret-struct-ok", "define {i32} @f() {\n  ret {i32} zeroinitializer\n}\n", undefined, undefined],
  ["extractvalue-array", "define void @f([2 x i32] %a) {\n  %c = extractvalue [2 x i32] %a, 2\n  ret void\n}\n", '2:21', "invalid indices for extractvalue"],
  ["trunc-vec-ok", "define void @f(<2 x i32> %a) {\n  %c = trunc <2 x i32> %a to <2 x i8>\n  ret void\n}\n", undefined, undefined],
  ["bitcast-vec-ptr-scalable", "define void @f(<vscale x 2 x i32> %a) {\n  %c = bitcast <vscale x 2 x i32> %a to <vscale x 1 x i64>\n  ret void\n}\n", undefined, undefined],
  ["bitcast-scalable-fixed", "define void @f(<vscale x 2 x i32> %a) {\n  %c = bitcast <vscale x 2 x i32> %a to <2 x i32>\n  ret void\n}\n", '2:16', "invalid cast opcode for cast from '<vscale x 2 x i32>' to '<2 x i32>'"],
  ["int-literal-for-float", "@g = global float 0\n", '1:19', "integer constant must have integer type"],
  ["int-literal-in-float-vector", "@g = global <2 x float> <float 0.0, float 1>\n", '1:43', "integer constant must have integer type"],
  ["vector-element-type", "@g = global <2 x i1> <i1 0, i32 1>\n", '1:23', "vector element #1 is not of type 'i1"],
  ["vector-literal-type", "@g = global <2 x i8> <i16 1, i16 2>\n", '1:22', "constant expression type mismatch: got type '<2 x i16>' but expected '<2 x i8>'"],
  ["vector-literal-length", "@g = global <3 x i8> <i8 1, i8 2>\n", '1:22', "constant expression type mismatch: got type '<2 x i8>' but expected '<3 x i8>'"],
  ["array-element-type", "@g = global [2 x i8] [i8 1, i16 2]\n", '1:23', "array element #1 is not of type 'i8"],
  ["array-literal-type", "@g = global [2 x i8] [i16 1, i16 2]\n", '1:22', "constant expression type mismatch: got type '[2 x i16]' but expected '[2 x i8]'"],
  ["array-for-vector", "@g = global <2 x i8> [i8 1, i8 2]\n", '1:22', "constant expression type mismatch: got type '[2 x i8]' but expected '<2 x i8>'"],
  ["empty-array", "@g = global [1 x i8] []\n", '1:22', "invalid empty array initializer"],
  ["empty-array-ok", "@g = global [0 x i8] []\n", undefined, undefined],
  ["packed-struct-literal", "@g = global {i32} <{i32 1}>\n", '1:19', "packed'ness of initializer and type don't match"],
  ["struct-literal-count", "@g = global {i32, i32} {i32 1}\n", '1:24', "initializer with struct type has wrong # elements"],
];

const outcome = (text: string): string | undefined => syntaxVerdict(text, 'a.ll');

describe('operand type errors are reported at the operand with LLVM 16 messages', () => {
  it.each(CASES)('%s', (_name, text, where, message) => {
    expect(outcome(text)).toBe(where === undefined ? undefined : `${where}: ${message}`);
  });
});

const opt16 = llvmTool('opt');
describe.skipIf(opt16 === undefined)('the table agrees with LLVM 16 opt', () => {
  it.each(CASES)('%s', (_name, text, where, message) => {
    const r = runTool(opt16!, ['-S', '-o', '/dev/null', '-'], text);
    if (where === undefined) expect(r.status).toBe(0);
    else expect(r.stderr).toContain(`<stdin>:${where}: error: ${message}\n`);
  });
});
