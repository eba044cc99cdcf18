import { describe, expect, it } from 'vitest';
import { ATTRIBUTE_KIND_ORDER } from '../model/attributes.js';
import { llvmTool, runTool } from '../../test/llvm.js';
import { syntaxVerdict } from '../../test/verdict.js';
import type { CallInst } from '../model/instructions.js';
import { parseModule } from './parser.js';

/**
 * Where LLVM 16's reader accepts each attribute keyword, as measured with its `opt` (the rest of
 * each position is refused with "this attribute does not apply to ..."); checked against `opt`
 * again below when it is installed.
 */
const ACCEPTED: Readonly<Record<'function' | 'parameter' | 'return', readonly string[]>> = {
  function: [
    'alwaysinline', 'cold', 'convergent', 'disable_sanitizer_instrumentation', 'fn_ret_thunk_extern', 'hot', 'inlinehint', 'jumptable',
    'minsize', 'mustprogress', 'naked', 'nobuiltin', 'nocallback', 'nocf_check', 'noduplicate', 'noimplicitfloat', 'noinline', 'nomerge',
    'noprofile', 'norecurse', 'noredzone', 'noreturn', 'nosanitize_bounds', 'nosanitize_coverage', 'nosync', 'nounwind', 'nonlazybind',
    'null_pointer_is_valid', 'optforfuzzing', 'optsize', 'optnone', 'presplitcoroutine', 'returns_twice', 'safestack', 'sanitize_address',
    'sanitize_hwaddress', 'sanitize_memtag', 'sanitize_memory', 'sanitize_thread', 'shadowcallstack', 'skipprofile', 'speculatable',
    'speculative_load_hardening', 'ssp', 'sspreq', 'sspstrong', 'strictfp', 'willreturn', 'allockind', 'allocsize', 'memory', 'uwtable',
    'vscale_range', 'nofree', 'readnone', 'readonly', 'writeonly', 'preallocated', 'alignstack', 'align',
  ],
  parameter: [
    'allocalign', 'allocptr', 'immarg', 'nest', 'nocapture', 'returned', 'swiftasync', 'swifterror', 'swiftself', 'byref', 'byval',
    'elementtype', 'inalloca', 'sret', 'inreg', 'noalias', 'noundef', 'nonnull', 'signext', 'zeroext', 'dereferenceable',
    'dereferenceable_or_null', 'nofree', 'readnone', 'readonly', 'writeonly', 'preallocated', 'alignstack', 'align',
  ],
  return: ['inreg', 'noalias', 'noundef', 'nonnull', 'signext', 'zeroext', 'dereferenceable', 'dereferenceable_or_null', 'align'],
};

const SPELLING: Readonly<Record<string, string>> = {
  align: 'align 4', alignstack: 'alignstack(4)', allockind: 'allockind("alloc")', allocsize: 'allocsize(0)', byval: 'byval(i32)',
  byref: 'byref(i32)', dereferenceable: 'dereferenceable(4)', dereferenceable_or_null: 'dereferenceable_or_null(4)',
  elementtype: 'elementtype(i32)', inalloca: 'inalloca(i32)', memory: 'memory(none)', preallocated: 'preallocated(i32)',
  sret: 'sret(i32)', vscale_range: 'vscale_range(1,2)',
};
const POSITIONS = {
  function: { text: (a: string) => `declare void @f() ${a}\n`, column: 19, message: 'this attribute does not apply to functions' },
  parameter: { text: (a: string) => `declare void @f(ptr ${a})\n`, column: 21, message: 'this attribute does not apply to parameters' },
  return: { text: (a: string) => `declare ${a} ptr @f()\n`, column: 9, message: 'this attribute does not apply to return values' },
} as const;

// `builtin` belongs on call sites only: a function header refuses it with its own message
const CASES = ATTRIBUTE_KIND_ORDER.filter((k) => k !== 'builtin').flatMap((keyword) =>
  (Object.keys(POSITIONS) as (keyof typeof POSITIONS)[]).map((position) => [keyword, position, ACCEPTED[position].includes(keyword)] as const),
);

const verdict = (text: string): string | undefined => syntaxVerdict(text, 'a.ll');

describe('attributes are accepted where LLVM 16 accepts them', () => {
  it.each(CASES)('%s on a %s: accepted %s', (keyword, position, accepted) => {
    const p = POSITIONS[position];
    expect(verdict(p.text(SPELLING[keyword] ?? keyword))).toBe(accepted ? undefined : `1:${p.column}: ${p.message}`);
  });

  it('refuses builtin on a function header but takes it on a call site, and reads attribute groups the same way', () => {
    expect(verdict('declare void @f() builtin\n')).toBe("1:19: 'builtin' attribute not valid on function");
    expect(verdict('declare void @f()\ndefine void @g() {\n  call void @f() builtin\n  ret void\n}\n')).toBeUndefined();
    expect(verdict('attributes #0 = { noundef }\n')).toBe('1:19: this attribute does not apply to functions');
    expect(verdict('declare void @f()\ndefine void @g() {\n  call void @f() nonnull\n  ret void\n}\n')).toBe('3:18: this attribute does not apply to functions');
  });

  it('reads the parameter attributes LLVM adds to optimized DPC++ code', () => {
    expect(verdict('declare void @f(ptr nocapture nofree noundef readonly align 4 dereferenceable(8) %p, i32 signext %n)\n')).toBeUndefined();
  });
});

const opt16 = llvmTool('opt');
describe.skipIf(opt16 === undefined)('the position table agrees with LLVM 16 opt', () => {
  it.each(CASES)('%s on a %s: accepted %s', (keyword, position, accepted) => {
    const r = runTool(opt16!, ['-S', '-o', '/dev/null', '-'], POSITIONS[position].text(SPELLING[keyword] ?? keyword));
    // opt's verifier may still refuse an accepted attribute (e.g. on a type it does not fit)
    expect(/does not apply to (functions|parameters|return values)$/m.test(r.stderr)).toBe(!accepted);
  });
});

describe('parameter attribute sets', () => {
  it('are shared by arguments spelled alike and kept apart when one spelling starts another', () => {
    const m = parseModule(
      [
        'declare void @g(i32, ptr, i32, ptr)',
        'define void @f(i32 %x, ptr %p) {',
        '  call void @g(i32 noundef %x, ptr noundef align 4 %p, i32 noundef %x, ptr noundef align 4 %p)',
        '  call void @g(i32 noundef %x, ptr noundef align 8 %p, i32 noundef  %x, ptr noundef align 4 %p)',
        '  ret void',
        '}',
      ].join('\n'),
    );
    const [first, second] = m.getFunction('f')!.blocks[0]!.instructions as CallInst[];
    const keys = (call: CallInst) => call.attributes.params.map((set) => set.attributes.map((a) => (a.kind === 'int' ? `${a.key} ${String(a.value)}` : a.key)).join(' '));
    expect(keys(first!)).toEqual(['noundef', 'noundef align 4', 'noundef', 'noundef align 4']);
    expect(keys(second!)).toEqual(['noundef', 'noundef align 8', 'noundef', 'noundef align 4']);
    expect(first!.attributes.params[0]).toBe(first!.attributes.params[2]);
    expect(first!.attributes.params[1]).toBe(second!.attributes.params[3]);
    expect(first!.attributes.params[1]).not.toBe(second!.attributes.params[1]);
  });
});
