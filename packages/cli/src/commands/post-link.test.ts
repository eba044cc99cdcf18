import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSyclkit } from '../../test/testing.js';

async function run(command: string, argv: string[], stdin = '') {
  return runSyclkit([command, ...argv], stdin);
}

const root = mkdtempSync(join(tmpdir(), 'syclkit-post-link-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
function workdir(): string {
  const dir = join(root, `case${n++}`);
  rmSync(dir, { recursive: true, force: true });
  writeFileSync(join(root, '.keep'), '');
  return (mkdtempSync(dir + '-'));
}

const input = `target triple = "spir64-unknown-unknown"
define spir_kernel void @a() #0 !sycl_used_aspects !0 { ret void }
define spir_kernel void @b() #1 { ret void }
attributes #0 = { "sycl-module-id"="a.cpp" }
attributes #1 = { "sycl-module-id"="b.cpp" }
!0 = !{!1}
!1 = !{!"fp64", i32 6}
`;

describe('syclkit post-link', () => {
  it('splits per source and writes the table, IR, symbols and properties', async () => {
    const dir = workdir();
    const src = join(dir, 'in.ll');
    writeFileSync(src, input);
    const { code, err } = await run('post-link', ['-split=source', '-symbols', '-S', src, '-o', join(dir, 'out.table')]);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(readFileSync(join(dir, 'out.table'), 'utf8')).toBe(
      `[Code|Properties|Symbols]\n${dir}/out_0.ll|${dir}/out_0.prop|${dir}/out_0.sym\n${dir}/out_1.ll|${dir}/out_1.prop|${dir}/out_1.sym\n`,
    );
    expect(readFileSync(join(dir, 'out_0.sym'), 'utf8')).toBe('b\n');
    expect(readFileSync(join(dir, 'out_1.prop'), 'utf8')).toContain('aspects=2|gAAAAAAAAAgBAAAA');
    // no temporary files are left behind
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('writes one table per -o and filters the rows of targeted tables', async () => {
    const dir = workdir();
    const src = join(dir, 'in.ll');
    writeFileSync(src, input);
    const { code } = await run('post-link', ['-split=kernel', '-symbols', '-S', src, '-o', join(dir, 'all.table'), '-o', `intel_gpu_tgllp,${join(dir, 'tgllp.table')}`]);
    expect(code).toBe(0);
    expect(readFileSync(join(dir, 'tgllp.table'), 'utf8').trimEnd().split('\n')).toEqual([
      '[Code|Properties|Symbols]',
      `${dir}/all_0.ll|${dir}/all_intel_gpu_tgllp_0.prop|${dir}/all_0.sym`,
    ]);
  });

  it('reads stdin and writes one IR file with -ir-output-only', async () => {
    const dir = workdir();
    const out = join(dir, 'one.ll');
    const { code } = await run('post-link', ['-ir-output-only', '-split=auto', '-S', '-o', out], input.replace('#1', '#0'));
    expect(code).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('define spir_kernel void @a()');
  });

  it('rejects unknown flags, bad values and missing actions', async () => {
    expect(await run('post-link', ['-bogus'])).toMatchObject({ code: 2, err: expect.stringContaining("unknown option '-bogus'") });
    expect(await run('post-link', ['-split=sometimes'])).toMatchObject({ code: 2, err: expect.stringContaining("invalid value 'sometimes' for -split") });
    expect(await run('post-link', ['-S'])).toMatchObject({ code: 1, err: expect.stringContaining('no actions specified') });
    expect(await run('post-link', ['-ir-output-only', '-symbols'])).toMatchObject({ code: 1, err: expect.stringContaining("-symbols can't be used with -ir-output-only") });
  });

  it('refuses unsupported lowering only when the module needs it', async () => {
    const dir = workdir();
    const src = join(dir, 'in.ll');
    writeFileSync(src, input);
    expect((await run('post-link', ['-split=kernel', '-lower-esimd', '-S', src, '-o', join(dir, 't.table')])).code).toBe(0);
    const esimd = join(dir, 'esimd.ll');
    writeFileSync(esimd, 'define spir_kernel void @e() !sycl_explicit_simd !0 { ret void }\n!0 = !{}\n');
    const r = await run('post-link', ['-split=kernel', '-lower-esimd', '-S', esimd, '-o', join(dir, 'e.table')]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('-lower-esimd is not supported by syclkit post-link');
    expect(existsSync(join(dir, 'e.table'))).toBe(false);
  });

  it('reports a parse error with its location and writes nothing', async () => {
    const dir = workdir();
    const src = join(dir, 'bad.ll');
    writeFileSync(src, 'define spir_kernel void @k( {\n');
    const r = await run('post-link', ['-split=kernel', '-S', src, '-o', join(dir, 't.table')]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/bad\.ll:\d+:\d+: error: /);
    expect(readdirSync(dir)).toEqual(['bad.ll']);
  });

  it('bundles by the design rule and warns about SYCL_EXTERNAL mismatches with -bundling=design', async () => {
    const dir = workdir();
    const src = join(dir, 'in.ll');
    writeFileSync(
      src,
      `target triple = "spir64-unknown-unknown"
define spir_kernel void @k() #0 { call spir_func void @ext() ret void }
define spir_func void @ext() #0 !sycl_used_aspects !0 { ret void }
attributes #0 = { "sycl-module-id"="a.cpp" }
!0 = !{i32 6}
`,
    );
    const r = await run('post-link', ['-split=source', '-bundling=design', '-emit-only-kernels-as-entry-points', '-S', src, '-o', join(dir, 't.table')]);
    expect(r.code).toBe(0);
    expect(r.err).toContain("warning: function 'ext' uses aspect 'fp64' not expected by its calling kernel.");
  });
});

describe('sharded runs', () => {
  it('write the same files and tables with worker threads (built CLI, SYCLKIT_POST_LINK_THREADS=3)', () => {
    const bin = fileURLToPath(new URL('../../bin/syclkit.js', import.meta.url));
    const dir = workdir();
    const src = join(dir, 'in.ll');
    const kernels = Array.from({ length: 7 }, (_, i) => `define spir_kernel void @k${i}() #0 { call spir_func void @h${i % 3}() ret void }`);
    const helpers = Array.from({ length: 3 }, (_, i) => `define internal spir_func void @h${i}() { ret void }`);
    writeFileSync(src, ['target triple = "spir64-unknown-unknown"', ...kernels, ...helpers, 'attributes #0 = { "sycl-module-id"="a.cpp" }', ''].join('\n'));
    const outputs = ['one', 'three'].map((name) => {
      mkdirSync(join(dir, name));
      const r = spawnSync(process.execPath, [bin, 'post-link', '-split=kernel', '-symbols', '-S', src, '-o', join(dir, name, 'out.table')], {
        env: { ...process.env, SYCLKIT_POST_LINK_THREADS: name === 'one' ? '1' : '3' },
        encoding: 'utf8',
      });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      const files = readdirSync(join(dir, name)).sort();
      return { files, text: files.map((f) => readFileSync(join(dir, name, f), 'latin1').replaceAll(`/${name}/`, '/X/')) };
    });
    expect(outputs[1]).toEqual(outputs[0]);
    expect(outputs[0]!.files).toHaveLength(22);
  });
});

describe('syclkit module-split', () => {
  it('writes <prefix>_<n> files, symbols followed by an empty line, and <prefix>.table', async () => {
    const dir = workdir();
    const src = join(dir, 'in.ll');
    writeFileSync(src, input);
    const prefix = join(dir, 'split');
    const { code, err } = await run('module-split', ['-split=source', '-S', src, '-o', prefix]);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(readFileSync(`${prefix}.table`, 'utf8')).toBe(
      `[Code|Properties|Symbols]\n${prefix}_0.ll|${prefix}_0.prop|${prefix}_0.sym\n${prefix}_1.ll|${prefix}_1.prop|${prefix}_1.sym\n`,
    );
    expect(readFileSync(`${prefix}_1.sym`, 'utf8')).toBe('a\n\n');
  });

  it('rejects an unknown split mode', async () => {
    expect(await run('module-split', ['-split=none'])).toMatchObject({ code: 2, err: expect.stringContaining("invalid value 'none' for -split") });
  });
});

describe('syclkit llvm-split (SYCL mode of intel/llvm llvm-split)', () => {
  it('writes <prefix>_<n>.ll and .sym, no properties, and a Code|Symbols table', async () => {
    const dir = workdir();
    const src = join(dir, 'in.ll');
    writeFileSync(src, input);
    const prefix = join(dir, 'split');
    const { code, err } = await run('llvm-split', ['-sycl-split=source', '-S', src, '-o', prefix]);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(readFileSync(`${prefix}.table`, 'utf8')).toBe(`[Code|Symbols]\n${prefix}_0.ll|${prefix}_0.sym\n${prefix}_1.ll|${prefix}_1.sym\n`);
    expect(readdirSync(dir).filter((f) => f.endsWith('.prop'))).toEqual([]);
    expect(readFileSync(`${prefix}_1.sym`, 'utf8')).toBe('a\n\n');
  });

  it('splits like module-split: the same images in the same order, read from stdin', async () => {
    const dir = workdir();
    expect((await run('module-split', ['-split=kernel', '-S', '-o', join(dir, 'm')], input)).code).toBe(0);
    expect((await run('llvm-split', ['-sycl-split', 'kernel', '-S', '-o', join(dir, 'l')], input)).code).toBe(0);
    for (const n of [0, 1]) {
      expect(readFileSync(join(dir, `l_${n}.ll`), 'utf8')).toBe(readFileSync(join(dir, `m_${n}.ll`), 'utf8'));
      expect(readFileSync(join(dir, `l_${n}.sym`), 'utf8')).toBe(readFileSync(join(dir, `m_${n}.sym`), 'utf8'));
    }
  });

  it("refuses LLVM's generic splitting, a missing mode and a missing prefix, writing nothing", async () => {
    const dir = workdir();
    expect(await run('llvm-split', ['-j2', '-o', join(dir, 'x')], input)).toMatchObject({ code: 2, err: expect.stringContaining("-j2: LLVM's generic module splitting is not implemented") });
    expect(await run('llvm-split', ['-S', '-o', join(dir, 'x')], input)).toMatchObject({ code: 2, err: expect.stringContaining('missing -sycl-split=source|kernel|auto') });
    expect(await run('llvm-split', ['-sycl-split=per_kernel', '-o', join(dir, 'x')], input)).toMatchObject({ code: 2, err: expect.stringContaining("invalid value 'per_kernel' for -sycl-split") });
    expect(await run('llvm-split', ['-sycl-split=kernel', '-S'], input)).toMatchObject({ code: 2, err: expect.stringContaining('missing -o <prefix>') });
    expect(readdirSync(dir)).toEqual([]);
  });
});
