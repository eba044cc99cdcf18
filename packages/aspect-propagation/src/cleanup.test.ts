import { describe, expect, it } from 'vitest';
import { functionKind, moduleKind, parseModule, printModule } from '@syclkit/ir';
import { createRegistry, verifyAnalysisInvalidation } from '@syclkit/pass-manager';
import { cleanupSyclMetadataPass, recordSyclAspectNamesPass } from './cleanup.js';

const registry = createRegistry({ unitKinds: [moduleKind, functionKind], passes: [recordSyclAspectNamesPass, cleanupSyclMetadataPass] });

function run(pipeline: string, text: string): string {
  const module = parseModule(text, { filename: 'test.ll' });
  const result = registry.build(registry.parse(pipeline)).run(module, { file: 'test.ll', instrumentations: [verifyAnalysisInvalidation()] });
  expect(result.diagnostics).toEqual([]);
  return printModule(module);
}

const MODULE = `%A = type { i32 }
define spir_kernel void @k() !sycl_used_aspects !3 !sycl_declared_aspects !4 {
  ret void
}
define void @f() !sycl_used_aspects !5 {
  ret void
}
!sycl_aspects = !{!0, !1, !2}
!sycl_types_that_use_aspects = !{!6}
!llvm.ident = !{!7}
!0 = !{!"fp16", i32 5}
!1 = !{!"usm_system_allocations", i32 17}
!2 = !{!"usm_system_allocator", i32 17}
!3 = !{i32 5, i32 17, i32 99}
!4 = !{i32 5}
!5 = !{!0, i32 5}
!6 = !{!"A", i32 5}
!7 = !{!"clang"}
`;

describe('record-sycl-aspect-names', () => {
  it("names the i32 operands of !sycl_used_aspects and !sycl_declared_aspects with the table's node; a value without an entry stays an i32", () => {
    const out = run('record-sycl-aspect-names', MODULE);
    expect(out).toContain('define spir_kernel void @k() !sycl_used_aspects !5 !sycl_declared_aspects !6 {');
    // 17 has two names: the last entry wins, as intel/llvm fills its map in order
    expect(out).toContain('!5 = !{!0, !2, i32 99}');
    expect(out).toContain('!0 = !{!"fp16", i32 5}');
    expect(out).toContain('!2 = !{!"usm_system_allocator", i32 17}');
    expect(out).toContain('!6 = !{!0}');
    // an already named operand stays; both operands of @f now are the fp16 pair
    expect(out).toContain('define void @f() !sycl_used_aspects !7 {');
    expect(out).toContain('!7 = !{!0, !0}');
    // the tables are still there: cleanup-sycl-metadata removes them
    expect(out).toContain('!sycl_aspects = ');
  });

  it('takes no name from a table entry that is not a named pair', () => {
    const text = 'define void @f() !sycl_used_aspects !1 {\n  ret void\n}\n\n!sycl_aspects = !{!0}\n\n!0 = !{i32 1, i32 6}\n!1 = !{i32 6}\n';
    expect(run('record-sycl-aspect-names', text)).toBe(printModule(parseModule(text, { filename: 'test.ll' })));
  });

  it('leaves a module without !sycl_aspects as it is', () => {
    const text = 'define void @f() !sycl_used_aspects !0 {\n  ret void\n}\n\n!0 = !{i32 6}\n';
    expect(run('record-sycl-aspect-names', text)).toBe(printModule(parseModule(text, { filename: 'test.ll' })));
  });
});

describe('cleanup-sycl-metadata', () => {
  it('deletes !sycl_aspects and !sycl_types_that_use_aspects and nothing else', () => {
    const out = run('record-sycl-aspect-names,cleanup-sycl-metadata', MODULE);
    expect(out).not.toContain('!sycl_aspects =');
    expect(out).not.toContain('!sycl_types_that_use_aspects');
    expect(out).toContain('!llvm.ident = ');
    // the names live on in the functions' lists
    expect(out).toMatch(/!\d+ = !\{!"fp16", i32 5\}/);
  });

  it('is registered under the names intel/llvm uses', () => {
    expect(registry.print(registry.parse('record-sycl-aspect-names,cleanup-sycl-metadata'))).toBe('record-sycl-aspect-names,cleanup-sycl-metadata');
  });
});
