/**
 * Separate compilation and linking end to end: the demo's three translation units compiled with
 * `compile -c` into fat objects, one of them archived into a static library (binutils ar, and
 * llvm-ar-16), linked into an executable that registers its images; the executable runs, the
 * descriptors its registration stub received are printed by a test program and compared
 * byte-exact with syclkit's own reading, and `syclkit check ./app` gives the container's matrix.
 * Then -fsycl-link with a host-only relink, -fno-sycl-rdc, and each device-link error.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kernelInfoSymbol, readFatObject, readProgramDescriptors } from '@syclkit/objects';
import { SAMPLE_KERNELS, scratch, syclkit, writeSample } from '../../test/harness.js';
import { findLlvmTool } from '../llvm-tools.js';
import { REGISTRATION_STUB_SOURCE, registrationDump } from '../driver/registration.js';

const TARGETS = '-fsycl-targets=spir64,intel_gpu_pvc,intel_gpu_dg1';
const hasTools = findLlvmTool('llc') !== undefined && existsSync('/usr/bin/cc') && existsSync('/usr/bin/ar');
const llvmAr = findLlvmTool('llvm-ar');
const bundler = ['/usr/bin/clang-offload-bundler-16', '/usr/lib/llvm-16/bin/clang-offload-bundler'].find((p) => existsSync(p));
const s = scratch('link');
let units: string[] = [];
const matrixOf = (text: string): string => text.split('\n').slice(1).join('\n');

function cc(args: string[]): void {
  execFileSync('cc', args, { cwd: s.dir });
}

describe.skipIf(!hasTools)('syclkit link (skipped without llc-16, cc and ar)', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    units = writeSample(s.dir);
    for (const unit of units) {
      const r = await syclkit('compile', '-fsycl-device-obj=llvmir', '-c', unit, '-o', unit.replace(/\.ll$/, '.o'));
      expect([r.code, r.err]).toEqual([0, '']);
    }
    execFileSync('ar', ['rcs', s.path('libtonemap.a'), 'tonemap.o'], { cwd: s.dir });
    const r = await syclkit('compile', '-fsycl-device-obj=llvmir', ...units, TARGETS, '-Wno-sycl-aspect-mismatch', '-o', s.path('app.fatbin'));
    expect(r.code).toBe(0);
  }, 120_000);
  afterAll(() => s.cleanup());

  it('compile -c writes a relocatable fat object holding the unit\'s IR byte for byte, and its symbols', () => {
    const fat = readFatObject(new Uint8Array(readFileSync(s.path('nbody.o'))), 'nbody.o');
    expect(fat.hostId).toBe('host-x86_64-unknown-linux-gnu');
    expect(fat.bundles.map((b) => b.id)).toEqual(['sycl-spir64-unknown-unknown']);
    expect(Buffer.from(fat.bundles[0]!.data).equals(readFileSync(s.path('nbody.ll')))).toBe(true);
    expect(fat.targetSymbols.get('sycl-spir64-unknown-unknown')).toEqual(expect.arrayContaining(['_ZTS9Integrate', '_ZTS13ScaleVelocity']));
    expect(execFileSync('readelf', ['-h', s.path('nbody.o')]).toString()).toMatch(/Type:\s+REL \(Relocatable file\)/);
  });

  it('links fat objects and a static library into an executable that registers its images and reports them', async () => {
    const r = await syclkit('link', '-fsycl-device-obj=llvmir', s.path('nbody.o'), s.path('shade.o'), s.path('libtonemap.a'), TARGETS, '-Wno-sycl-aspect-mismatch', '-v', '-o', s.path('app'));
    expect([r.code, r.err]).toEqual([0, '']);
    expect(r.out).toContain(`linked ${s.path('libtonemap.a')}(tonemap.o) (defines _Z7tonemapf)\n`);
    expect(r.out).toContain('no host object defines main');
    const ran = execFileSync(s.path('app')).toString();
    expect(ran.split('\n')[0]).toBe(`${s.path('app')}: 18 device images registered from 1 offload descriptor`);
    expect(ran).toContain('  intel_gpu_dg1: 0 bytes (empty: filtered out for the target), entries: _ZTS11ShadePixels _ZTS13HalfHistogram\n');
  });

  it("gives syclkit check the same matrix for the executable as for the container", async () => {
    const fromContainer = await syclkit('check', s.path('app.fatbin'));
    const fromProgram = await syclkit('check', s.path('app'));
    expect(fromProgram.code).toBe(0);
    expect(matrixOf(fromProgram.out)).toBe(matrixOf(fromContainer.out));
    const diff = await syclkit('inspect', '-diff', s.path('app.fatbin'), s.path('app'));
    expect(diff.out).toContain('no differences in bundles, images, kernels or requirements');
    const explain = await syclkit('explain', s.path('app'), '--kernel', 'ScaleVelocity', '--aspect', 'fp64');
    expect(explain.out).toContain("image 'app_spir64_4' of bundle spir64 requires 'fp64'");
  });

  it('hands the registration stub the descriptor syclkit reads from the executable, byte for byte', async () => {
    // A test program: its main prints everything the registration stub received at load time.
    writeFileSync(s.path('dump_main.c'), '#include <stdio.h>\nvoid syclkit_dump_registered(FILE *out);\nint main(void) { syclkit_dump_registered(stdout); return 0; }\n');
    cc(['-c', 'dump_main.c', '-o', 'dump_main.o']);
    const r = await syclkit('link', '-fsycl-device-obj=llvmir', s.path('nbody.o'), s.path('shade.o'), s.path('libtonemap.a'), s.path('dump_main.o'), TARGETS, '-Wno-sycl-aspect-mismatch', '-o', s.path('dump_app'));
    expect([r.code, r.err]).toEqual([0, '']);
    const received = execFileSync(s.path('dump_app'), { maxBuffer: 1 << 28 }).toString();
    expect(received).toMatch(/^descriptor 0: version 1, 18 images\n image 0: version 2, kind 4, format 0, target "spir64"\n/);
    expect(received).toBe(registrationDump(readProgramDescriptors(new Uint8Array(readFileSync(s.path('dump_app'))), 'dump_app')));
    expect(REGISTRATION_STUB_SOURCE).toContain('void __sycl_register_lib(syclkit_device_binaries *desc)');
  });

  it.skipIf(llvmAr === undefined)('reads static libraries made by llvm-ar-16 as well', async () => {
    execFileSync(llvmAr!, ['rcs', s.path('libtonemap_llvm.a'), 'tonemap.o'], { cwd: s.dir });
    const r = await syclkit('link', '-fsycl-device-obj=llvmir', s.path('nbody.o'), s.path('shade.o'), s.path('libtonemap_llvm.a'), TARGETS, '-Wno-sycl-aspect-mismatch', '-o', s.path('app_llvm'));
    expect([r.code, r.err]).toEqual([0, '']);
    expect(matrixOf((await syclkit('check', s.path('app_llvm'))).out)).toBe(matrixOf((await syclkit('check', s.path('app.fatbin'))).out));
  });

  it.skipIf(bundler === undefined || findLlvmTool('llvm-objcopy') === undefined || findLlvmTool('llvm-as') === undefined)('links a fat object clang-offload-bundler-16 made (its openmp bundle renamed to sycl by llvm-objcopy-16)', async () => {
    // Upstream LLVM 16's bundler refuses the kind 'sycl'; the layout is the same for every kind.
    execFileSync(findLlvmTool('llvm-as')!, [s.path('nbody.ll'), '-o', s.path('nbody.bc')]);
    execFileSync(findLlvmTool('llc')!, ['-filetype=obj', '-o', s.path('empty_host.o')], { input: 'target triple = "x86_64-unknown-linux-gnu"\n' });
    execFileSync(bundler!, ['-type=o', '-targets=openmp-spir64-unknown-unknown,host-x86_64-unknown-linux-gnu', `-input=${s.path('nbody.bc')}`, `-input=${s.path('empty_host.o')}`, `-output=${s.path('tool.o')}`]);
    execFileSync(findLlvmTool('llvm-objcopy')!, ['--rename-section', '__CLANG_OFFLOAD_BUNDLE__openmp-spir64-unknown-unknown=__CLANG_OFFLOAD_BUNDLE__sycl-spir64-unknown-unknown', s.path('tool.o')]);
    const fat = readFatObject(new Uint8Array(readFileSync(s.path('tool.o'))), 'tool.o');
    expect(Buffer.from(fat.bundles[0]!.data).equals(readFileSync(s.path('nbody.bc')))).toBe(true);
    const r = await syclkit('link', '-fsycl-device-obj=llvmir', s.path('tool.o'), s.path('shade.o'), s.path('libtonemap.a'), TARGETS, '-Wno-sycl-aspect-mismatch', '-o', s.path('app_tool'));
    expect([r.code, r.err]).toEqual([0, '']);
    expect(matrixOf((await syclkit('check', s.path('app_tool'))).out)).toBe(matrixOf((await syclkit('check', s.path('app.fatbin'))).out));
  });

  it('--json reports the members linked and the registered images', async () => {
    const r = await syclkit('link', '-fsycl-device-obj=llvmir', s.path('shade.o'), s.path('libtonemap.a'), '-Wno-sycl-aspect-mismatch', '--json', '-o', s.path('json_app'));
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as { ok: boolean; members: { file: string; because: string }[]; suppliedMain: boolean; bundles: { target: string; images: { kernels: string[] }[] }[] };
    expect(report.ok).toBe(true);
    expect(report.members).toEqual([{ file: `${s.path('libtonemap.a')}(tonemap.o)`, because: '_Z7tonemapf' }]);
    expect(report.suppliedMain).toBe(true);
    expect(report.bundles.map((b) => b.target)).toEqual(['spir64']);
  });

  it('pulls in no archive member the program does not need', async () => {
    execFileSync('ar', ['rcs', s.path('libboth.a'), 'tonemap.o', 'nbody.o'], { cwd: s.dir });
    const r = await syclkit('link', '-fsycl-device-obj=llvmir', s.path('shade.o'), s.path('libboth.a'), '-Wno-sycl-aspect-mismatch', '-v', '-o', s.path('shade_app'));
    expect(r.code).toBe(0);
    expect(r.out).toContain('(tonemap.o) (defines _Z7tonemapf)');
    expect(r.out).not.toContain('(nbody.o)');
    expect(r.out).not.toContain('_ZTS9Integrate');
  });

  it('-fsycl-link makes dev_image.o once; a host-only change relinks without linking device code again', async () => {
    const dev = await syclkit('link', '-fsycl-device-obj=llvmir', '-fsycl-link', s.path('nbody.o'), s.path('shade.o'), s.path('libtonemap.a'), TARGETS, '-Wno-sycl-aspect-mismatch', '-o', s.path('dev_image.o'));
    expect([dev.code, dev.err]).toEqual([0, '']);
    expect(readFatObject(new Uint8Array(readFileSync(s.path('dev_image.o')))).bundles.map((b) => b.id)).toEqual(['sycl-spir64_image-unknown-unknown']);
    writeFileSync(s.path('host_a.c'), `#include <stdio.h>\nvoid ${kernelInfoSymbol('_ZTS9Integrate')}(void) {}\nint host_b(void);\nint main(void) { printf("host_b says %d\\n", host_b()); return 0; }\n`);
    for (const version of [1, 2]) {
      writeFileSync(s.path('host_b.c'), `int host_b(void) { return ${version}; }\n`);
      cc(['-c', 'host_a.c', 'host_b.c']);
      const r = await syclkit('link', '-fsycl-device-obj=llvmir', s.path('dev_image.o'), s.path('host_a.o'), s.path('host_b.o'), '-v', '-o', s.path('app2'));
      expect([r.code, r.err]).toEqual([0, '']);
      expect(execFileSync(s.path('app2')).toString()).toBe(`host_b says ${version}\n`);
    }
    expect(matrixOf((await syclkit('check', s.path('app2'))).out)).toBe(matrixOf((await syclkit('check', s.path('app.fatbin'))).out));
    expect(matrixOf((await syclkit('check', s.path('dev_image.o'))).out)).toBe(matrixOf((await syclkit('check', s.path('app.fatbin'))).out));
  });

  it('-fno-sycl-rdc links each unit alone (per_source) and refuses a SYCL_EXTERNAL call across units', async () => {
    const alone = await syclkit('compile', '-fsycl-device-obj=llvmir', '-c', '-fno-sycl-rdc', s.path('nbody.ll'), '-o', s.path('nbody_nordc.o'));
    expect([alone.code, alone.err]).toEqual([0, '']);
    const r = await syclkit('link', '-fsycl-device-obj=llvmir', s.path('nbody_nordc.o'), '-o', s.path('nbody_app'));
    expect([r.code, r.err]).toEqual([0, '']);
    expect(execFileSync(s.path('nbody_app')).toString()).toContain('entries: _ZTS9Integrate\n');
    const crossing = await syclkit('link', '-fsycl-device-obj=llvmir', '-fno-sycl-rdc', s.path('shade.o'), s.path('tonemap.o'), '-o', s.path('never'));
    expect(crossing.code).toBe(1);
    expect(crossing.err).toBe(
      `${s.path('shade.o')}: error: '_ZZ4mainENKUlN4sycl3_V12idILi1EEEE_clES2_' calls SYCL_EXTERNAL '_Z7tonemapf', defined in another translation unit (${s.path('tonemap.o')}); -fno-sycl-rdc links each unit's device code alone, so device code cannot cross units\n`,
    );
    expect(existsSync(s.path('never'))).toBe(false);
  });

  it('compile takes fat objects and static libraries beside IR files, choosing members as link does', async () => {
    mkdirSync(s.path('objects'));
    const r = await syclkit('compile', '-fsycl-device-obj=llvmir', s.path('nbody.o'), s.path('shade.o'), s.path('libtonemap.a'), TARGETS, '-Wno-sycl-aspect-mismatch', '-o', s.path('objects/app.fatbin'));
    expect([r.code, r.err]).toEqual([0, '']);
    expect((await syclkit('inspect', '-diff', s.path('app.fatbin'), s.path('objects/app.fatbin'))).out).toContain('no differences');
  });

  describe('errors name the file and what is missing, and write nothing', () => {
    const refused = async (args: string[], message: string | RegExp): Promise<void> => {
      const out = s.path('refused');
      const r = await syclkit('link', '-fsycl-device-obj=llvmir', ...args, '-o', out);
      expect(r.code).toBe(1);
      if (typeof message === 'string') expect(r.err).toBe(message);
      else expect(r.err).toMatch(message);
      expect(existsSync(out)).toBe(false);
    };

    it('a SYCL_EXTERNAL function no input defines', () =>
      refused([s.path('nbody.o'), s.path('shade.o')], `${s.path('shade.o')}: error: device code uses '_Z7tonemapf' (in '_ZZ4mainENKUlN4sycl3_V12idILi1EEEE_clES2_'), which no input defines\n`));

    it('a kernel the host refers to that no device image defines (at the final link)', () => {
      writeFileSync(s.path('host_k.c'), `void ${kernelInfoSymbol('_ZTS7Missing')}(void) {}\n`);
      cc(['-c', 'host_k.c']);
      return refused(
        [s.path('nbody.o'), s.path('shade.o'), s.path('libtonemap.a'), s.path('host_k.o')],
        `${s.path('host_k.o')}: error: the host code refers to kernel '_ZTS7Missing' (through sycl::_V1::detail::KernelInfo), but no device image defines it; link the object or library with its device code\n`,
      );
    });

    it('a truncated fat object', () => {
      const bytes = readFileSync(s.path('nbody.o'));
      writeFileSync(s.path('cut.o'), bytes.subarray(0, bytes.length - 100));
      return refused([s.path('cut.o')], new RegExp(`^${s.path('cut.o')}: error: offset \\d+ \\(0x[0-9a-f]+\\): truncated: the section header table \\(\\d+ headers\\) spans offsets \\d+–\\d+, but the file is \\d+ bytes long\\n$`));
    });

    it('a corrupt archive member and a truncated archive', () => {
      const lib = readFileSync(s.path('libtonemap.a'));
      const member = lib.indexOf(Buffer.from('\x7fELF'));
      const corrupt = Buffer.from(lib);
      corrupt.write('JUNK', member, 'latin1');
      writeFileSync(s.path('libcorrupt.a'), corrupt);
      writeFileSync(s.path('libcut.a'), lib.subarray(0, lib.length - 50));
      return Promise.all([
        refused([s.path('shade.o'), s.path('libcorrupt.a')], `${s.path('libcorrupt.a')}(tonemap.o): error: offset 0 (0x0): not an ELF file: expected the magic bytes 7f 45 4c 46 at offset 0\n`),
        refused([s.path('shade.o'), s.path('libcut.a')], new RegExp(`^${s.path('libcut.a')}: error: offset \\d+ \\(0x[0-9a-f]+\\): truncated: member 'tonemap.o' \\(header at offset \\d+\\) has \\d+ bytes of data, but the archive ends at offset \\d+\\n$`)),
      ]);
    });

    it('an object for another host triple', async () => {
      const r = await syclkit('compile', '-fsycl-device-obj=llvmir', '-c', s.path('tonemap.ll'), '-host=aarch64-unknown-linux-gnu', '-o', s.path('arm.o'));
      expect(r.code).toBe(0);
      await refused([s.path('nbody.o'), s.path('arm.o')], `${s.path('arm.o')}: error: an object for aarch64 (64-bit ELF); this link is for host 'x86_64-unknown-linux-gnu'\n`);
      // A fat object whose host bundle names another triple, for the same machine.
      const r2 = await syclkit('compile', '-fsycl-device-obj=llvmir', '-c', s.path('tonemap.ll'), '-host=x86_64-unknown-freebsd', '-o', s.path('win.o'));
      expect(r2.code).toBe(0);
      await refused([s.path('win.o')], `${s.path('win.o')}: error: a fat object for host 'x86_64-unknown-freebsd' (bundle 'host-x86_64-unknown-freebsd'); this link is for host 'x86_64-unknown-linux-gnu'\n`);
    });
  });

  it('-host-object puts a real host object under the device IR; its main runs, and run submits to the executable', async () => {
    writeFileSync(s.path('tu_host.c'), `#include <stdio.h>\nvoid ${kernelInfoSymbol('_ZTS9Integrate')}(void) {}\nint main(void) { puts("tu main"); return 0; }\n`);
    cc(['-c', 'tu_host.c']);
    const c = await syclkit('compile', '-fsycl-device-obj=llvmir', '-c', s.path('nbody.ll'), '-host-object', s.path('tu_host.o'), '-o', s.path('tu_fat.o'));
    expect([c.code, c.err]).toEqual([0, '']);
    const fat = readFatObject(new Uint8Array(readFileSync(s.path('tu_fat.o'))));
    expect(fat.elf.symbols().some((sym) => sym.name === 'main')).toBe(true);
    const r = await syclkit('link', '-fsycl-device-obj=llvmir', s.path('tu_fat.o'), '-fsycl-targets=spir64,intel_gpu_dg1', '-o', s.path('tu_app'));
    expect([r.code, r.err]).toEqual([0, '']);
    expect(execFileSync(s.path('tu_app')).toString()).toBe('tu main\n');
    const ok = await syclkit('run', s.path('tu_app'), '-kernel', '_ZTS9Integrate', '-device', 'intel_gpu_dg1', '-range', '64');
    expect(ok.code).toBe(0);
    const refused = await syclkit('run', s.path('tu_app'), '-kernel', '_ZTS13ScaleVelocity', '-device', 'intel_gpu_dg1', '-range', '64');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('Required aspect fp64 is not supported on the device');
  });

  it('the demo kernels are all in the linked program', async () => {
    const r = await syclkit('check', s.path('app'), '--json');
    const kernels = (JSON.parse(r.out) as { kernels: string[] }).kernels;
    expect([...kernels].sort()).toEqual(Object.values(SAMPLE_KERNELS).sort());
  });
});
