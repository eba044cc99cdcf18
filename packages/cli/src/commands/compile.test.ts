import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseModule } from '@syclkit/ir';
import { ContainerReader, imageRequirements, inspectContainer } from '@syclkit/offload-wrapper';
import { SAMPLE_KERNELS, scratch, syclkit, writeSample } from '../../test/harness.js';
import { runSyclkit } from '../../test/testing.js';

const EXAMPLE_PASS = resolve(fileURLToPath(new URL('../../../../docs/examples/count-kernels-pass.mjs', import.meta.url)));
const s = scratch('compile');
let units: string[] = [];
beforeAll(() => {
  units = writeSample(s.dir);
});
afterAll(() => s.cleanup());

function bundles(path: string) {
  const reader = ContainerReader.open(path);
  try {
    return inspectContainer(reader).bundles.map((b) => ({
      target: b.target,
      images: b.images
        .filter((i) => i.properties['SYCL/add on image'] === undefined)
        .map((i) => ({ kernels: i.kernels, empty: i.empty, aspects: imageRequirements(i).aspects, subGroup: imageRequirements(i).reqdSubGroupSize })),
      addOns: b.images.filter((i) => i.properties['SYCL/add on image'] !== undefined).map((i) => ({ actions: i.kernels, pair: i.properties['SYCL/add on image'], aspects: imageRequirements(i).aspects })),
    }));
  } finally {
    reader.close();
  }
}

describe('syclkit compile', () => {
  it('writes one bundle per target; kernels with different requirements get different images; AOT rows the target cannot run are empty', async () => {
    const out = s.path('app.fatbin');
    const r = await syclkit('compile', '-fsycl-device-obj=llvmir', ...units, '-fsycl-targets=spir64,intel_gpu_pvc,intel_gpu_dg1', '-o', out);
    expect(r.code).toBe(0);
    expect(r.out).toBe('');
    const got = bundles(out);
    expect(got.map((b) => b.target)).toEqual(['spir64', 'intel_gpu_pvc', 'intel_gpu_dg1']);
    const spir = got[0]!.images;
    expect(spir).toHaveLength(6);
    for (const image of spir) expect(image.kernels).toHaveLength(1);
    const of = (kernel: string) => spir.find((i) => i.kernels.includes(kernel))!;
    expect(of(SAMPLE_KERNELS.integrate).aspects).toEqual([]);
    expect(of(SAMPLE_KERNELS.scaleVelocity).aspects).toEqual([6]);
    expect(of(SAMPLE_KERNELS.energyCounters).aspects).toEqual([28]);
    expect(of(SAMPLE_KERNELS.subgroupReduce).subGroup).toBe(8);
    expect(of(SAMPLE_KERNELS.shadePixels).aspects).toEqual([6]); // tonemap() from tonemap.ll uses double; fp16 only under if_device_has
    // The if_device_has<fp16> action: an add-on pair (definitions needing fp16, stubs) in the JIT bundle only.
    expect(got[0]!.addOns).toEqual([
      { actions: ['_ZZZ4mainENKUlN4sycl3_V12idILi1EEEE_clES2_ENKUlvE_clEv'], pair: { '1': 1 }, aspects: [5] },
      { actions: ['_ZZZ4mainENKUlN4sycl3_V12idILi1EEEE_clES2_ENKUlvE_clEv'], pair: { '1': 0 }, aspects: [] },
    ]);
    expect(got[1]!.addOns).toEqual([]);
    const dg1 = got[2]!.images;
    expect(dg1.filter((i) => i.empty).flatMap((i) => i.kernels).sort()).toEqual([SAMPLE_KERNELS.halfHistogram, SAMPLE_KERNELS.shadePixels, SAMPLE_KERNELS.scaleVelocity].sort());
    expect(got[1]!.images.filter((i) => i.empty).flatMap((i) => i.kernels)).toEqual([SAMPLE_KERNELS.subgroupReduce]); // pvc: no sub-group size 8
  });

  it('finds aspects of a type that two translation units both define, in the unit listed second', async () => {
    const unit = (name: string, body: string) => `target triple = "spir64-unknown-unknown"
%"class.sycl::_V1::detail::half_impl::half" = type { half }
${body}
!sycl_aspects = !{!0}
!sycl_types_that_use_aspects = !{!1}
!0 = !{!"fp16", i32 5}
!1 = !{!"class.sycl::_V1::detail::half_impl::half", i32 5}
attributes #0 = { "sycl-module-id"="${name}" }
`;
    const first = s.file('first.ll', unit('first.cpp', 'define weak_odr spir_kernel void @Plain() #0 {\n  ret void\n}'));
    const second = s.file('second.ll', unit('second.cpp', 'define weak_odr spir_kernel void @Half() #0 {\n  %h = alloca %"class.sycl::_V1::detail::half_impl::half", align 2\n  ret void\n}'));
    const out = s.path('types.fatbin');
    expect((await syclkit('compile', '-fsycl-device-obj=llvmir', first, second, '-o', out, '-Wno-unknown-excluded-aspect')).code).toBe(0);
    const images = bundles(out)[0]!.images;
    expect(images.find((i) => i.kernels.includes('Half'))!.aspects).toEqual([5]);
    expect(images.find((i) => i.kernels.includes('Plain'))!.aspects).toEqual([]);
  });

  it('writes the same bytes for the same input', async () => {
    const other = scratch('compile-again');
    const a = s.path('same.fatbin');
    const b = join(other.dir, 'same.fatbin');
    expect((await syclkit('compile', '-fsycl-device-obj=llvmir', ...units, '-fsycl-targets=spir64,intel_gpu_dg1', '-o', a)).code).toBe(0);
    expect((await syclkit('compile', '-fsycl-device-obj=llvmir', ...units, '-fsycl-targets=spir64,intel_gpu_dg1', '-o', b)).code).toBe(0);
    expect(readFileSync(a).equals(readFileSync(b))).toBe(true);
    other.cleanup();
  });

  it("reads a translation unit from standard input for '-'", async () => {
    const fromFiles = s.path('files.fatbin');
    const withStdin = s.path('stdin.fatbin');
    expect((await syclkit('compile', '-fsycl-device-obj=llvmir', ...units, '-fsycl-targets=spir64,intel_gpu_dg1', '-o', fromFiles, '-Wno-sycl-aspect-mismatch')).code).toBe(0);
    const r = await runSyclkit(['compile', '-fsycl-device-obj=llvmir', '-', ...units.slice(1), '-fsycl-targets=spir64,intel_gpu_dg1', '-o', withStdin, '-Wno-sycl-aspect-mismatch'], readFileSync(units[0]!, 'latin1'));
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(bundles(withStdin)).toEqual(bundles(fromFiles));
  });

  it('renders diagnostics like clang, with the call chain as notes and the flag to silence them', async () => {
    const r = await syclkit('compile', '-fsycl-device-obj=llvmir', ...units, '-o', s.path('w.fatbin'));
    expect(r.code).toBe(0);
    expect(r.err).toContain("shade.cpp:18: warning: function 'main::'lambda0'(sycl::_V1::id<1>)::operator()(sycl::_V1::id<1>) const' uses aspect 'fp64' not listed in its 'sycl::device_has' attribute [-Wsycl-aspect-mismatch]\n");
    expect(r.err).toContain("shade.cpp:19:32: note: propagated from call to function 'bucket(float, int)'\n");
    expect(r.err).toContain("shade.cpp:11:43: note: function 'bucket(float, int)' uses aspect 'fp64' here\n");
    expect(r.err).toMatch(/\d+ warnings? generated\.\n$/);
  });

  it('fails with -Werror and writes nothing; -Wno-<code> silences a code', async () => {
    const out = s.path('werror.fatbin');
    const r = await syclkit('compile', '-fsycl-device-obj=llvmir', ...units, '-o', out, '-Werror');
    expect(r.code).toBe(1);
    expect(r.err).toContain('error: function');
    expect(r.err).toContain('[-Werror,-Wsycl-aspect-mismatch]');
    expect(existsSync(out)).toBe(false);
    const quiet = await syclkit('compile', '-fsycl-device-obj=llvmir', ...units, '-o', out, '-Wno-sycl-aspect-mismatch',);
    expect(quiet.code).toBe(0);
    expect(quiet.err).toBe('');
    const unknown = await syclkit('compile', '-fsycl-device-obj=llvmir', units[0]!, '-o', out, '-Wno-sycl-aspect-mismatchh');
    expect(unknown.err).toContain("unknown warning option '-Wno-sycl-aspect-mismatchh'; did you mean '-Wno-sycl-aspect-mismatch'?");
  });

  it('AOT-compiles only targets -fsycl-fixed-targets also lists, and warns about the others', async () => {
    const out = s.path('fixed.fatbin');
    const r = await syclkit('compile', '-fsycl-device-obj=llvmir', ...units, '-fsycl-targets=spir64,intel_gpu_pvc,intel_gpu_dg1', '-fsycl-fixed-targets=intel_gpu_pvc', '-o', out);
    expect(r.code).toBe(0);
    expect(r.err).toContain("warning: '-fsycl-targets' lists 'intel_gpu_dg1' but '-fsycl-fixed-targets' does not; device code is not compiled ahead of time for it [-Wtarget-not-fixed]");
    expect(bundles(out).map((b) => b.target)).toEqual(['spir64', 'intel_gpu_pvc']);
  });

  it('prints a JSON report on stdout with --json', async () => {
    const r = await syclkit('compile', '-fsycl-device-obj=llvmir', units[0]!, '-fsycl-targets=intel_gpu_dg1', '-o', s.path('j.fatbin'), '--json');
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out);
    expect(json.ok).toBe(true);
    expect(json.targets).toEqual(['intel_gpu_dg1']);
    expect(json.pipelines.linked).toMatch(/^globaldce,sycl-propagate-aspects-usage<no-validate;/);
    const images = json.bundles[0].images;
    expect(images.find((i: { kernels: string[] }) => i.kernels.includes(SAMPLE_KERNELS.scaleVelocity))).toMatchObject({ empty: true, requirements: { aspects: ['fp64'] } });
    expect(json.diagnostics).toEqual([]);
  });

  it('prints the pipelines with --print-pipeline; -passes replaces the middle', async () => {
    const r = await syclkit('compile', '-fsycl-device-obj=llvmir', 'a.ll', '--print-pipeline', '-passes=');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^# translation unit a\.ll\nsycl-conditional-call-on-device<unique-prefix=uid[0-9a-f]{8};no-normalize;mark-declarations>,sycl-propagate-aspects-usage<validate;exclude-aspects=fp64;/);
    expect(r.out).toContain('# linked program\nsycl-propagate-aspects-usage<no-validate;');
    const d = await syclkit('compile', '-fsycl-device-obj=llvmir', 'a.ll', '--print-pipeline');
    expect(d.out).toContain('# linked program\nglobaldce,sycl-propagate-aspects-usage<no-validate;');
    const fixed = await syclkit('compile', '-fsycl-device-obj=llvmir', '--print-pipeline', '-fsycl-fixed-targets=intel_gpu_pvc');
    expect(fixed.out).toContain('fixed-targets=intel_gpu_pvc');
  });

  it('reports a bad -passes with a caret under the mistake', async () => {
    const r = await syclkit('compile', '-fsycl-device-obj=llvmir', ...units, '-o', s.path('p.fatbin'), '-passes=globaldce,globldce');
    expect(r.code).toBe(1);
    expect(r.err).toBe("-passes:1:11: error: unknown pass 'globldce'; did you mean 'globaldce'?\nglobaldce,globldce\n          ^~~~~~~~\n");
  });

  it("runs a contributor's pass from --load-pass in -passes", async () => {
    const r = await syclkit('compile', '-fsycl-device-obj=llvmir', ...units, '-o', s.path('l.fatbin'), '--load-pass', EXAMPLE_PASS, '-passes=globaldce,count-kernels<list>', '-Wno-sycl-aspect-mismatch',);
    expect(r.code).toBe(0);
    expect(r.err).toContain('remark: llvm-link defines 6 kernels: _ZTS9Integrate, _ZTS13ScaleVelocity, _ZTS14EnergyCounters, _ZTS14SubgroupReduce, _ZTS11ShadePixels, _ZTS13HalfHistogram [-Rkernel-count]');
    const missing = await syclkit('compile', '-fsycl-device-obj=llvmir', ...units, '-o', s.path('l.fatbin'), '--load-pass', s.path('nope.mjs'));
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("--load-pass: cannot load '");
    const empty = s.file('empty.mjs', 'export const x = 1;\n');
    const none = await syclkit('compile', '-fsycl-device-obj=llvmir', ...units, '-o', s.path('l.fatbin'), '--load-pass', empty);
    expect(none.err).toContain('exports no passes');
  });

  it('keeps the intermediate files with --save-temps and writes the wrapper IR with --emit-wrapper-ir', async () => {
    const temps = s.path('temps');
    const wrapper = s.path('wrapper.ll');
    const r = await syclkit('compile', '-fsycl-device-obj=llvmir', ...units, '-fsycl-targets=spir64,intel_gpu_dg1', '-o', s.path('t.fatbin'), '--save-temps', temps, '--emit-wrapper-ir', wrapper, '-Wno-sycl-aspect-mismatch');
    expect(r.code).toBe(0);
    const files = readdirSync(temps).sort();
    expect(files).toContain('t.linked.ll');
    expect(files).toContain('t_spir64.table');
    expect(files).toContain('t_intel_gpu_dg1.table');
    expect(files.filter((f) => f.endsWith('.prop')).length).toBeGreaterThan(6);
    expect(readFileSync(join(temps, 't_intel_gpu_dg1.table'), 'utf8')).toMatch(/^\[Code\|Properties\|Symbols\]\n/);
    const ir = parseModule(readFileSync(wrapper, 'latin1'), { filename: 'wrapper.ll' });
    expect(ir.getGlobalVariable('.sycl_offloading.descriptor')).toBeDefined();
  });

  it('leaves the explanation facts out with --no-explain-info', async () => {
    const out = s.path('nofacts.fatbin');
    expect((await syclkit('compile', '-fsycl-device-obj=llvmir', units[0]!, '-o', out, '--no-explain-info')).code).toBe(0);
    const reader = ContainerReader.open(out);
    try {
      for (const image of reader.images) expect(image.properties.getSet('syclkit/explain')).toBeUndefined();
    } finally {
      reader.close();
    }
  });

  it('reports --time-passes on stderr', async () => {
    const r = await syclkit('compile', '-fsycl-device-obj=llvmir', units[0]!, '-o', s.path('time.fatbin'), '--time-passes');
    expect(r.code).toBe(0);
    expect(r.err).toContain('globaldce');
    expect(r.err).toContain('sycl-propagate-aspects-usage');
  });

  it('bundles all kernels of split=off in one image with --bundling=upstream, and by requirements otherwise', async () => {
    const design = s.path('off.fatbin');
    const upstream = s.path('off-up.fatbin');
    expect((await syclkit('compile', '-fsycl-device-obj=llvmir', ...units, '-fsycl-device-code-split=off', '-o', design)).code).toBe(0);
    expect((await syclkit('compile', '-fsycl-device-obj=llvmir', ...units, '-fsycl-device-code-split=off', '-bundling=upstream', '-o', upstream)).code).toBe(0);
    expect(bundles(upstream)[0]!.images).toHaveLength(1);
    expect(bundles(design)[0]!.images.length).toBeGreaterThan(1);
  });
});

describe('syclkit compile on bad input', () => {
  it('points at the line and column of an IR syntax error, without a stack trace', async () => {
    const bad = s.file('bad.ll', 'define void @f() {\nentry:\n  %x = add i32 1\n  ret void\n}\n');
    const r = await syclkit('compile', '-fsycl-device-obj=llvmir', bad, '-o', s.path('bad.fatbin'));
    expect(r.code).toBe(1);
    expect(r.err.startsWith(`${bad}:4:3: error: expected ',' in arithmetic operation\n`)).toBe(true);
    expect(r.err).not.toContain('    at ');
    expect(existsSync(s.path('bad.fatbin'))).toBe(false);
  });

  it('refuses output paths it cannot write before doing any work', async () => {
    const r = await syclkit('compile', '-fsycl-device-obj=llvmir', units[0]!, '-o', s.path('nodir/app.fatbin'));
    expect(r.code).toBe(1);
    expect(r.err).toBe(`syclkit compile: error: cannot write the fat binary '${s.path('nodir/app.fatbin')}': there is no directory '${s.path('nodir')}'\n`);
    expect((await syclkit('compile', '-fsycl-device-obj=llvmir', units[0]!, '-o', s.dir)).err).toContain('it is a directory');
    const out = s.path('never.fatbin');
    expect((await syclkit('compile', '-fsycl-device-obj=llvmir', units[0]!, '-o', out, '--emit-wrapper-ir', s.path('nodir/w.ll'))).code).toBe(1);
    expect(existsSync(out)).toBe(false);
    const temps = s.path('a/b/c');
    expect((await syclkit('compile', '-fsycl-device-obj=llvmir', units[0]!, '-o', s.path('deep.fatbin'), '--save-temps', temps)).code).toBe(0);
    expect(readdirSync(temps)).toContain('deep.linked.ll');
  });

  it('names a missing input file', async () => {
    const r = await syclkit('compile', '-fsycl-device-obj=llvmir', s.path('missing.ll'), '-o', s.path('m.fatbin'));
    expect(r.code).toBe(1);
    expect(r.err).toBe(`syclkit compile: error: ${s.path('missing.ll')}: no such file or directory\n`);
  });

  it('rejects an unknown target with a suggestion, and usage errors with status 2', async () => {
    const r = await syclkit('compile', '-fsycl-device-obj=llvmir', units[0]!, '-fsycl-targets=intel_gpu_pvcc', '-o', s.path('u.fatbin'));
    expect(r.code).toBe(1);
    expect(r.err).toContain("error: SYCL target is invalid: 'intel_gpu_pvcc'; did you mean 'intel_gpu_pvc'?");
    expect((await syclkit('compile', '-fsycl-device-obj=llvmir', units[0]!)).err).toBe('syclkit compile: error: no output file: give -o <app.fatbin>\n');
    expect((await syclkit('compile', '-fsycl-device-obj=llvmir', units[0]!)).code).toBe(2);
    expect((await syclkit('compile', '-fsycl-device-obj=llvmir', units[0]!, '-o', 'x', '-fsycl-device-code-split=per_file')).err).toContain("invalid value 'per_file' for -fsycl-device-code-split; expected per_kernel|per_source|off|auto");
  });
});
