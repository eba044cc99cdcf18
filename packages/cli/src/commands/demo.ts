import { join } from 'node:path';
import { formatDiagnostics } from '@syclkit/pass-manager';
import { builtinAspectTable } from '@syclkit/device-config';
import { AotToolError, ContainerReader, canPrintForLlvm, findLlvmSpirvTools } from '@syclkit/offload-wrapper';
import { Runtime, SyclError, deviceFromTarget, parseDeviceDescription, type Device } from '@syclkit/runtime';
import { formatOptions, parseArgs, type OptionSpec } from '../args.js';
import { CliError, type Command } from '../command.js';
import { writeFileAtomic, type CliIO } from '../io.js';
import { compileProgram, makeDirectory, type CompileOptions, type CompileResult } from '../driver/compile.js';
import { compatibilityMatrix, formatMatrix } from '../driver/check.js';
import { answerExplain, factsFromContainer, formatAnswer } from '../driver/explain.js';
import { SAMPLE_KERNELS, SAMPLE_UNITS } from '../driver/sample.js';
import { DEVICE_OBJ_ENV, defaultDeviceObj, type DeviceObj } from '../driver/device-code.js';
import { missingGpuTools } from '../driver/gpu-aot.js';
import { ElfFile, isElf } from '@syclkit/objects';
import { addOnOf, formatImageSummary } from './compile.js';

const OPTIONS: readonly OptionSpec[] = [
  { name: 'write-sample', kind: 'value', valueName: '<dir>', help: 'Write the three translation units (.ll) to <dir> and exit, to run the commands yourself' },
  { name: 'help', aliases: ['h'], help: 'Show this help' },
];

const HELP = `usage: syclkit demo [--write-sample <dir>]

Runs the whole toolchain on an embedded DPC++ program of three translation units (nbody.ll,
shade.ll, tonemap.ll: kernels using double, sycl::half, a 64-bit atomic_ref, a required
sub-group size, a SYCL_EXTERNAL function from another file and an if_device_has<aspect::fp16>
call), in memory: compile for spir64 and four AOT targets (NVIDIA and AMD images are PTX and
code objects when LLVM 16's llc and ld.lld are installed), list the images, the compatibility
matrix over five devices, an explanation, and kernel submissions to simulated devices — one
refused with kernel_not_supported, and the speculative-compilation case that must succeed.
Images of spir64 and the Intel targets are SPIR-V when llvm-spirv is installed (Debian:
llvm-spirv-15, llvm-15), LLVM IR otherwise; $SYCLKIT_DEVICE_OBJ (spirv or llvmir) decides instead.

options:
${formatOptions(OPTIONS)}`;

/** The targets and devices the demo uses. */
export const DEMO_TARGETS = 'spir64,intel_gpu_pvc,intel_gpu_dg1,nvidia_gpu_sm_80,amd_gpu_gfx90a';
const GPU_TARGETS = ['nvidia_gpu_sm_80', 'amd_gpu_gfx90a'] as const;
export const DEMO_DEVICES = ['intel_gpu_pvc', 'intel_gpu_dg1', 'intel_gpu_tgllp', 'nvidia_gpu_sm_80', 'amd_gpu_gfx90a'] as const;

const FILES = SAMPLE_UNITS.map((u) => u.file).join(' ');

function heading(io: CliIO, n: number, title: string, command?: string): void {
  io.stdout.write(`\n${n === 0 ? '' : `${n}. `}${title}\n${command === undefined ? '' : `   $ ${command}\n`}\n`);
}

function indent(text: string): string {
  return text.replace(/^(?=.)/gm, '   ');
}

/**
 * What the demo's images are: `SYCLKIT_DEVICE_OBJ` when set, else SPIR-V when llvm-spirv is
 * installed and LLVM IR when it is not (the demo must run on a machine without Debian's LLVM).
 */
export function demoDeviceObj(env: NodeJS.ProcessEnv = process.env): { deviceObj: DeviceObj; why: string; hint: string } {
  const get = 'apt-get install llvm-spirv-15 llvm-15 (Debian), or bash scripts/setup-llvm.sh';
  if ((env[DEVICE_OBJ_ENV] ?? '') !== '') {
    const deviceObj = defaultDeviceObj(env);
    return { deviceObj, why: `${DEVICE_OBJ_ENV}=${deviceObj}`, hint: deviceObj === 'spirv' ? '-fsycl-device-obj=llvmir' : `unset ${DEVICE_OBJ_ENV} (llvm-spirv: ${get})` };
  }
  let major: number;
  try {
    major = findLlvmSpirvTools().llvmMajor;
  } catch (error) {
    if (error instanceof AotToolError) return { deviceObj: 'llvmir', why: 'llvm-spirv is not installed', hint: get };
    throw error;
  }
  return canPrintForLlvm(major)
    ? { deviceObj: 'spirv', why: 'llvm-spirv is installed', hint: '-fsycl-device-obj=llvmir' }
    : { deviceObj: 'llvmir', why: `syclkit prints IR for LLVM 15 and later, and the installed llvm-spirv reads LLVM ${major}`, hint: 'a translator built with LLVM 15 or later (Debian: llvm-spirv-15 llvm-15)' };
}

function describeDeviceObj({ deviceObj, why, hint }: { deviceObj: DeviceObj; why: string; hint: string }): string {
  if (deviceObj === 'spirv') {
    return (
      `Images of spir64 and the Intel targets are SPIR-V (${why}): llvm-spirv translated\n` +
      `each one with the options DPC++'s driver passes. For LLVM IR images: ${hint}.\n`
    );
  }
  return `Images are LLVM IR, as -fsycl-device-obj=llvmir makes them: ${why}.\nFor SPIR-V images, as DPC++ makes them: ${hint}.\n`;
}

async function compile(options: Partial<CompileOptions>): Promise<CompileResult> {
  const result = await compileProgram({ units: SAMPLE_UNITS, targets: DEMO_TARGETS, name: 'app', ...options });
  if (!result.ok || result.container === undefined) {
    throw new CliError(`the sample did not compile:\n${formatDiagnostics(result.diagnostics.items)}`);
  }
  return result;
}

/**
 * What the NVIDIA and AMD images hold: a PTX image's `.target` and `.entry` points, a code
 * object's kernel descriptors (`<kernel>.kd` symbols); or why they hold device IR.
 */
function gpuImagesText(result: CompileResult, native: boolean): string {
  if (!native) {
    return "NVIDIA and AMD images: LLVM 16's llc and ld.lld are not installed here, so those bundles keep\ndevice IR (the gpu-aot-unavailable warning above). With them (apt-get install llvm-16 lld-16) the\nimages are PTX and AMDGPU code objects.\n";
  }
  const reader = ContainerReader.fromBytes(result.container!, { fileName: 'app.fatbin' });
  try {
    const lines = ["NVIDIA and AMD images (retargeted, builtins lowered, then LLVM 16's llc, and ld.lld for AMD):"];
    for (const bundle of reader.readDescriptor().bundles) {
      if (!(GPU_TARGETS as readonly string[]).includes(bundle.target)) continue;
      for (const image of bundle.images) {
        if (image.image.length === 0) continue;
        const bytes = image.image;
        if (isElf(bytes)) {
          const kernels = ElfFile.read(bytes).symbols().map((s) => s.name).filter((n) => n.endsWith('.kd')).map((n) => n.slice(0, -3));
          lines.push(`  ${image.name}  AMDGPU code object (ELF), kernels ${kernels.join(', ')}`);
        } else {
          const text = Buffer.from(bytes).toString('latin1');
          const target = /^\.target (\S+?)(?:,|$)/m.exec(text)?.[1] ?? '?';
          const entries = [...text.matchAll(/\.entry (\S+)\(/g)].map((m) => m[1]!);
          lines.push(`  ${image.name}  PTX .target ${target}, .entry ${entries.join(', ')}`);
        }
      }
    }
    lines.push('  (a kernel that reads the global offset has a _with_offset clone taking it, which the design has');
    lines.push('  the runtime launch when the offset is not zero; local accessors become offsets into shared memory)');
    return lines.join('\n') + '\n';
  } finally {
    reader.close();
  }
}

/** One submission, as the runtime answers it. */
function submit(runtime: Runtime, device: Device, kernel: string): string {
  const call = `queue(${device.name}).parallel_for<${kernel.replace(/^_ZTS\d+/, '')}>(1024)`;
  try {
    const launch = runtime.queue(device).parallelFor(kernel, [1024]);
    const addOns = launch.addOnImages.length === 0 ? '' : ` with device_if add-on image ${launch.addOnImages.map((a) => `${a.image} (${a.definitions ? 'definitions' : 'stubs'})`).join(', ')}`;
    const built = launch.program.functions.length === 0 ? 'a native image, nothing to JIT' : `the program compiled ${launch.program.functions.length} functions`;
    return `${call}\n     ran: bundle ${launch.bundle}, image ${launch.image}${addOns}; ${built}`;
  } catch (error) {
    if (!(error instanceof SyclError)) throw error;
    return `${call}\n     threw sycl::exception ${error.render()}`;
  }
}

export const command: Command = {
  name: 'demo',
  summary: 'End-to-end demo on an embedded 3-file DPC++ program: compile, images, compatibility matrix, explain, run',
  async run(argv, io) {
    const args = parseArgs(argv, OPTIONS);
    if (args.flags.has('help')) {
      io.stdout.write(HELP);
      return 0;
    }
    const dir = args.values.get('write-sample')?.[0];
    if (dir !== undefined) {
      makeDirectory(dir, '--write-sample');
      for (const unit of SAMPLE_UNITS) writeFileAtomic(join(dir, unit.file), unit.text);
      io.stdout.write(`wrote ${SAMPLE_UNITS.map((u) => join(dir, u.file)).join(', ')}\n`);
      return 0;
    }

    io.stdout.write(
      'syclkit demo: a DPC++ program of three translation units (device IR as clang -fsycl-device-only -g\n' +
        'emits it), compiled, checked, explained and run on simulated devices. Nothing is written to disk;\n' +
        `'syclkit demo --write-sample <dir>' writes the .ll files so you can run the commands shown.\n`,
    );

    // 1. Compile.
    const format = demoDeviceObj();
    const objFlag = format.deviceObj === 'llvmir' ? ' -fsycl-device-obj=llvmir' : '';
    heading(io, 1, 'Compile: link, device_if, aspect propagation, split, AOT filtering, wrap', `syclkit compile ${FILES} -fsycl-targets=${DEMO_TARGETS}${objFlag} -o app.fatbin -v`);
    const result = await compile({ deviceObj: format.deviceObj });
    io.stdout.write(indent(describeDeviceObj(format)) + '\n');
    io.stdout.write(indent(formatDiagnostics(result.diagnostics.items)) + '\n');
    io.stdout.write(indent(formatImageSummary(result.report!, (v) => builtinAspectTable.nameOf(v) ?? `aspect ${v}`)));
    io.stdout.write(
      indent(
        '\nEach kernel has its own image here: the split is per source file at least, and kernels with\n' +
          'different requirements never share an image. An AOT bundle keeps an image its target cannot run\n' +
          "as an empty row (no code) with its properties, so the runtime can say why the kernel is refused.\n",
      ),
    );
    const native = GPU_TARGETS.every((t) => missingGpuTools(t === 'amd_gpu_gfx90a' ? 'amdgcn-amd-amdhsa' : 'nvptx64-nvidia-cuda').length === 0);
    io.stdout.write(indent(`\n${gpuImagesText(result, native)}`));

    // 2. Matrix.
    const devices = DEMO_DEVICES.map((name) => deviceFromTarget(name));
    const [pvc, dg1, tgllp, , gfx90a] = devices;
    heading(io, 2, 'Which kernel runs where, and why not', `syclkit check app.fatbin --devices ${DEMO_DEVICES.join(',')}`);
    const reader = ContainerReader.fromBytes(result.container!, { fileName: 'app.fatbin' });
    try {
      io.stdout.write(indent(formatMatrix(compatibilityMatrix(reader, devices), 'app.fatbin')));
      io.stdout.write(
        indent(
          native
            ? '\nnvidia_gpu_sm_80 and amd_gpu_gfx90a run the PTX and code objects made for them (a newer NVIDIA\nGPU would JIT the sm_80 PTX too); their refusals are the same requirement checks as anywhere.\n'
            : "\nThe nvidia_gpu_sm_80 and amd_gpu_gfx90a bundles hold device IR here (LLVM 16's tools are missing):\nthe simulation reads it, but the CUDA and HIP runtimes would need PTX and code objects.\n",
        ),
      );

      // 3. Explain.
      heading(io, 3, 'Why does ScaleVelocity need fp64?', 'syclkit explain app.fatbin --kernel ScaleVelocity --aspect fp64');
      const { source, kernel } = factsFromContainer(reader, 'ScaleVelocity');
      io.stdout.write(indent(formatAnswer(answerExplain(source, kernel, 'fp64'))));
      io.stdout.write('\n');
      heading(io, 0, '   And ShadePixels, which calls tonemap() from another file and has an if_device_has<fp16> block?', 'syclkit explain app.fatbin --kernel ShadePixels --aspect fp16 --target amd_gpu_gfx90a');
      const shade = factsFromContainer(reader, 'ShadePixels', 'amd_gpu_gfx90a');
      io.stdout.write(indent(formatAnswer(answerExplain(shade.source, shade.kernel, 'fp16'))));

      // 4. Submissions.
      heading(io, 4, 'Submitting kernels (the runtime: bundle choice, requirement check, simulated JIT)');
      const runtime = new Runtime();
      runtime.registerFatBinary(reader, { name: 'app.fatbin' });
      for (const [device, k] of [
        [pvc, SAMPLE_KERNELS.scaleVelocity],
        [dg1, SAMPLE_KERNELS.scaleVelocity],
        [gfx90a, SAMPLE_KERNELS.shadePixels],
        [pvc, SAMPLE_KERNELS.subgroupReduce],
        [tgllp, SAMPLE_KERNELS.energyCounters],
      ] as const) {
        io.stdout.write(`   ${submit(runtime, device!, k)}\n`);
      }
      io.stdout.write(
        indent(
          "\nShadePixels' if_device_has<fp16> block is a device_if add-on image pair in the spir64 bundle: the\n" +
            'runtime links the definitions where the device has fp16 and the stubs where it does not.\n\n',
        ),
      );
      const skl = deviceFromTarget('intel_gpu_skl');
      const noHalf = parseDeviceDescription('name: fp64-only-gpu\ndevice-type: gpu\nbackend: opencl\naspects: [fp64]\nsub-group-sizes: [8, 16]\nmax-work-group-size: 512\n', { file: 'fp64-only-gpu.yaml' });
      for (const device of [skl, noHalf]) io.stdout.write(`   ${submit(runtime, device, SAMPLE_KERNELS.shadePixels)}\n`);
    } finally {
      reader.close();
    }

    // 5. Speculative compilation.
    heading(
      io,
      5,
      'Speculative compilation: one image for the whole program (-fsycl-device-code-split=off)',
      `syclkit compile ${FILES} -fsycl-device-code-split=off${objFlag} -o off.fatbin`,
    );
    io.stdout.write(
      indent(
        'Integrate uses no optional feature, but shares nbody.cpp with kernels that need fp64 and atomic64.\n' +
          'intel_gpu_tgllp has no fp64. Submitting Integrate there must not fail because of its neighbours.\n\n',
      ),
    );
    for (const bundling of ['design', 'upstream'] as const) {
      const off = await compile({ split: 'off', bundling, targets: 'spir64', deviceObj: format.deviceObj });
      const offReader = ContainerReader.fromBytes(off.container!, { fileName: `off-${bundling}.fatbin` });
      try {
        const runtime = new Runtime();
        runtime.registerFatBinary(offReader, { name: `off-${bundling}.fatbin` });
        const images = off.report!.bundles[0]!.images.filter((image) => addOnOf(image) === undefined).length;
        const label =
          bundling === 'design'
            ? `syclkit (design bundling): ${images} images, kernels grouped by what they require (and the device_if add-on pair)`
            : `intel/llvm's bundling (--bundling=upstream): ${images} image for all kernels (and the device_if add-on pair)`;
        io.stdout.write(`   ${label}\n   ${submit(runtime, tgllp!, SAMPLE_KERNELS.integrate)}\n\n`);
      } finally {
        offReader.close();
      }
    }
    io.stdout.write(
      indent(
        'The design bundles by requirement class even with split=off, so the submission succeeds; with\n' +
          "intel/llvm's grouping the image's requirements are the union of all its kernels' and the runtime\n" +
          'refuses a kernel that uses no optional feature (OptionalDeviceFeatures.md, "No runtime exception\n' +
          'for speculative compilation").\n',
      ),
    );
    io.stdout.write('\nNext: syclkit compile --help, syclkit check --help, syclkit explain --help, syclkit split-plan --help.\n');
    return 0;
  },
};
