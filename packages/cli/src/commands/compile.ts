import { formatDiagnostics, parseDiagnosticFlags, timePasses, type DiagnosticPolicy, type Instrumentation } from '@syclkit/pass-manager';
import { ADD_ON_IMAGE_SET, imageRequirements, type ImageReport, type InspectReport } from '@syclkit/offload-wrapper';
import { builtinAspectTable } from '@syclkit/device-config';
import { PropertySetName } from '@syclkit/formats';
import { choiceOf, formatOptions, parseArgs, UsageError, valueOf, type OptionSpec, type ParsedArgs } from '../args.js';
import type { Command } from '../command.js';
import type { CliIO } from '../io.js';
import { passRegistry } from '../passes.js';
import { DEFAULT_MIDDLE_PIPELINE, SPLIT_MODES, compilePipelineText, compileProgram, linkedPipeline, selectTargets, translationUnitPipelineText, uniquePrefix, type CompileResult, type DeviceCodeSplit } from '../driver/compile.js';
import { imageSetKind } from '@syclkit/post-link';
import { DiagnosticLog, knownDriverCodes } from '../driver/diagnostics.js';
import { diagnosticsJSON, splitDiagnosticFlags } from '../driver/cli-common.js';
import { loadPassModules } from '../driver/load-pass.js';
import { DEFAULT_DEVICE_OBJ, DEVICE_OBJ_KINDS, defaultDeviceObj } from '../driver/device-code.js';
import { createProgress } from '../driver/progress.js';
import { MAX_JOBS, jobsOf } from '../driver/jobs.js';
import { CONFIG_FILE_OPTION, configFromFile } from './targets.js';
import { compileToFatObjects, compileUnits, deviceLinkFromCompile } from './link.js';
import { extractBackendArgs } from '../driver/gpu-aot.js';

const OPTIONS: readonly OptionSpec[] = [
  { name: 'fsycl-targets', kind: 'value', joinedOnly: true, valueName: '<list>', help: 'Targets to compile for: spir64 (JIT, default), device names (intel_gpu_pvc, nvidia_gpu_sm_80, ...), triples' },
  { name: 'fsycl-fixed-targets', kind: 'value', joinedOnly: true, valueName: '<list>', help: 'All device code runs only on these targets: warnings for what they lack, AOT only for targets in both lists' },
  { name: 'fsycl-device-code-split', kind: 'value', joinedOnly: true, valueName: 'per_kernel|per_source|off|auto', help: 'Minimum split of kernels into images (default auto); kernels with different requirements never share one' },
  CONFIG_FILE_OPTION,
  { name: 'o', kind: 'value', valueName: '<app.fatbin>', help: 'The fat binary to write (required)' },
  { name: 'emit-wrapper-ir', kind: 'value', valueName: '<file.ll>', help: "Also write the module clang-offload-wrapper would emit for the binary" },
  { name: 'save-temps', kind: 'value', valueName: '<dir>', help: 'Keep the linked IR, post-link tables, images and property files in <dir>' },
  { name: 'passes', kind: 'value', joinedOnly: true, valueName: '<pipeline>', help: `Replace the middle of the pipeline (default '${DEFAULT_MIDDLE_PIPELINE}'; '' for none)` },
  { name: 'offload-passes', kind: 'value', joinedOnly: true, valueName: '<pipeline>', help: "Replace the image-set pipeline each set of targets runs (default: the offload pipeline for these flags; e.g. 'device-if,my-split,offload-images')" },
  { name: 'load-pass', kind: 'value', repeatable: true, valueName: '<module.js>', help: 'Load a JS module exporting definePass(...) entries; their names work in -passes (repeatable)' },
  { name: 'print-pipeline', help: 'Print the pipelines that would run (canonical text) and exit' },
  { name: 'time-passes', help: 'Report the time each pass took (to stderr)' },
  { name: 'j', kind: 'value', valueName: '<n>', help: `Threads for the images (default 1, at most ${MAX_JOBS}; each thread reads the whole program again, so more pay only where the images cost more than that); the output is the same with any number` },
  { name: 'fsycl-device-obj', kind: 'value', joinedOnly: true, valueName: 'spirv|llvmir', help: `What the images of spir64 and Intel targets are: SPIR-V translated by llvm-spirv (spirv), or the device IR (llvmir); default $SYCLKIT_DEVICE_OBJ, else ${DEFAULT_DEVICE_OBJ} (as DPC++; SPIR-V needs llvm-spirv and its llvm-as: Debian llvm-spirv-15 llvm-15)` },
  { name: 'aot', kind: 'value', repeatable: true, valueName: '<backend>|<target>=<backend>', help: 'AOT step per target, overriding -fsycl-device-obj: ir (keep the device IR), llvm-spirv, or gpu (PTX / AMDGPU code objects through LLVM 16: the default for NVIDIA and AMD targets when llc-16 and ld.lld-16 are installed; llc names it too); bare: every AOT target (repeatable)' },
  { name: 'Xsycl-target-backend', kind: 'value', repeatable: true, valueName: '[=<target>] "<args>"', help: "Arguments for a target's back end (every target's without =<target>): --offload-arch=sm_70 / gfx90a, llc options, -Wl,<lld options>" },
  {
    name: 'fsycl-allow-device-image-dependencies',
    help: 'Device code dynamic linking: SYCL_EXTERNAL functions are exported from their own images, and calls to them (or to functions no unit defines) are linked at run time, from this binary or a device library',
  },
  { name: 'device-library', help: 'Build a device library: a fat binary exporting the SYCL_EXTERNAL functions of the units for other binaries to import (implies -fsycl-allow-device-image-dependencies; kernels optional)' },
  { name: 'bundling', kind: 'value', joinedOnly: true, valueName: 'design|upstream', help: "Bundle kernels by requirements (design, default) or as intel/llvm's sycl-post-link does (upstream)" },
  { name: 'no-explain-info', help: "Leave out the facts 'syclkit explain' reads (property set syclkit/explain)" },
  { name: 'W', kind: 'value', repeatable: true, valueName: '<diag>', help: 'Diagnostics: -Werror, -Wno-<code>, -Werror=<code>, -Wno-error=<code> (written joined)' },
  { name: 'json', help: 'Print a JSON report (images, requirements, diagnostics) on stdout instead of text' },
  { name: 'v', help: 'Print the bundles and images that were written' },
  { name: 'c', help: 'Compile one translation unit into a fat object (host object + device IR, clang-offload-bundler layout) for syclkit link' },
  { name: 'host-object', kind: 'value', valueName: '<tu.o>', help: 'With -c: the host object of the unit (default: an empty one made by llc)' },
  { name: 'host', kind: 'value', joinedOnly: true, valueName: '<triple>', help: 'Host triple of fat objects (default x86_64-unknown-linux-gnu)' },
  { name: 'fsycl-link', help: 'Link the device code of fat objects and libraries into a fat object of linked images (see syclkit link)' },
  { name: 'fno-sycl-rdc', help: "With -c or -fsycl-link: link each translation unit's device code alone" },
  { name: 'help', aliases: ['h'], help: 'Show this help' },
];

const HELP = `usage: syclkit compile <tu.ll|tu.bc|tu.o|lib.a|->... -o <app.fatbin> [options]
       syclkit compile -c <tu.ll|tu.bc> [-host-object <host.o>] -o <tu.o>

Compiles DPC++ device code (one LLVM IR file per translation unit, as clang -fsycl-device-only
emits it) into a fat binary with one bundle per target:

  each translation unit   sycl-conditional-call-on-device (device_if), then
                          sycl-propagate-aspects-usage<exclude-aspects=fp64> with warnings
  link                    the units, as llvm-link
  the linked program      the middle pipeline (default '${DEFAULT_MIDDLE_PIPELINE}'; -passes replaces it), then
                          sycl-propagate-aspects-usage<no-validate> (every aspect saved),
                          record-sycl-aspect-names and cleanup-sycl-metadata (the
                          !sycl_aspects table leaves the program; the lists keep the names)
  each set of targets     the offload pipeline (passes over an image set, --print-pipeline shows
                          it): device_if calls decided for a device target, or made into add-on
                          image pairs for JIT; split with the design's requirement rule; per image,
                          requirements, images a target cannot run kept as empty rows, properties,
                          the AOT step, and wrapping into one container. Targets share one set
                          (one split, each image printed once) unless device_if changes the
                          program for a device target

Separate compilation: 'compile -c' writes a fat object; fat objects and static libraries of
them are inputs too (their device IR; from a library only the members the program needs), and
'syclkit link' makes an executable of them (see 'syclkit link --help').

Device code dynamic linking: 'syclkit compile --device-library lib.ll -o lib.fatbin' makes a
fat binary whose images export the SYCL_EXTERNAL functions of lib.ll ('SYCL/exported symbols');
'syclkit compile -fsycl-allow-device-image-dependencies app.ll -o app.fatbin' leaves calls to
SYCL_EXTERNAL functions to the runtime ('SYCL/imported symbols'), which links the images that
export them, from any registered binary, and checks what they require first
('syclkit run app.fatbin lib.fatbin ...', 'syclkit check app.fatbin lib.fatbin').

Diagnostics print like clang ('file:line:col: warning: ... [-Wcode]', call chains as notes);
exit status 1 when there are errors (warnings count with -Werror), and nothing is written.

options (one dash or two: -json, --json):
${formatOptions(OPTIONS)}`;

function splitMode(args: ParsedArgs): DeviceCodeSplit {
  const value = valueOf(args, 'fsycl-device-code-split');
  if (value === undefined) return 'auto';
  if (!Object.hasOwn(SPLIT_MODES, value)) throw new UsageError(`invalid value '${value}' for -fsycl-device-code-split; expected per_kernel|per_source|off|auto`);
  return value as DeviceCodeSplit;
}

function aotMap(values: readonly string[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const value of values) {
    const eq = value.indexOf('=');
    const [target, backend] = eq < 0 ? ['*', value] : [value.slice(0, eq), value.slice(eq + 1)];
    if (target === '' || backend === '') throw new UsageError(`--aot needs <backend> or <target>=<backend>, got '${value}'`);
    map.set(target, backend);
  }
  return map;
}

/** For a device_if add-on image: its pair id and whether it holds the definitions (else stubs). */
export function addOnOf(image: ImageReport): { pair: string; definitions: boolean } | undefined {
  const set = image.properties[ADD_ON_IMAGE_SET];
  if (set === undefined) return undefined;
  const [pair, value] = Object.entries(set)[0] ?? [];
  return pair === undefined ? undefined : { pair, definitions: value === 1 };
}

/** An image's kernels (offload entries it does not export), exported and imported device functions. */
export function symbolsOf(image: ImageReport): { kernels: string[]; exports: string[]; imports: string[] } {
  const exports = Object.keys(image.properties[PropertySetName.EXPORTED_SYMBOLS] ?? {});
  const imports = Object.keys(image.properties[PropertySetName.IMPORTED_SYMBOLS] ?? {});
  return { kernels: image.kernels.filter((entry) => !exports.includes(entry)), exports, imports };
}

/** Bundles and images, one line each (`-v`). */
export function formatImageSummary(report: InspectReport, aspectName: (value: number) => string): string {
  const lines: string[] = [];
  for (const bundle of report.bundles) {
    lines.push(`bundle ${bundle.target}: ${bundle.images.length} image${bundle.images.length === 1 ? '' : 's'}`);
    for (const image of bundle.images) {
      const r = imageRequirements(image);
      const needs = [
        ...r.aspects.map(aspectName),
        ...(r.reqdSubGroupSize === undefined ? [] : [`sub-group size ${r.reqdSubGroupSize}`]),
        ...(r.reqdWorkGroupSize === undefined ? [] : [`work-group size ${r.reqdWorkGroupSize.join('x')}`]),
      ];
      const what = image.empty ? 'empty (filtered out: the target lacks what it needs)' : `${image.size} bytes`;
      const addOn = addOnOf(image);
      const { kernels, exports, imports } = symbolsOf(image);
      const defines = [...(kernels.length > 0 ? [kernels.join(', ')] : []), ...(exports.length > 0 ? [`exports ${exports.join(', ')}`] : [])].join('; ');
      const holds = addOn === undefined ? defines || '(no kernels)' : `device_if add-on ${addOn.pair} (${addOn.definitions ? 'definitions' : 'stubs'}) of ${image.kernels.join(', ')}`;
      const linksTo = imports.length > 0 ? `  imports: ${imports.join(', ')}` : '';
      lines.push(`  ${image.name}  ${holds}  needs: ${needs.join(', ') || 'nothing optional'}${linksTo}  ${what}`);
    }
  }
  return lines.join('\n') + '\n';
}

/** The JSON report of a compile. */
export function compileReportJSON(result: CompileResult, output: string | undefined): unknown {
  return {
    output: output ?? null,
    ok: result.ok,
    targets: result.targets,
    skippedTargets: result.skippedTargets,
    pipelines: result.pipelines,
    kernels: result.kernels,
    exports: result.exports,
    imports: result.imports,
    bundles: (result.report?.bundles ?? []).map((bundle) => ({
      target: bundle.target,
      images: bundle.images.map((image) => {
        const r = imageRequirements(image);
        const addOn = addOnOf(image);
        const { kernels, exports, imports } = symbolsOf(image);
        return {
          name: image.name,
          ...(addOn === undefined ? { kernels } : { kernels: [], addOn: { ...addOn, actions: image.kernels } }),
          ...(exports.length === 0 ? {} : { exports }),
          ...(imports.length === 0 ? {} : { imports }),
          empty: image.empty,
          format: image.format,
          size: image.size,
          requirements: {
            aspects: r.aspects.map((value) => builtinAspectTable.nameOf(value) ?? value),
            ...(r.reqdSubGroupSize === undefined ? {} : { subGroupSize: r.reqdSubGroupSize }),
            ...(r.reqdWorkGroupSize === undefined ? {} : { workGroupSize: r.reqdWorkGroupSize }),
            ...(r.fixedTarget.length === 0 ? {} : { fixedTarget: r.fixedTarget }),
          },
        };
      }),
    })),
    diagnostics: diagnosticsJSON(result.diagnostics.items),
  };
}

export const command: Command = {
  name: 'compile',
  summary: 'Compile device IR of several translation units into a fat binary: link, device_if, aspects, split, AOT, wrap',
  async run(argv, io: CliIO) {
    const { rest: withoutBackendArgs, backendArgs } = extractBackendArgs(argv);
    const { rest, diagnosticFlags } = splitDiagnosticFlags(withoutBackendArgs);
    const args = parseArgs(rest, OPTIONS);
    if (args.flags.has('help')) {
      io.stdout.write(HELP);
      return 0;
    }
    const config = configFromFile(valueOf(args, CONFIG_FILE_OPTION.name), io);
    const split = splitMode(args);
    const threads = jobsOf(args);
    const bundling = choiceOf(args, 'bundling', ['design', 'upstream'] as const) ?? 'design';
    let registry = passRegistry();
    const loadPaths = args.values.get('load-pass') ?? [];
    if (loadPaths.length > 0) registry = (await loadPassModules(loadPaths, registry)).registry;
    const middle = valueOf(args, 'passes') ?? DEFAULT_MIDDLE_PIPELINE;
    const json = args.flags.has('json');

    if (args.flags.has('print-pipeline')) {
      const log = new DiagnosticLog(undefined);
      const { fixed } = selectTargets(config, valueOf(args, 'fsycl-targets'), valueOf(args, 'fsycl-fixed-targets'), log);
      if (log.errorCount > 0) {
        io.stderr.write(formatDiagnostics(log.items));
        return 1;
      }
      const fixedNames = (fixed ?? []).map((t) => t.name);
      const units = args.positionals.length > 0 ? args.positionals : ['<input>'];
      const perUnit = units.map((file) => ({ file, pipeline: registry.print(registry.parse(translationUnitPipelineText(uniquePrefix(file), fixedNames))) }));
      const linked = registry.print(linkedPipeline(registry, middle, fixedNames));
      const offloadText = compilePipelineText({
        split,
        bundling,
        allowDeviceImageDependencies: args.flags.has('fsycl-allow-device-image-dependencies'),
        deviceLibrary: args.flags.has('device-library'),
        ...(valueOf(args, 'save-temps') === undefined ? {} : { saveTemps: valueOf(args, 'save-temps')! }),
      });
      const offload = registry.print(registry.parse(valueOf(args, 'offload-passes') ?? offloadText, { unit: imageSetKind, source: '-offload-passes' }), { unit: imageSetKind });
      if (json) io.stdout.write(`${JSON.stringify({ translationUnits: perUnit, linked, offload }, null, 2)}\n`);
      else {
        for (const { file, pipeline } of perUnit) io.stdout.write(`# translation unit ${file}\n${pipeline}\n`);
        io.stdout.write(`# linked program\n${linked}\n`);
        io.stdout.write(`# each set of targets (image set)\n${offload}\n`);
      }
      return 0;
    }

    if (args.flags.has('c')) return compileToFatObjects(args, io, diagnosticFlags);
    if (args.flags.has('fsycl-link')) return deviceLinkFromCompile(args, io, diagnosticFlags);
    if (args.flags.has('fno-sycl-rdc')) throw new UsageError('-fno-sycl-rdc goes with -c, -fsycl-link or syclkit link');
    if (valueOf(args, 'host-object') !== undefined) throw new UsageError('-host-object goes with -c');
    const output = valueOf(args, 'o');
    if (args.positionals.length === 0) throw new UsageError('no input files');
    if (output === undefined) throw new UsageError('no output file: give -o <app.fatbin>');
    const parsedFlags = parseDiagnosticFlags([...diagnosticFlags, ...(args.values.get('W') ?? []).map((w) => `-W${w}`)], { knownCodes: knownDriverCodes(registry.diagnosticCodes().keys()) });
    const policy: DiagnosticPolicy = parsedFlags.policy;
    const timer = args.flags.has('time-passes') ? timePasses() : undefined;
    const instrumentations: Instrumentation[] = timer === undefined ? [] : [timer];
    const units = await compileUnits(args.positionals, io, args);
    const progress = createProgress(io, 'syclkit compile');
    const saveTemps = valueOf(args, 'save-temps');
    const wrapperIR = valueOf(args, 'emit-wrapper-ir');
    let result: CompileResult;
    try {
      result = await compileProgram({
        units,
        ...(valueOf(args, 'fsycl-targets') === undefined ? {} : { targets: valueOf(args, 'fsycl-targets')! }),
        ...(valueOf(args, 'fsycl-fixed-targets') === undefined ? {} : { fixedTargets: valueOf(args, 'fsycl-fixed-targets')! }),
        split,
        config,
        bundling,
        middle,
        ...(valueOf(args, 'offload-passes') === undefined ? {} : { offload: valueOf(args, 'offload-passes')! }),
        registry,
        output,
        aot: aotMap(args.values.get('aot') ?? []),
        backendArgs,
        deviceObj: choiceOf(args, 'fsycl-device-obj', DEVICE_OBJ_KINDS) ?? defaultDeviceObj(),
        ...(saveTemps === undefined ? {} : { saveTemps }),
        ...(wrapperIR === undefined ? {} : { wrapperIR }),
        explainInfo: !args.flags.has('no-explain-info'),
        ...threads,
        ...(valueOf(args, CONFIG_FILE_OPTION.name) === undefined ? {} : { configFile: valueOf(args, CONFIG_FILE_OPTION.name)! }),
        loadPass: loadPaths,
        allowDeviceImageDependencies: args.flags.has('fsycl-allow-device-image-dependencies'),
        deviceLibrary: args.flags.has('device-library'),
        policy,
        instrumentations,
        onStep: (step) => progress.step(step),
      });
    } finally {
      progress.done();
    }
    result.diagnostics.addApplied(parsedFlags.diagnostics);
    if (json) io.stdout.write(`${JSON.stringify(compileReportJSON(result, result.ok ? output : undefined), null, 2)}\n`);
    else if (result.diagnostics.items.length > 0) io.stderr.write(formatDiagnostics(result.diagnostics.items));
    if (timer !== undefined) io.stderr.write(timer.report());
    if (!result.ok) return 1;
    if (!json && args.flags.has('v') && result.report !== undefined) {
      io.stdout.write(formatImageSummary(result.report, (value) => builtinAspectTable.nameOf(value) ?? `aspect ${value}`));
      const threads = result.imagesByThread ?? [];
      if (threads.length > 1) io.stdout.write(`images built by ${threads.length} threads: ${threads.join(', ')}\n`);
    }
    return 0;
  },
};
