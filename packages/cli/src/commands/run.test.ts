import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIO } from '../io.js';
import { main } from '../main.js';

function memoryIO(): CliIO & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (chunk: string | Uint8Array) => (out += String(chunk)) },
    stderr: { write: (chunk: string) => (err += chunk) },
    readStdin: async () => Buffer.alloc(0),
    stdoutIsTTY: false,
    out: () => out,
    err: () => err,
  };
}

async function syclkit(...argv: string[]) {
  const io = memoryIO();
  const code = await main(argv, io);
  return { code, out: io.out(), err: io.err() };
}

const dir = mkdtempSync(join(tmpdir(), 'syclkit-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const path = (name: string) => join(dir, name);
function file(name: string, content: string): string {
  writeFileSync(path(name), content);
  return path(name);
}

// K1 uses nothing, K2 uses fp64 through a helper (the design's example); Fixed comes from a
// translation unit compiled with -fsycl-fixed-targets=intel_gpu_pvc (its aspect value is 1000 in
// this module's !sycl_aspects); Wide requires a 32x32 work-group.
const APP = `target triple = "spir64-unknown-unknown"

define spir_kernel void @K1() #0 {
entry:
  ret void
}

define spir_kernel void @K2() #0 !sycl_used_aspects !2 {
entry:
  call spir_func void @double_math()
  ret void
}

define internal spir_func void @double_math() !sycl_used_aspects !2 {
entry:
  ret void
}

define spir_kernel void @Fixed() #1 !sycl_fixed_targets !3 {
entry:
  ret void
}

define spir_kernel void @Wide() #0 !reqd_work_group_size !4 {
entry:
  ret void
}

attributes #0 = { "sycl-module-id"="app.cpp" }
attributes #1 = { "sycl-module-id"="fixed.cpp" }

!sycl_aspects = !{!0, !1}
!0 = !{!"fp64", i32 6}
!1 = !{!"intel_gpu_pvc", i32 1000}
!2 = !{i32 6}
!3 = !{i32 1000}
!4 = !{i32 32, i32 32}
`;

/** K1 and K2 only. */
const K1_K2 = APP.slice(0, APP.indexOf('define spir_kernel void @Fixed')) + 'attributes #0 = { "sycl-module-id"="app.cpp" }\n\n!sycl_aspects = !{!0}\n!0 = !{!"fp64", i32 6}\n!2 = !{i32 6}\n';

/** post-link (with the given bundling) and wrap: a spir64 bundle and an intel_gpu_dg1 AOT bundle. */
async function build(name: string, bundling: 'design' | 'upstream', split: string, ir = APP): Promise<string> {
  const input = file(`${name}.ll`, ir);
  const postLink = await syclkit(
    'post-link',
    `-split=${split}`,
    `-bundling=${bundling}`,
    '-symbols',
    '-S',
    '-incompatible-images=empty-module',
    '-o',
    path(`${name}.table`),
    '-o',
    `intel_gpu_dg1,${path(`${name}_dg1.table`)}`,
    input,
  );
  expect(postLink, 'post-link').toMatchObject({ code: 0 });
  const fatbin = path(`${name}.fatbin`);
  expect(await syclkit('wrap', path(`${name}.table`), '-target=intel_gpu_dg1', path(`${name}_dg1.table`), '-o', fatbin), 'wrap').toMatchObject({ code: 0 });
  return fatbin;
}

let app = '';
beforeAll(async () => {
  app = await build('app', 'design', 'source');
});

describe('syclkit run', () => {
  it('runs K1 on a device without fp64 from its AOT bundle and says which image ran', async () => {
    const { code, out, err } = await syclkit('run', app, '-kernel', 'K1', '-device', 'intel_gpu_dg1', '-range', '64');
    expect([code, err]).toEqual([0, '']);
    expect(out).toMatch(/^K1 ran on intel_gpu_dg1 from bundle intel_gpu_dg1, image app_\d: 64 work-items, program of 1 function\n$/);
  });

  it('reports kernel_not_supported for K2 on that device and exits 1', async () => {
    expect(await syclkit('run', app, '--kernel', 'K2', '--device', 'intel_gpu_dg1', '--range', '64')).toEqual({
      code: 1,
      out: '',
      err: 'kernel_not_supported: Required aspect fp64 is not supported on the device\n',
    });
  });

  it('runs K2 from the SPIR-V bundle on a device with fp64', async () => {
    const { code, out } = await syclkit('run', app, '-kernel', 'K2', '-device', 'intel_gpu_pvc');
    expect(code).toBe(0);
    expect(out).toMatch(/^K2 ran on intel_gpu_pvc from bundle spir64, image app_\d: 1 work-item, program of 2 functions\n$/);
  });

  it('shows what intel/llvm bundling does: K1 shares an image with K2 and is rejected', async () => {
    const upstream = await build('upstream', 'upstream', 'none', K1_K2);
    expect(await syclkit('run', upstream, '-kernel', 'K1', '-device', 'intel_gpu_skl')).toMatchObject({ code: 0 });
    expect(await syclkit('run', upstream, '-kernel', 'K1', '-device', 'intel_gpu_dg1')).toEqual({
      code: 1,
      out: '',
      err: 'kernel_not_supported: Required aspect fp64 is not supported on the device\n',
    });
  });

  it('checks fixed targets, naming them through -aspect, unless -semantics=intel-llvm', async () => {
    const message = "Kernel was compiled with '-fsycl-fixed-targets=intel_gpu_pvc' but was submitted to a different device.";
    expect(await syclkit('run', app, '-kernel', 'Fixed', '-device', 'intel_gpu_skl', '-aspect', 'intel_gpu_pvc=1000')).toMatchObject({ code: 1, err: `kernel_not_supported: ${message}\n` });
    expect(await syclkit('run', app, '-kernel', 'Fixed', '-device', 'intel_gpu_skl')).toMatchObject({
      code: 1,
      err: "kernel_not_supported: Kernel was compiled with '-fsycl-fixed-targets=1000' but was submitted to a different device.\n",
    });
    expect(await syclkit('run', app, '-kernel', 'Fixed', '-device', 'intel_gpu_pvc', '-aspect', 'intel_gpu_pvc=1000')).toMatchObject({ code: 0 });
    expect(await syclkit('run', app, '-kernel', 'Fixed', '-device', 'intel_gpu_skl', '-semantics=intel-llvm')).toMatchObject({ code: 0 });
  });

  it('submits an nd_range and reports nd_range errors', async () => {
    expect(await syclkit('run', app, '-kernel', 'Wide', '-device', 'intel_gpu_pvc', '-range', '64x64', '-local', '32x32')).toMatchObject({ code: 0 });
    expect(await syclkit('run', app, '-kernel', 'Wide', '-device', 'intel_gpu_pvc', '-range', '64x64', '-local', '16x16')).toEqual({
      code: 1,
      out: '',
      err: "nd_range: The specified local size {16, 16} doesn't match the required work-group size specified in the program source {32, 32}\n",
    });
    expect(await syclkit('run', app, '-kernel', 'Wide', '-device', 'intel_gpu_skl', '-range', '64x64', '-local', '32x32')).toMatchObject({
      code: 1,
      err: 'kernel_not_supported: Required work-group size 1024 is not supported on the device\n',
    });
  });

  it('takes a device description file', async () => {
    const device = file('fp64-dg1.yaml', 'target: intel_gpu_dg1\nname: dg1-with-fp64\naspects: [fp16, fp64, atomic64]\n');
    const { code, out } = await syclkit('run', app, '-kernel', 'K2', '-device', device);
    expect(code).toBe(0);
    expect(out).toMatch(/^K2 ran on dg1-with-fp64 from bundle spir64, image app_(\d) \(its image app_\1 in bundle intel_gpu_dg1 is empty\): 1 work-item, program of 2 functions\n$/);
    const bad = file('bad.yaml', 'name: x\nmax-work-group-size: many\n');
    expect(await syclkit('run', app, '-kernel', 'K2', '-device', bad)).toEqual({
      code: 1,
      out: '',
      err: `${bad}:2:22: error: 'max-work-group-size' must be a positive integer, got "many"\n`,
    });
  });

  it('prints the launch as JSON', async () => {
    const { code, out } = await syclkit('run', app, '-kernel', 'Wide', '-device', 'intel_gpu_pvc', '-range', '32x32', '-json');
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({
      kernel: 'Wide',
      device: 'intel_gpu_pvc',
      bundle: 'spir64',
      match: 'jit',
      requirements: { aspects: [], workGroupSizes: [[32, 32]], subGroupSizes: [] },
      workItems: 1024,
      program: { backend: 'simulated-jit', kernels: ['Wide'], discarded: [], inspected: true },
    });
  });

  it('reports an unknown kernel and an unknown device', async () => {
    expect(await syclkit('run', app, '-kernel', 'K9', '-device', 'intel_gpu_pvc')).toEqual({
      code: 1,
      out: '',
      err: "syclkit run: error: no kernel 'K9'; did you mean 'K1'? (kernels: Fixed, K1, Wide, K2)\n",
    });
    expect(await syclkit('run', app, '-kernel', 'K1', '-device', 'intel_gpu_pvcc')).toEqual({
      code: 1,
      out: '',
      err: "syclkit run: error: unknown SYCL target 'intel_gpu_pvcc'; did you mean 'intel_gpu_pvc'? (and no device description file of that name)\n",
    });
  });

  it('finds a kernel by the name of its kernel-name type, as explain and check do, and refuses an ambiguous one', async () => {
    const named = await build(
      'named',
      'design',
      'kernel',
      `target triple = "spir64-unknown-unknown"

define spir_kernel void @_ZTS13ScaleVelocity() #0 {
  ret void
}

define spir_kernel void @_ZTSN1a6ReduceE() #0 {
  ret void
}

define spir_kernel void @_ZTSN1b6ReduceE() #0 {
  ret void
}

attributes #0 = { "sycl-module-id"="app.cpp" }
`,
    );
    const ran = await syclkit('run', named, '-kernel', 'ScaleVelocity', '-device', 'intel_gpu_pvc');
    expect([ran.code, ran.err]).toEqual([0, '']);
    expect(ran.out).toMatch(/^_ZTS13ScaleVelocity ran on intel_gpu_pvc /);
    const qualified = await syclkit('run', named, '-kernel', 'b::Reduce', '-device', 'intel_gpu_pvc');
    expect(qualified.out).toMatch(/^_ZTSN1b6ReduceE ran on /);
    expect(await syclkit('run', named, '-kernel', 'Reduce', '-device', 'intel_gpu_pvc')).toEqual({
      code: 1,
      out: '',
      err: "syclkit run: error: kernel name 'Reduce' is ambiguous: it names _ZTSN1b6ReduceE, _ZTSN1a6ReduceE; give the full name of one\n",
    });
    expect((await syclkit('run', named, '-kernel', 'ScaleVelocty', '-device', 'intel_gpu_pvc')).err).toContain("no kernel 'ScaleVelocty'; did you mean 'ScaleVelocity'?");
  });

  it('rejects incomplete command lines', async () => {
    expect(await syclkit('run', app, '-device', 'intel_gpu_pvc')).toMatchObject({ code: 1, err: 'syclkit run: error: -kernel <name> is required\n' });
    expect(await syclkit('run', app, '-kernel', 'K1')).toMatchObject({ code: 1, err: 'syclkit run: error: -device <target|file> is required\n' });
    expect(await syclkit('run', '-kernel', 'K1', '-device', 'intel_gpu_pvc')).toMatchObject({ code: 1, err: 'syclkit run: error: no fat binary given\n' });
    expect(await syclkit('run', app, '-kernel', 'K1', '-device', 'intel_gpu_pvc', '-local', '8')).toMatchObject({ code: 1, err: 'syclkit run: error: -local needs -range (the global range of the nd_range)\n' });
    expect(await syclkit('run', app, '-kernel', 'K1', '-device', 'intel_gpu_pvc', '-range', 'big')).toMatchObject({
      code: 1,
      err: "syclkit run: error: -range 'big' is not a list of 1 to 3 non-negative integers (e.g. 1024, 64x64, 8,8,8)\n",
    });
    expect(await syclkit('run', app, '-kernel', 'K1', '-device', 'intel_gpu_pvc', '-aspect', 'pvc')).toMatchObject({ code: 1, err: "syclkit run: error: -aspect needs <name>=<value>, got 'pvc'\n" });
    expect(await syclkit('run', app, '-kernel', 'K1', '-device', 'intel_gpu_pvc', '-semantics=sycl')).toMatchObject({ code: 1, err: "syclkit run: error: -semantics must be design or intel-llvm, got 'sycl'\n" });
    expect(await syclkit('run', path('missing.fatbin'), '-kernel', 'K1', '-device', 'intel_gpu_pvc')).toMatchObject({
      code: 1,
      err: `syclkit run: error: ${path('missing.fatbin')}: no such file or directory\n`,
    });
  });

  it('explains itself with -help', async () => {
    const { code, out } = await syclkit('run', '-help');
    expect(code).toBe(0);
    expect(out).toMatch(/^usage: syclkit run <app\.fatbin> \[<lib\.fatbin>\.\.\.\] -kernel <name> -device <target\|file>/);
    expect(out).toContain('kernel_not_supported: Required aspect fp64 is not supported on');
  });
});
