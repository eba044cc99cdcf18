import { describe, expect, it } from 'vitest';
import { syclAspects } from './aspects.js';
import { generateModule } from './generator.js';
import { OptionError, resolveGeneratorOptions } from './options.js';
import { generateToSize } from './output.js';
import { planModule } from './plan.js';
import { functionSymbols } from './testing.js';

const small = { kernels: 6, tus: 3, functions: 30 } as const;

describe('generateModule', () => {
  it('gives byte-identical text for the same options', () => {
    expect(generateModule({ ...small, seed: 11 }).text).toBe(generateModule({ ...small, seed: 11 }).text);
  });

  it('gives different text for a different seed', () => {
    expect(generateModule({ ...small, seed: 11 }).text).not.toBe(generateModule({ ...small, seed: 12 }).text);
  });

  it('defines exactly the requested kernels and functions', () => {
    const { text, stats } = generateModule({ kernels: 9, tus: 4, functions: 50 });
    const symbols = functionSymbols(text);
    expect(symbols.kernels).toHaveLength(9);
    expect(symbols.defined.size).toBe(50);
    expect(stats).toMatchObject({ kernels: 9, definitions: 50, bytes: text.length });
  });

  it('gives every kernel weak_odr linkage, a comdat, kernel argument metadata and its TU module id', () => {
    const { text } = generateModule(small);
    const kernels = text.split('\n').filter((l) => l.startsWith('define ') && l.includes('spir_kernel'));
    for (const k of kernels) {
      expect(k).toMatch(/^define weak_odr dso_local spir_kernel void @_ZTSZZ\d+tu\d+_mainv\S+\(/);
      expect(k).toMatch(/ comdat /);
      expect(k).toMatch(/!kernel_arg_buffer_location !\d+/);
      expect(k).toMatch(/!sycl_kernel_omit_args !\d+/);
      const name = /@(\S+)\(/.exec(k)![1]!;
      expect(text).toContain(`$${name} = comdat any`);
    }
    for (let tu = 0; tu < small.tus; tu++) expect(text).toContain(`"sycl-module-id"="tu${tu}.cpp"`);
  });

  it('puts required sub-group and work-group sizes on some kernels, with the values DPC++ uses', () => {
    const { text } = generateModule({ kernels: 80, tus: 4, functions: 80 });
    const node = (id: string): string => new RegExp(`^!${id} = (.*)$`, 'm').exec(text)![1]!;
    const subGroups = [...text.matchAll(/!intel_reqd_sub_group_size !(\d+)/g)].map((m) => node(m[1]!));
    const workGroups = [...text.matchAll(/!reqd_work_group_size !(\d+)/g)].map((m) => node(m[1]!));
    expect(subGroups.length).toBeGreaterThan(0);
    expect(workGroups.length).toBeGreaterThan(0);
    for (const s of subGroups) expect(s).toMatch(/^!\{i32 (8|16|32)\}$/);
    for (const w of workGroups) expect(w).toMatch(/^!\{i32 \d+(, i32 \d+){0,2}\}$/);
  });

  it('emits the !sycl_aspects table and defines every type listed in !sycl_types_that_use_aspects', () => {
    const { text } = generateModule({ kernels: 20, tus: 4, functions: 300, seed: 3 });
    expect(text).toMatch(/^!sycl_aspects = !\{(!\d+, )*!\d+\}$/m);
    const aspectsLine = /^!sycl_aspects = !\{(.*)\}$/m.exec(text)![1]!;
    expect(aspectsLine.split(', ')).toHaveLength(syclAspects.length);
    expect(text).toContain('!{!"fp64", i32 6}');
    expect(text).toContain('!{!"fp16", i32 5}');
    const listed = [...text.matchAll(/^!\d+ = !\{!"([^"]+)", i32 \d+\}$/gm)]
      .map((m) => m[1]!)
      .filter((name) => name.startsWith('class.') || name.startsWith('struct.'));
    expect(listed.length).toBeGreaterThan(0);
    for (const name of listed) expect(text).toContain(`%"${name}" = type {`);
  });

  it('uses optional features: double, sycl::half, functions and instructions with !sycl_used_aspects, declared aspects', () => {
    const { text } = generateModule({ kernels: 40, tus: 4, functions: 600, seed: 5 });
    expect(text).toMatch(/ double /);
    expect(text).toContain('%"class.sycl::_V1::detail::half_impl::half" = type { half }');
    expect(text).toMatch(/^define [^\n]*\) [^\n]*!sycl_used_aspects !\d+/m);
    expect(text).toMatch(/^ {2}%\S+ = call spir_func i64 @_Z18__spirv_AtomicIAdd\S+\(.*!sycl_used_aspects !\d+/m);
    expect(text).toMatch(/!sycl_declared_aspects !\d+/);
  });

  it('has SYCL_EXTERNAL functions, linkonce_odr utilities and internal helpers', () => {
    const { text } = generateModule({ kernels: 8, tus: 4, functions: 200 });
    expect(text).toMatch(/^define dso_local spir_func \S+ @_Z\d+\w+_ext\S*\(.*\) local_unnamed_addr #\d+/m);
    const externalAttr = /^define dso_local spir_func \S+ @\S+\(.*\) local_unnamed_addr (#\d+)/m.exec(text)![1]!;
    expect(text).toMatch(new RegExp(`^attributes ${externalAttr} = \\{[^}]*"sycl-module-id"="tu\\d+\\.cpp"`, 'm'));
    expect(text).toMatch(/^define linkonce_odr dso_local spir_func \S+ @\S+\(.*\) local_unnamed_addr #\d+ comdat/m);
    expect(text).toMatch(/^define internal spir_func /m);
  });

  it('uses the IR constructs a device module has: address spaces, memcpy, lifetime, phi, switch, strings, local memory', () => {
    const { text } = generateModule({ kernels: 16, tus: 4, functions: 160, seed: 2 });
    for (const needle of [
      'addrspacecast',
      '@llvm.memcpy.',
      '@llvm.lifetime.start.',
      ' = phi ',
      '  switch i32 ',
      'private unnamed_addr addrspace(1) constant',
      'private unnamed_addr addrspace(2) constant',
      'internal addrspace(3) global',
      '@__spirv_BuiltInGlobalInvocationId = external',
      '!llvm.module.flags',
      '!opencl.spir.version',
      '!llvm.ident',
    ]) {
      expect(text, needle).toContain(needle);
    }
  });

  it('prints typed pointers with --typed-pointers and opaque pointers otherwise', () => {
    const typed = generateModule({ ...small, pointers: 'typed' }).text;
    const opaque = generateModule({ ...small, pointers: 'opaque' }).text;
    expect(typed).not.toMatch(/[\s(,]ptr[ ,)]/);
    expect(typed).toMatch(/float addrspace\(4\)\*|i32 addrspace\(4\)\*/);
    expect(opaque).toMatch(/\bptr addrspace\(1\)/);
    expect(opaque).not.toMatch(/[\w\]>"]\*[ ,)]/);
  });

  it('adds compile units, subprograms and instruction locations with debug info', () => {
    const plain = generateModule(small).text;
    const debug = generateModule({ ...small, debugInfo: true }).text;
    expect(plain).not.toContain('!dbg');
    expect(debug).toMatch(/^!llvm\.dbg\.cu = !\{(!\d+, ){2}!\d+\}$/m);
    expect(debug).toContain('!{i32 2, !"Debug Info Version", i32 3}');
    expect(debug).toMatch(/distinct !DISubprogram\(name: "[^"]+", linkageName: "_Z/);
    const defines = debug.split('\n').filter((l) => l.startsWith('define '));
    for (const d of defines) expect(d).toMatch(/!dbg !\d+ \{$/);
    expect(debug).toMatch(/^ {2}%\S+ = load .*, !dbg !\d+$/m);
  });

  it('lists one !opencl.spir.version entry per translation unit, as after llvm-link', () => {
    const { text } = generateModule({ ...small, tus: 5 });
    expect(/^!opencl\.spir\.version = !\{(.*)\}$/m.exec(text)![1]!.split(', ')).toHaveLength(5);
  });
});

describe('generateToSize', () => {
  it('grows the module to at least the target size without overshooting far', () => {
    const target = 400 * 1024;
    const sized = generateToSize({ targetSize: target, seed: 4 });
    expect(sized.stats.bytes).toBeGreaterThanOrEqual(target);
    expect(sized.stats.bytes).toBeLessThan(target * 1.3);
    expect(sized.chunks.join('').length).toBe(sized.stats.bytes);
  });

  it('keeps an explicit kernel count while growing', () => {
    const sized = generateToSize({ targetSize: 300 * 1024, kernels: 5 });
    expect(sized.stats.kernels).toBe(5);
    expect(sized.stats.bytes).toBeGreaterThanOrEqual(300 * 1024);
  });

  it('is deterministic', () => {
    const a = generateToSize({ targetSize: 200 * 1024, seed: 8 }).chunks.join('');
    const b = generateToSize({ targetSize: 200 * 1024, seed: 8 }).chunks.join('');
    expect(a).toBe(b);
  });
});

describe('options', () => {
  it('derives the function count from the kernel count when it is not given', () => {
    expect(resolveGeneratorOptions({ kernels: 100 }).functions).toBe(600);
  });

  it('rejects fewer functions than kernels, zero TUs and non-integers', () => {
    expect(() => resolveGeneratorOptions({ kernels: 10, functions: 5 })).toThrow(OptionError);
    expect(() => resolveGeneratorOptions({ tus: 0 })).toThrow(/tus/);
    expect(() => resolveGeneratorOptions({ seed: 1.5 })).toThrow(/seed/);
  });
});

describe('planModule', () => {
  it('only plans calls to deeper levels, so the call graph has no cycles', () => {
    const plan = planModule(resolveGeneratorOptions({ kernels: 30, tus: 5, functions: 900, seed: 6 }));
    for (const f of plan.functions) for (const c of f.callees) expect(plan.functions[c]!.level).toBeGreaterThan(f.level);
  });

  it('gives every helper a caller', () => {
    const plan = planModule(resolveGeneratorOptions({ kernels: 30, tus: 5, functions: 900, seed: 6 }));
    for (const f of plan.functions.filter((g) => g.role === 'helper' || g.role === 'operator' || g.role === 'shared')) {
      expect(f.callers, f.name).toBeGreaterThan(0);
    }
  });

  it('prints every function exactly once', () => {
    const plan = planModule(resolveGeneratorOptions({ kernels: 7, tus: 3, functions: 120 }));
    expect([...plan.order].sort((a, b) => a - b)).toEqual(plan.functions.map((f) => f.id));
  });
});
