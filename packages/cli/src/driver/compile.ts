/**
 * The `syclkit compile` driver as a library call: translation units in, fat binary out.
 *
 * 1. Read each translation unit (text IR, or bitcode through `llvm-dis`) into one context, and
 *    record its explanation facts (what each function uses itself, whom it calls).
 * 2. Per translation unit, as DPC++'s device compiler does before anything else:
 *    `sycl-conditional-call-on-device` (device_if lowering, with the unit's unique prefix) and the
 *    pre-optimization `sycl-propagate-aspects-usage` run (fp64 excluded, warnings on). Then, like
 *    DPC++'s CleanupSYCLMetadataPass, drop `!sycl_types_that_use_aspects`: type names do not
 *    survive linking (llvm-link merges isomorphic struct types), which is why this step comes first.
 * 3. Link the units (`@syclkit/ir`'s linker, llvm-link semantics).
 * 4. Over the linked program: the middle pipeline (default `globaldce`; `-passes` replaces it), then
 *    the post-optimization propagation run (every aspect saved, no warnings). This run sees the
 *    whole program, so a SYCL_EXTERNAL function's aspects reach the kernels that call it.
 * 5. Per compiled target (`-fsycl-targets`, AOT targets filtered by `-fsycl-fixed-targets`):
 *    post-link decides device_if calls for a device target (`deviceIf: { aotTarget }`) or makes
 *    DeviceIf.md's add-on image pairs for JIT targets, splits with the design's requirement rule
 *    (`policy: 'design'`), filters images the target cannot run into empty rows, and writes its
 *    table; the explanation facts go into each kernel image's property file; the AOT compiler of
 *    the target (default: keep the IR) makes the images.
 * 6. Every image goes into one fat-binary container (one bundle per target), written atomically;
 *    optionally the wrapper IR too.
 *
 * Device code dynamic linking (`allowDeviceImageDependencies`, `-fsycl-allow-device-image-dependencies`;
 * `deviceLibrary`, `--device-library`): post-link takes SYCL_EXTERNAL definitions as entry points
 * exported from their images, leaves calls to SYCL_EXTERNAL and undefined functions to the
 * runtime's linker (`SYCL/imported symbols`) and internalizes the rest, as intel/llvm's
 * `-allow-device-image-dependencies -emit-exported-symbols -emit-imported-symbols`.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { DeviceConfig, parseSyclTargets, selectAotTargets, type ResolvedTarget } from '@syclkit/device-config';
import { conditionalCallerForm } from '@syclkit/device-if';
import { Context, cloneModule, linkModules, parseModule, printModule, type IRFunction, type Module } from '@syclkit/ir';
import { FileTable, writeFileTable } from '@syclkit/formats';
import { ContainerReader, ContainerWriter, aotCompilerFor, emitWrapperIR, inspectContainer, readContainerFile, type AotCompiler, type InspectReport, type SpirvTranslatorOptions } from '@syclkit/offload-wrapper';
import { AnalysisManager, type DiagnosticPolicy, type Instrumentation, type PassRegistry, type PipelineNode, type RunResult } from '@syclkit/pass-manager';
import { AOT_COMPILERS, AOT_JOBS, CONTAINER, EXPLAIN_FACTS, IMAGE_PREFIXES, noteNoUnusedGlobals, offloadPipelineText } from '@syclkit/passes';
import {
  FILE_SINK,
  ImageSet,
  canBeImported,
  imageSetKind,
  resolveDeviceIfForTarget,
  tablesOf,
  type RequirementPolicy,
  type SplitMode,
} from '@syclkit/post-link';
import { SyclMetadata, isEntryPoint, isKernel } from '@syclkit/sycl-conventions';
import { moduleWalkAnalysis, syclPropagateAspectsUsage, type ModuleWalk } from '@syclkit/aspect-propagation';
import { CliError } from '../command.js';
import { writeFileAtomic } from '../io.js';
import { passRegistry } from '../passes.js';
import { unitText } from '../read-module.js';
import { DiagnosticLog } from './diagnostics.js';
import { RunOutputs } from './run-outputs.js';
import { computeProgramFacts, explainSource, type ProgramFacts } from './facts.js';
import { runSharedSet } from './image-workers.js';
import { shareable } from './jobs.js';
import { backendFor, defaultJobs, deviceCodeCompilers, type DeviceObj } from './device-code.js';
import { GPU_BACKEND_NAMES, backendArgsOf, gpuCompilerFor, gpuDeviceOf, isGpuTarget, missingGpuTools } from './gpu-aot.js';

/** `-fsycl-device-code-split` values and the post-link modes they mean. */
export const SPLIT_MODES = { per_kernel: 'kernel', per_source: 'source', off: 'none', auto: 'auto' } as const satisfies Record<string, SplitMode>;
export type DeviceCodeSplit = keyof typeof SPLIT_MODES;

/** The default middle of the pipeline (what `-passes` replaces). */
export const DEFAULT_MIDDLE_PIPELINE = 'globaldce';

/** One translation unit: a file to read, or text already in memory (the demo's sample). */
export interface TranslationUnit {
  readonly file: string;
  readonly text?: string;
}

export interface CompileOptions {
  readonly units: readonly TranslationUnit[];
  /** `-fsycl-targets` (default `spir64`). */
  readonly targets?: string;
  /** `-fsycl-fixed-targets`. */
  readonly fixedTargets?: string;
  /** `-fsycl-device-code-split` (default `auto`, as DPC++). */
  readonly split?: DeviceCodeSplit;
  /** Targets and their features (default: the built-in configuration). */
  readonly config?: DeviceConfig;
  /** `design` (default): OptionalDeviceFeatures.md's bundling; `upstream`: intel/llvm's grouping. */
  readonly bundling?: RequirementPolicy;
  /** Pipeline text for the middle (default {@link DEFAULT_MIDDLE_PIPELINE}; '' for none). */
  readonly middle?: string;
  /** The image-set pipeline for each set of targets (default: {@link compilePipelineText} of these options). */
  readonly offload?: string;
  /**
   * Threads for the images (`-j`; default 1 here, the CLI's default is the cores available): a big
   * enough program's images are shared among worker threads, with the same output as one thread.
   */
  readonly jobs?: number;
  /** Programs with fewer functions keep one thread (default: jobs.ts' SHARE_MIN_FUNCTIONS; the CLI passes 0, as it shares only with an explicit `-j`). */
  readonly shareMinFunctions?: number;
  /** The device configuration file `config` came from (worker threads read it again; without it a custom `config` keeps one thread). */
  readonly configFile?: string;
  /** `--load-pass` modules (worker threads load them again for the pipeline). */
  readonly loadPass?: readonly string[];
  /** The pass registry (default: syclkit's, plus what `--load-pass` added). */
  readonly registry?: PassRegistry;
  /** Where the container goes; undefined keeps it in memory only (`result.container`). */
  readonly output?: string;
  /** Base name of images and tables when there is no output file (default `app`). */
  readonly name?: string;
  /**
   * AOT backend per target name (`*`: every AOT target); default: `llvm-spirv` for SPIR-V based
   * targets (`deviceObj`), `ir` (keep the device IR) for the others.
   */
  readonly aot?: ReadonlyMap<string, string>;
  /** `-Xsycl-target-backend[=<target>]` arguments by target spelling (`*`: every target). */
  readonly backendArgs?: ReadonlyMap<string, readonly string[]>;
  /** `-fsycl-device-obj`: `spirv` (SPIR-V images for spir64 and Intel targets) or `llvmir` (default `DEFAULT_DEVICE_OBJ`). */
  readonly deviceObj?: DeviceObj;
  /** The SPIR-V step's options (tools, translator options, `validate`, a native compiler such as ocloc). */
  readonly spirv?: SpirvTranslatorOptions;
  /** AOT translations (llvm-spirv, llc) running at once per thread (default: one per core). */
  readonly aotJobs?: number;
  /**
   * Device code dynamic linking (`-fsycl-allow-device-image-dependencies`): SYCL_EXTERNAL
   * definitions are exported from their images, calls to SYCL_EXTERNAL functions — defined by
   * the program or not — are imported at run time from whichever registered binary exports them.
   */
  readonly allowDeviceImageDependencies?: boolean;
  /**
   * `--device-library`: a binary whose images export the program's SYCL_EXTERNAL functions for
   * other binaries to import (implies `allowDeviceImageDependencies`; kernels are optional).
   */
  readonly deviceLibrary?: boolean;
  /** Keep the intermediate files (linked IR, post-link tables, images) in this directory. */
  readonly saveTemps?: string;
  /** Store explanation facts in the images (default true). */
  readonly explainInfo?: boolean;
  /** Write the wrapper IR (clang-offload-wrapper's module) here. */
  readonly wrapperIR?: string;
  readonly policy?: DiagnosticPolicy;
  readonly instrumentations?: readonly Instrumentation[];
  /** Called at the start of each step, for progress display. */
  readonly onStep?: (step: string) => void;
}

export interface CompileResult {
  readonly diagnostics: DiagnosticLog;
  /** False when an error stopped the compilation (nothing was written). */
  readonly ok: boolean;
  /** The container, when it was made (also when written to a file). */
  readonly container?: Uint8Array;
  /** What the container holds (as `syclkit inspect` reads it). */
  readonly report?: InspectReport;
  /** Targets compiled, in `-fsycl-targets` order, and AOT targets left out by `-fsycl-fixed-targets`. */
  readonly targets: readonly string[];
  readonly skippedTargets: readonly string[];
  /** The pipelines that ran, canonical text (`offload`: the image-set pipeline of each set of targets). */
  readonly pipelines: { readonly translationUnit: string; readonly linked: string; readonly offload?: string };
  /** Kernels of the program (entry points of the images). */
  readonly kernels: readonly string[];
  /** With `-j`: how many images each thread built (the main thread first); empty when one thread did all. */
  readonly imagesByThread?: readonly number[];
  /** With dynamic linking: the SYCL_EXTERNAL functions the program exports, and the functions it imports (no unit defines them). */
  readonly exports: readonly string[];
  readonly imports: readonly string[];
}

/** Whether a compile links device code dynamically (either flag). */
export function dynamicLinking(options: Pick<CompileOptions, 'allowDeviceImageDependencies' | 'deviceLibrary'>): boolean {
  return options.allowDeviceImageDependencies === true || options.deviceLibrary === true;
}

/**
 * Functions the program's code calls (or takes the address of) that no unit defines and that
 * post-link would import under dynamic linking (not builtins or intrinsics), in module order.
 */
export function undefinedFunctions(module: Module): string[] {
  // Only declarations post-link could import count: most programs have none (builtins and
  // intrinsics aside), and then no instruction needs a look.
  const candidates = new Set(module.functions.filter((fn) => fn.isDeclaration && canBeImported(fn)));
  if (candidates.size === 0) return [];
  const referenced = new Set<IRFunction>();
  for (const fn of module.functions) {
    if (fn.isDeclaration) continue;
    for (const inst of fn.instructions()) {
      for (const op of inst.operands) if (op.vk === 'function' && candidates.has(op as IRFunction)) referenced.add(op as IRFunction);
    }
  }
  return module.functions.filter((fn) => referenced.has(fn)).map((fn) => fn.name);
}

/** The per-unit prefix for conditional-call declarations (clang's `-fsycl-unique-prefix`). */
export function uniquePrefix(file: string): string {
  return `uid${createHash('sha1').update(file).digest('hex').slice(0, 8)}`;
}

function fixedOption(fixed: readonly string[]): string {
  return fixed.length === 0 ? '' : `;fixed-targets=${fixed.join(',')}`;
}

/** Pipeline text of the per-translation-unit step. */
export function translationUnitPipelineText(prefix: string, fixed: readonly string[]): string {
  return `sycl-conditional-call-on-device<unique-prefix=${prefix}>,sycl-propagate-aspects-usage<exclude-aspects=fp64${fixedOption(fixed)}>`;
}

/**
 * Pipeline text of the post-optimization run over the linked program: propagation, then what
 * DPC++'s device compile ends with (the aspect tables leave the program, names stay in the lists).
 */
export function postOptimizationPipelineText(fixed: readonly string[]): string {
  return `sycl-propagate-aspects-usage<no-validate${fixedOption(fixed)}>,record-sycl-aspect-names,cleanup-sycl-metadata`;
}

/** Parses `-passes` (errors point into the user's text) and appends the post-optimization run. */
export function linkedPipeline(registry: PassRegistry, middle: string, fixed: readonly string[]): PipelineNode[] {
  const nodes = middle.trim() === '' ? [] : registry.parse(middle, { source: '-passes' });
  return [...nodes, ...registry.parse(postOptimizationPipelineText(fixed))];
}

/** The device targets and the fixed targets, with their diagnostics. */
export function selectTargets(
  config: DeviceConfig,
  targets: string | undefined,
  fixedTargets: string | undefined,
  log: DiagnosticLog,
): { compiled: readonly ResolvedTarget[]; skipped: readonly ResolvedTarget[]; fixed: readonly ResolvedTarget[] | undefined } {
  const list = parseSyclTargets(config, targets ?? 'spir64');
  for (const d of list.diagnostics) log.reportConfig(d);
  let fixed: readonly ResolvedTarget[] | undefined;
  if (fixedTargets !== undefined) {
    const parsed = parseSyclTargets(config, fixedTargets, { option: '-fsycl-fixed-targets' });
    for (const d of parsed.diagnostics) log.reportConfig(d);
    fixed = parsed.targets;
  }
  const selection = selectAotTargets(list.targets, fixed);
  for (const d of selection.diagnostics) log.reportConfig(d);
  return { compiled: selection.compiled, skipped: selection.skipped, fixed };
}

function stemOf(path: string): string {
  const name = basename(path);
  const ext = extname(name);
  return ext === '' ? name : name.slice(0, -ext.length);
}

/** Reads one unit (bitcode through llvm-dis) into `context`. */
function readUnit(unit: TranslationUnit, context: Context, log: DiagnosticLog): Module {
  return parseModule(unitText(unit), {
    filename: unit.file,
    context,
    onWarning: (message) => log.report({ severity: 'warning', code: 'ir-reader', message, location: { file: unit.file } }),
  });
}

/** Refuses an output path up front (before any work) when it cannot be written. */
export function checkOutputPath(path: string, what: string): void {
  const dir = dirname(path);
  if (!existsSync(dir)) throw new CliError(`cannot write ${what} '${path}': there is no directory '${dir}'`);
  if (!statSync(dir).isDirectory()) throw new CliError(`cannot write ${what} '${path}': '${dir}' is not a directory`);
  if (existsSync(path) && statSync(path).isDirectory()) throw new CliError(`cannot write ${what} '${path}': it is a directory`);
}

/** Creates a directory and its missing parents, one level at a time (a clear error when one cannot be made). */
export function makeDirectory(path: string, option = '--save-temps'): void {
  const absolute = resolve(path);
  const missing: string[] = [];
  for (let dir = absolute; !existsSync(dir); dir = dirname(dir)) {
    missing.unshift(dir);
    if (dirname(dir) === dir) break;
  }
  for (const dir of missing) {
    try {
      mkdirSync(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw new CliError(`cannot create the directory '${dir}' for ${option}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  if (!statSync(absolute).isDirectory()) throw new CliError(`${option}: '${path}' is not a directory`);
}

/** Drops repeated `!sycl_aspects` entries (linking appends every unit's table; nodes are uniqued). */
function dedupeAspectTable(module: Module): void {
  const nodes = module.getNamedMetadata(SyclMetadata.aspects);
  if (nodes === undefined) return;
  const unique = [...new Set(nodes)];
  if (unique.length !== nodes.length) module.setNamedMetadata(SyclMetadata.aspects, unique);
}

/** The back end `-aot` names for a target (`*`: every AOT target), undefined when none. */
function chosenBackend(target: ResolvedTarget, options: CompileOptions): string | undefined {
  return options.aot?.get(target.name) ?? options.aot?.get(target.spelling) ?? (target.aot ? options.aot?.get('*') : undefined);
}

/** Whether a target's images come from the GPU back end: a CUDA or HSA target no other back end was asked for. */
function usesGpuBackend(target: ResolvedTarget, options: CompileOptions): boolean {
  const chosen = chosenBackend(target, options);
  return isGpuTarget(target.triple) && (chosen === undefined || GPU_BACKEND_NAMES.has(chosen));
}

/**
 * The AOT compiler of a GPU target (CUDA, HSA; see {@link usesGpuBackend}): native images from the
 * GPU back end; without LLVM 16's tools the device IR, with a `gpu-aot-unavailable` warning,
 * unless `-aot=gpu` asked for them (then an error).
 */
function gpuCompiler(target: ResolvedTarget, options: CompileOptions, config: DeviceConfig, log: DiagnosticLog): AotCompiler {
  const missing = missingGpuTools(target.triple!);
  if (missing.length === 0 || chosenBackend(target, options) !== undefined) {
    return gpuCompilerFor(target.name, backendArgsOf(target, options.backendArgs), config);
  }
  log.report({
    severity: 'warning',
    code: 'gpu-aot-unavailable',
    message: `${target.name}: LLVM 16's ${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} not installed, so the bundle keeps device IR, which the ${target.triple!.startsWith('amdgcn') ? 'HIP' : 'CUDA'} runtime cannot load (install with: apt-get install -y llvm-16 lld-16)`,
  });
  return aotCompilerFor('ir', target.name, { config });
}

/** The linked, optimized program every target starts from (steps 1–4 of the module comment). */
export interface PreparedProgram {
  readonly log: DiagnosticLog;
  /** False when an error stopped the preparation. */
  readonly ok: boolean;
  readonly config: DeviceConfig;
  readonly compiled: readonly ResolvedTarget[];
  readonly skipped: readonly ResolvedTarget[];
  readonly pipelines: { readonly translationUnit: string; readonly linked: string };
  readonly linked?: Module;
  readonly facts?: ProgramFacts;
  readonly kernels: readonly string[];
  readonly exports: readonly string[];
  readonly imports: readonly string[];
}

/** Reads, lowers, propagates, links and optimizes; see the module comment. */
export function prepareProgram(options: CompileOptions): PreparedProgram {
  const config = options.config ?? DeviceConfig.builtin();
  const registry = options.registry ?? passRegistry();
  const log = new DiagnosticLog(options.policy);
  const step = options.onStep ?? (() => {});
  const { compiled, skipped, fixed } = selectTargets(config, options.targets, options.fixedTargets, log);
  const fixedNames = (fixed ?? []).map((t) => t.name);
  const middleText = options.middle ?? DEFAULT_MIDDLE_PIPELINE;
  const linkedNodes = linkedPipeline(registry, middleText, fixedNames);
  const pipelines = {
    translationUnit: registry.print(registry.parse(translationUnitPipelineText(uniquePrefix(options.units[0]?.file ?? ''), fixedNames))),
    linked: registry.print(linkedNodes),
  };
  const base = { log, config, compiled, skipped, pipelines, kernels: [] as string[], exports: [] as string[], imports: [] as string[] };
  if (options.units.length === 0) throw new CliError('no input files');
  if (log.errorCount > 0) return { ...base, ok: false };
  if (compiled.length === 0) throw new CliError('no target to compile for (-fsycl-targets and -fsycl-fixed-targets leave none)');

  // 1. Read. Each unit gets its own context, as each translation unit has its own compile in
  // DPC++: in a shared context, a struct type two units both define (`sycl::half`'s
  // `half_impl`, a lambda's `%class.anon`) is renamed `.0` in the second one, and
  // `!sycl_types_that_use_aspects`, which names types, would then find the first unit's type.
  step('reading translation units');
  // Per unit, one analysis manager for the facts and the unit's pipeline: the aspect pass reuses
  // the facts' walk of the unit while nothing has changed it.
  const units = options.units.map((unit) => ({ file: unit.file, module: readUnit(unit, new Context(), log), analyses: new AnalysisManager() }));
  const facts: ProgramFacts | undefined = options.explainInfo === false ? undefined : computeProgramFacts(units);

  // 2. Per translation unit.
  const runOptions = (file: string) => ({ file, ...(options.policy === undefined ? {} : { policy: options.policy }), instrumentations: options.instrumentations ?? [] });
  // A single unit's walk (the facts') also serves propagation run 2 when linking leaves the
  // unit's functions' values as they were (step 3): it still describes them if it was valid when
  // the aspect pass started (which writes function metadata only).
  let carried: ModuleWalk | undefined;
  for (const unit of units) {
    step(`${unit.file}: device_if lowering and aspect propagation`);
    const walk = units.length === 1 ? unit.analyses.getCachedResult(moduleWalkAnalysis, unit.module) : undefined;
    let walkHeld = false;
    const probe: Instrumentation = {
      name: 'unit-walk',
      beforePass: (event) => {
        if (event.pass === syclPropagateAspectsUsage.name && event.unit === unit.module) walkHeld = walk !== undefined && unit.analyses.isCached(moduleWalkAnalysis, unit.module);
      },
    };
    const run = runOptions(unit.file);
    const result = registry.build<Module>(translationUnitPipelineText(uniquePrefix(unit.file), fixedNames)).run(unit.module, { ...run, instrumentations: [...run.instrumentations, probe], analyses: unit.analyses });
    log.addApplied(result.diagnostics);
    if (walkHeld) carried = walk;
    unit.analyses.clear(unit.module);
    unit.module.namedMetadata.delete(SyclMetadata.typesThatUseAspects);
  }
  if (log.errorCount > 0) return { ...base, ok: false };

  // 3. Link: the units, read again into one context (the linker needs one, as llvm-link reads
  // every input into its own LLVMContext); a single unit is already alone in its context.
  step('linking');
  const context = new Context();
  const inputs = units.length === 1 ? [units[0]!.module] : units.map((u) => parseModule(printModule(u.module), { filename: u.file, context }));
  // The inputs are dropped after linking: their globals become the program's own objects (for a
  // single unit, linking is a walk that maps only what llvm-link changes) instead of being copied.
  let everyGlobalUsed = false;
  let valuesUnchanged = false;
  const linked = linkModules(inputs, {
    id: 'llvm-link',
    consumeInputs: true,
    onWarning: (message) => log.report({ severity: 'warning', code: 'ir-reader', message }),
    onLinked: (facts) => {
      everyGlobalUsed = facts.everyGlobalUsed;
      valuesUnchanged = facts.valuesUnchanged;
    },
  });
  dedupeAspectTable(linked);
  const kernels = linked.functions.filter((fn) => !fn.isDeclaration && fn.callingConv === 'spir_kernel').map((fn) => fn.name);
  const dynamic = dynamicLinking(options);
  const exports = dynamic ? linked.functions.filter((fn) => isEntryPoint(fn) && !isKernel(fn)).map((fn) => fn.name) : [];
  if (options.deviceLibrary === true) {
    if (kernels.length === 0 && exports.length === 0) log.report({ severity: 'warning', code: 'no-exports', message: 'the device library defines no SYCL_EXTERNAL function to export' });
  } else if (kernels.length === 0) {
    log.report({ severity: 'warning', code: 'no-kernels', message: 'the program defines no kernel' });
  }

  // 4. Middle and post-optimization propagation.
  step('optimizing the linked program');
  // What the link knows spares globaldce its walk (until a pass changes the program).
  const analyses = new AnalysisManager();
  if (everyGlobalUsed) noteNoUnusedGlobals(analyses, linked);
  // Run 2 takes the unit's walk (while the middle passes keep it: globaldce does when it erases
  // nothing). Isomorphic struct types merged by the link change no operand, call or aspect
  // list, and give run 2's rules (double only) the same answers: see carryFacts.
  if (carried !== undefined && valuesUnchanged) analyses.provide(moduleWalkAnalysis, linked, carried);
  carried = undefined;
  const result = registry.build<Module>(linkedNodes).run(linked, { ...runOptions(linked.id), analyses });
  analyses.clear(linked);
  log.addApplied(result.diagnostics);
  const imports = undefinedFunctions(linked);
  if (!dynamic) {
    for (const name of imports) {
      log.report({
        severity: 'warning',
        code: 'undefined-function',
        message: `function '${name}' is called but no translation unit defines it; compile with -fsycl-allow-device-image-dependencies to import it from a device library at run time`,
      });
    }
  }
  const ok = log.errorCount === 0 && !result.stopped;
  return { ...base, ok, linked, ...(facts === undefined ? {} : { facts }), kernels, exports: dynamic ? exports : [], imports: dynamic ? imports : [] };
}

/**
 * The program as a device target sees it: for device targets a copy with device_if calls
 * resolved for the target (post-link's resolution; problems go to `log`); generic targets
 * (spir64, spir64_gen, ...) get the linked program itself.
 */
export function programForTarget(linked: Module, target: ResolvedTarget, config: DeviceConfig, log: DiagnosticLog): Module {
  if (target.kind === 'generic') return linked;
  const module = cloneModule(linked);
  for (const d of resolveDeviceIfForTarget(module, config, target.name)) {
    log.report({ severity: d.severity === 'note' ? 'note' : d.severity, code: d.code, message: d.message, pass: 'sycl-post-link' });
  }
  return module;
}

/**
 * The targets that can share one image set: every target sees the same program unless device_if
 * resolution changes it for a device target (a conditional caller or conditionally used aspects
 * left in the program). Then generic targets share one set and each device target gets its own,
 * as one post-link run per target would.
 */
export function targetSets(
  linked: Module,
  targets: readonly ResolvedTarget[],
  decidesDeviceIf: (target: ResolvedTarget) => boolean = (t) => t.kind !== 'generic',
): ResolvedTarget[][] {
  const resolutionChangesProgram = linked.functions.some((fn) => conditionalCallerForm(fn) !== undefined) || linked.functions.some((fn) => hasAttachment(linked, fn, SyclMetadata.conditionallyUsedAspects));
  if (!resolutionChangesProgram) return targets.length === 0 ? [] : [[...targets]];
  const generic = targets.filter((t) => !decidesDeviceIf(t));
  const sets: ResolvedTarget[][] = generic.length === 0 ? [] : [generic];
  for (const t of targets) if (decidesDeviceIf(t)) sets.push([t]);
  // Keep -fsycl-targets order between sets (a set goes where its first target is).
  return sets.sort((a, b) => targets.indexOf(a[0]!) - targets.indexOf(b[0]!));
}

function hasAttachment(module: Module, fn: { attachments: readonly { kind: number }[] | null }, kind: string): boolean {
  const id = module.context.md.kinds.lookup(kind);
  return id !== undefined && fn.attachments !== null && fn.attachments.some((a) => a.kind === id);
}

/** The image-set pipeline `compile` runs for these options (see `offloadPipelineText`). */
export function compilePipelineText(options: Pick<CompileOptions, 'split' | 'bundling' | 'allowDeviceImageDependencies' | 'deviceLibrary' | 'saveTemps'>): string {
  return offloadPipelineText({
    split: SPLIT_MODES[options.split ?? 'auto'],
    bundling: options.bundling === 'upstream' ? 'upstream' : 'design',
    dynamicLinking: dynamicLinking(options),
    writeFiles: options.saveTemps !== undefined,
  });
}


/** Compiles a program; see the module comment. Errors in the input throw (located where possible). */
export async function compileProgram(options: CompileOptions): Promise<CompileResult> {
  if (options.output !== undefined) checkOutputPath(options.output, 'the fat binary');
  if (options.wrapperIR !== undefined) checkOutputPath(options.wrapperIR, 'the wrapper IR');
  if (options.saveTemps !== undefined) makeDirectory(options.saveTemps);
  // The offload pipeline is parsed before any work (a bad -offload-passes is reported at once).
  const registry = options.registry ?? passRegistry();
  const text = options.offload ?? compilePipelineText(options);
  const pipeline = registry.build<ImageSet>(text, { unit: imageSetKind, source: options.offload === undefined ? 'offload pipeline' : '-offload-passes' });
  // The AOT step's tools are looked up first too: a missing llvm-spirv is reported before any work.
  const early = selectTargets(options.config ?? DeviceConfig.builtin(), options.targets, options.fixedTargets, new DiagnosticLog(undefined));
  const compilerOf = deviceCodeCompilers(
    early.compiled.filter((t) => !usesGpuBackend(t, options)),
    options,
    options.config ?? DeviceConfig.builtin(),
  );
  const prepared = prepareProgram(options);
  const { log, config, compiled, skipped, pipelines, facts, kernels, exports, imports } = prepared;
  const step = options.onStep ?? (() => {});
  const fail = (): CompileResult => ({
    diagnostics: log,
    ok: false,
    targets: compiled.map((t) => t.name),
    skippedTargets: skipped.map((t) => t.name),
    pipelines,
    kernels: [],
    exports: [],
    imports: [],
  });
  if (!prepared.ok || prepared.linked === undefined) return fail();
  const linked = prepared.linked;
  // No forced full collection here: what reading and linking left (the source text, the units'
  // shells) stays until V8's own collector needs the room. A forced one marked the whole program
  // on the main thread (~35 ms at 4k kernels) to lower the peak by about a seventh (4k: 1.48x ->
  // 1.72x LLVM's, 16k: 1.45x -> 1.54x), and the peak stays well within twice LLVM's without it.

  // 5 and 6. Per set of targets: the offload pipeline (device_if, split, per image: requirements,
  // filtering, properties, explain facts, printing, AOT, wrapping), in memory, into one container.
  const stem = options.output !== undefined ? stemOf(options.output) : (options.name ?? 'app');
  const work = options.saveTemps === undefined ? undefined : resolve(options.saveTemps);
  // GPU targets (CUDA, HSA) get the GPU back end (or keep the IR, with a warning, without LLVM 16).
  const compilers = compiled.map((target) => compilerOf.get(target.name) ?? gpuCompiler(target, options, config, log));
  const backendNames = compiled.map((target, i) => (usesGpuBackend(target, options) ? compilers[i]!.name : backendFor(target, options, config)));
  // A GPU triple compiled for one GPU (its --offload-arch) has device_if decided for that GPU.
  const deviceIfTargets = compiled.map((target) => (target.kind !== 'generic' ? target.name : gpuDeviceOf(target, options.backendArgs, config)));
  const deviceIfOf = (target: ResolvedTarget): string | undefined => deviceIfTargets[compiled.indexOf(target)];
  let factsJson: string | undefined;
  const imagesByThread: number[] = [];
  const source = facts === undefined ? undefined : explainSource(facts);
  const writer = options.output !== undefined ? ContainerWriter.toFile(options.output) : ContainerWriter.toMemory();
  // -save-temps: images, symbols and properties written directly, each table last and atomically.
  const temps = work === undefined ? undefined : new RunOutputs(compiled.map((t) => join(work, `${stem}_${t.name}.table`)));
  try {
    for (const target of compiled) writer.addBundle(target.name);
    if (work !== undefined) writeFileAtomic(join(work, `${stem}.linked.ll`), printModule(linked), { encoding: 'latin1' });
    // -j: images shared among threads when the program is big enough and no image adds images.
    const jobs = options.jobs ?? 1;
    const builtinConfig = options.config === undefined || options.config === DeviceConfig.builtin();
    // Worker threads make their AOT compilers from the backend names (not from custom SPIR-V step options).
    const share = jobs > 1 && (builtinConfig || options.configFile !== undefined) && options.spirv === undefined && shareable(linked, options.shareMinFunctions);
    let programText: Uint8Array | undefined;
    for (const targets of targetSets(linked, compiled, (t) => deviceIfOf(t) !== undefined)) {
      step(`${targets.map((t) => t.name).join(', ')}: split, AOT compilation and wrapping`);
      const outputs = targets.map((t) => {
        if (t.kind !== 'generic') return { name: t.name, target: t.name };
        const device = deviceIfOf(t);
        return device === undefined ? { name: t.name } : { name: t.name, deviceIfTarget: device };
      });
      const prefixes = targets.map((t) => `${stem}_${t.name}`);
      const filePrefixes = work === undefined ? undefined : targets.map((t) => join(work, `${stem}_${t.name}`));
      const configure = (set: ImageSet): void => {
        set.set(AOT_COMPILERS, targets.map((t) => compilers[compiled.indexOf(t)]));
        set.set(IMAGE_PREFIXES, prefixes);
        // llvm-spirv and llc run as processes: that many images' at once, written in order.
        set.set(AOT_JOBS, options.aotJobs ?? defaultJobs());
        if (source !== undefined) set.set(EXPLAIN_FACTS, source);
      };
      let result: RunResult;
      let rows: readonly { readonly rows: readonly (readonly string[])[] }[];
      if (share) {
        programText ??= new Uint8Array(Buffer.from(printModule(linked), 'latin1'));
        temps?.begin();
        const shared = await runSharedSet({
          program: linked,
          text: programText,
          job: {
            filename: linked.id,
            pipeline: pipeline.text,
            outputs,
            ...(options.configFile === undefined ? {} : { configFile: options.configFile }),
            loadPass: options.loadPass ?? [],
            ...(options.policy === undefined ? {} : { policy: options.policy }),
            wrap: {
              backends: targets.map((t) => backendNames[compiled.indexOf(t)]!),
              backendArgs: targets.map((t) => backendArgsOf(t, options.backendArgs)),
              prefixes,
              ...(facts === undefined ? {} : { facts: (factsJson ??= JSON.stringify(facts)) }),
            },
            ...(filePrefixes === undefined ? {} : { files: { prefix: filePrefixes[0]!, prefixes: filePrefixes, tables: [], bitcode: false } }),
          },
          pipeline,
          config,
          jobs,
          container: writer,
          configure,
          instrumentations: options.instrumentations ?? [],
        });
        for (const path of shared.written) temps?.record(path);
        shared.imagesByThread.forEach((n, i) => (imagesByThread[i] = (imagesByThread[i] ?? 0) + n));
        result = shared.result;
        rows = shared.rows;
      } else {
        const set = new ImageSet(linked, { outputs, deviceConfig: config });
        set.set(CONTAINER, writer);
        configure(set);
        if (filePrefixes !== undefined) set.set(FILE_SINK, { prefix: filePrefixes[0]!, prefixes: filePrefixes, writeFile: (path, data) => temps!.write(path, data) });
        result = await pipeline.runAsync(set, {
          ...(options.policy === undefined ? {} : { policy: options.policy }),
          instrumentations: options.instrumentations ?? [],
        });
        rows = work === undefined ? [] : tablesOf(set, { symbols: true, properties: true }).map((t) => ({ rows: t.table.rows }));
      }
      log.addApplied(result.diagnostics.filter((d) => d.code !== 'incompatible-image'));
      if (result.stopped || log.errorCount > 0) {
        writer.abort();
        return fail();
      }
      if (work !== undefined) {
        rows.forEach((t, i) => temps!.commit(join(work, `${stem}_${targets[i]!.name}.table`), writeFileTable(FileTable.create(['Code', 'Properties', 'Symbols'], t.rows))));
      }
    }
    writer.finish();
  } catch (error) {
    writer.abort();
    throw error;
  }

  // The container and what it holds are read back only when asked for (-v, --json, the demo).
  const memory = options.output === undefined ? writer.bytes() : undefined;
  const fileName = options.output ?? `${stem}.fatbin`;
  let container = memory;
  let report: InspectReport | undefined;
  const containerBytes = (): Uint8Array => (container ??= new Uint8Array(readFileSync(options.output!)));
  if (options.wrapperIR !== undefined) {
    step('wrapper IR');
    const descriptor = memory === undefined ? readContainerFile(options.output!) : ContainerReader.fromBytes(memory).readDescriptor();
    writeFileAtomic(options.wrapperIR, Buffer.from(emitWrapperIR(descriptor), 'latin1'));
  }
  return {
    diagnostics: log,
    ok: true,
    get container() {
      return containerBytes();
    },
    get report() {
      if (report === undefined) {
        const reader = ContainerReader.fromBytes(containerBytes(), { fileName });
        report = inspectContainer(reader);
        reader.close();
      }
      return report;
    },
    targets: compiled.map((t) => t.name),
    skippedTargets: skipped.map((t) => t.name),
    pipelines: { ...pipelines, offload: pipeline.text },
    imagesByThread,
    kernels,
    exports,
    imports,
  };
}
