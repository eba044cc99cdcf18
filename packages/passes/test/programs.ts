/**
 * Generated DPC++-shaped device programs for this package's tests: kernels, helpers and
 * SYCL_EXTERNAL functions with calls between them (no recursion), aspects propagated to callers as
 * the aspect pass leaves them, required sub-group sizes, three translation units.
 */
import { fc } from '@fast-check/vitest';
import { parseModule, type Module } from '@syclkit/ir';

export interface GenFunction {
  readonly kind: 'kernel' | 'external' | 'helper';
  readonly moduleId: number;
  readonly aspects: readonly number[];
  readonly calls: readonly number[];
  readonly subGroup: number | undefined;
}

/** Aspect values with names in the module's `!sycl_aspects` (fp16, fp64, atomic64, ext_intel_esimd...). */
const ASPECTS = [5, 6, 7, 8];

const genFunction = fc.record({
  kind: fc.constantFrom('kernel', 'kernel', 'external', 'helper', 'helper') as fc.Arbitrary<GenFunction['kind']>,
  moduleId: fc.integer({ min: 0, max: 2 }),
  aspects: fc.subarray(ASPECTS, { maxLength: 2 }),
  callSeeds: fc.array(fc.nat(), { maxLength: 3 }),
  subGroup: fc.option(fc.constantFrom(8, 16, 32), { nil: undefined }),
});

export const genProgram: fc.Arbitrary<readonly GenFunction[]> = fc.array(genFunction, { minLength: 1, maxLength: 8 }).map((raw) => {
  const fns: GenFunction[] = raw.map((f, i) => {
    const later = raw.length - i - 1;
    const calls = later === 0 ? [] : [...new Set(f.callSeeds.map((s) => i + 1 + (s % later)))];
    return { kind: f.kind, moduleId: f.moduleId, aspects: f.aspects, calls, subGroup: f.subGroup };
  });
  const propagated = fns.map((f) => new Set(f.aspects));
  for (let i = fns.length - 1; i >= 0; i--) for (const c of fns[i]!.calls) for (const a of propagated[c]!) propagated[i]!.add(a);
  return fns.map((f, i) => ({ ...f, aspects: [...propagated[i]!].sort((a, b) => a - b) }));
});

export function functionName(fns: readonly GenFunction[], i: number): string {
  return fns[i]!.kind === 'kernel' ? `kernel${i}` : `fn${i}`;
}

export function programText(fns: readonly GenFunction[]): string {
  const lines = [
    'target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"',
    'target triple = "spir64-unknown-unknown"',
    '',
  ];
  const md: string[] = ['!0 = !{!"fp16", i32 5}', '!1 = !{!"fp64", i32 6}', '!2 = !{!"atomic64", i32 7}', '!3 = !{!"ext_intel_esimd", i32 8}'];
  fns.forEach((f, i) => {
    const kernel = f.kind === 'kernel';
    const linkage = kernel ? 'weak_odr ' : f.kind === 'external' ? '' : 'internal ';
    const attrs = kernel || f.kind === 'external' ? ` #${f.moduleId}` : '';
    let meta = '';
    if (f.aspects.length > 0) {
      md.push(`!${md.length} = !{${f.aspects.map((a) => `i32 ${a}`).join(', ')}}`);
      meta += ` !sycl_used_aspects !${md.length - 1}`;
    }
    if (kernel && f.subGroup !== undefined) {
      md.push(`!${md.length} = !{i32 ${f.subGroup}}`);
      meta += ` !intel_reqd_sub_group_size !${md.length - 1}`;
    }
    lines.push(`define ${linkage}${kernel ? 'spir_kernel' : 'spir_func'} void @${functionName(fns, i)}()${attrs}${meta} {`);
    for (const c of f.calls) lines.push(`  call spir_func void @${functionName(fns, c)}()`);
    lines.push('  ret void', '}', '');
  });
  for (let id = 0; id < 3; id++) lines.push(`attributes #${id} = { "sycl-module-id"="tu${id}.cpp" }`);
  lines.push('!sycl_aspects = !{!0, !1, !2, !3}', ...md);
  return lines.join('\n') + '\n';
}

export function programModule(fns: readonly GenFunction[]): Module {
  return parseModule(programText(fns), { filename: 'program.ll' });
}
