/**
 * A probe of the driver's device printf, apart from syclkit's code generation: two hand-written
 * PTX kernels that call `vprintf` once per thread, one with its format string in `.const` (where
 * `@syclkit/gpu-targets` puts `__spirv_ocl_printf`'s `addrspace(2)` formats, as DPC++ does with
 * `opencl_constant` ones) and one in `.global` (where nvcc puts C string literals). If the
 * first-launch kernel prints fewer lines than the emulation counted, the probe says whether the
 * driver prints at all, and whether the format's state space matters.
 */
import { openCudaPlatform, type CudaPlatformOptions } from '@syclkit/runtime';

/** Threads of each probe launch (one block): the lines each must print. */
export const PROBE_THREADS = 4;

export type ProbeSpace = 'const' | 'global';

export const PROBE_SPACES: readonly ProbeSpace[] = ['const', 'global'];

function bytesOf(text: string): string {
  return [...Buffer.from(`${text}\0`, 'utf8')].join(', ');
}

/** The probe module's PTX: entry `syclkit_printf_probe_<space>` per state space, no parameters. */
export function printfProbePtx(): string {
  const formats = PROBE_SPACES.map((space) => {
    const text = `syclkit printf probe (.${space} format): thread %u\n`;
    return `.${space} .align 1 .b8 probe_format_${space}[${Buffer.byteLength(text) + 1}] = {${bytesOf(text)}};`;
  });
  const entries = PROBE_SPACES.map(
    (space) => `.visible .entry syclkit_printf_probe_${space}()
{
\t.local .align 8 .b8 \targs[8];
\t.reg .b32 \t%r<3>;
\t.reg .b64 \t%rd<5>;
\tmov.u32 \t%r1, %tid.x;
\tmov.u64 \t%rd1, args;
\tst.local.u32 \t[%rd1], %r1;
\tcvta.local.u64 \t%rd2, %rd1;
\tmov.u64 \t%rd3, probe_format_${space};
\tcvta.${space}.u64 \t%rd4, %rd3;
\t{
\t.param .b64 param0;
\tst.param.b64 \t[param0+0], %rd4;
\t.param .b64 param1;
\tst.param.b64 \t[param1+0], %rd2;
\t.param .b32 retval0;
\tcall.uni (retval0), vprintf, (param0, param1);
\tld.param.b32 \t%r2, [retval0+0];
\t}
\tret;
}
`,
  );
  return `// syclkit gpu-check: device printf probe (hand-written)
.version 7.8
.target sm_52
.address_size 64

.extern .func (.param .b32 func_retval0) vprintf
(
\t.param .b64 vprintf_param_0,
\t.param .b64 vprintf_param_1
)
;
${formats.join('\n')}

${entries.join('\n')}`;
}

export interface PrintfProbeResult {
  readonly space: ProbeSpace;
  readonly threads: number;
  readonly buildMs: number;
}

/** Child process: loads the probe module with the driver and launches one probe kernel (the lines go to stdout at the synchronization). */
export function printfProbe(space: string, options: CudaPlatformOptions = {}): PrintfProbeResult {
  if (space !== 'const' && space !== 'global') throw new Error(`printf-probe takes const or global, not ${space}`);
  const cuda = openCudaPlatform(options);
  const driver = cuda.driver;
  try {
    // The probe loads its module itself, outside the runtime's back end, so it must make a context
    // current first (run 3 on the H100: CUDA_ERROR_INVALID_CONTEXT without it).
    driver.contextSetCurrent(driver.primaryContextRetain(driver.device(0)));
    const start = performance.now();
    const built = driver.moduleLoadData(Buffer.from(printfProbePtx()), 16 * 1024);
    const buildMs = performance.now() - start;
    if (built.status !== 0 || built.module === undefined) {
      throw new Error(`the probe module did not build: ${driver.errorName(built.status) ?? built.status}: ${[built.errorLog, built.infoLog].filter((t) => t !== '').join(' | ')}`);
    }
    const fn = driver.moduleFunction(built.module, `syclkit_printf_probe_${space}`);
    driver.launchKernel(fn, [1, 1, 1], [PROBE_THREADS, 1, 1], 0, []);
    driver.contextSynchronize();
    driver.moduleUnload(built.module);
    return { space, threads: PROBE_THREADS, buildMs };
  } finally {
    cuda.close();
  }
}
