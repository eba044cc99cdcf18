/**
 * sycl-post-link as passes over an image set (see image-set.ts). The default order, which
 * `runPostLink` and `syclkit post-link` use:
 *
 *   device-if, split<...>, image(device-if-add-on-images, image-requirements, virtual-function-dummies,
 *                                filter-targets, image-properties, emit-ir, write-image-files)
 *
 * Set passes: `device-if` (decide conditions for an AOT target, or prepare add-on images),
 * `split`. Image passes run inside `image(...)`, one image at a time. Sinks (`write-image-files`
 * here, `wrap` in @syclkit/passes) write each image out and release it.
 */
import { DeviceConfig } from '@syclkit/device-config';
import { deviceIfDiagnostics } from '@syclkit/device-if';
import { createPostLinkTable, PropertySetName, uint32Value, writePropertySetRegistry, writeSymbolFile, type FileTable } from '@syclkit/formats';
import { buildCallGraph, CallInst, cloneModule, Module, moduleKind, type CallGraph, type IRFunction } from '@syclkit/ir';
import { allAnalysesOn, defineAnalysis, definePass, option, PreservedAnalyses, type DiagnosticCatalog, type PassContext } from '@syclkit/pass-manager';
import { AddOnImageProcessor, deviceIfGraphOptions, isConditionalCallerDeclaration, resolveForTarget } from './device-if.js';
import { ImageSet, ImageUnit, imageKind, imageSetKind, Slot, type ImageRow } from './image-set.js';
import { imageFileNames, outputPrefix, type ImageFileNames } from './output-names.js';
import { printBytes } from './print.js';
import { computeImageProperties, withCompileTarget } from './properties.js';
import { aspectTableOf, checkExternalFunctions, computeImageRequirements, type ImageRequirements } from './requirements.js';
import { SpecConstantProcessor } from './spec-constants.js';
import { planSplit, type SplitImage } from './split.js';
import { stubModule } from './stubs.js';
import { FeatureReader, functionFeatures, type FunctionFeatures } from './sycl-metadata.js';
import { targetIncompatibility } from './target-filter.js';

// --- analyses -------------------------------------------------------------------------------------

/**
 * `aspect-facts`: what bundling and requirements read of each function (aspects used and
 * declared, required work-group and sub-group sizes, fixed targets, per-source attributes), read
 * once per module. Images share the program's functions, so every image looks them up here.
 * Passes that change function metadata or attributes drop it (aspect propagation does).
 */
export const aspectFactsAnalysis = defineAnalysis({
  name: 'aspect-facts',
  unit: moduleKind,
  summary: 'Per function: the SYCL aspects, sizes, fixed targets and attributes bundling and requirements read.',
  run: (module: Module): ReadonlyMap<IRFunction, FunctionFeatures> => {
    const features = new Map<IRFunction, FunctionFeatures>();
    const reader = new FeatureReader(module);
    for (const fn of module.functions) features.set(fn, reader.read(fn));
    return features;
  },
});

/**
 * `call-graph`: `@syclkit/ir`'s call graph of a module. Passes that change only metadata (aspect
 * propagation) keep it; device_if uses it to find the calls of conditional callers.
 */
export const callGraphAnalysis = defineAnalysis({
  name: 'call-graph',
  unit: moduleKind,
  summary: "The module's call graph (callers and callees of every function).",
  run: (module: Module): CallGraph => buildCallGraph(module),
});

/** Only the set changed: analyses of the program (and its functions) are kept. */
function programKept(): PreservedAnalyses {
  return PreservedAnalyses.none().preserveSet(allAnalysesOn('module')).preserveSet(allAnalysesOn('function'));
}

/** An image pass changed the image only (no analyses live on images). */
function imageChanged(): PreservedAnalyses {
  return PreservedAnalyses.none();
}

/** The image set an image pass runs in (`image(...)` inside an image-set pipeline). */
export function enclosingImageSet(ctx: PassContext<ImageUnit>, pass: string = ctx.pass): ImageSet {
  const parent = ctx.parent?.unit;
  if (!(parent instanceof ImageSet)) throw new TypeError(`pass '${pass}' runs on the images of an image set: image(${pass})`);
  return parent;
}

/** Features of the program's functions, computed once per program. */
function programFeatures(ctx: PassContext<object>, set: ImageSet): ReadonlyMap<IRFunction, FunctionFeatures> {
  return ctx.analyses.getResult(aspectFactsAnalysis, set.program);
}

// --- device_if -----------------------------------------------------------------------------------

/** The add-on image processor of a set prepared by `device-if` for add-on images. */
const ADD_ON_PROCESSOR = new Slot<AddOnImageProcessor>('device-if add-on processor');

const DEVICE_IF_DIAGNOSTICS: DiagnosticCatalog = {
  ...deviceIfDiagnostics,
  'device-if-unresolved': { severity: 'error', summary: 'device_if conditions could not be decided for the AOT target (the diagnostics before it say which).' },
  'no-device-config': { severity: 'error', summary: 'device_if resolution for an AOT target needs a device configuration.' },
  'mixed-device-if-targets': { severity: 'error', summary: 'The program has device_if calls and the set mixes targets that decide them differently.' },
};

/** Whether the module calls a conditional caller directly (the call graph narrows the search to its callers). */
function hasConditionalCallsIn(graph: CallGraph): boolean {
  return graph.functions.some(
    (fn) => isConditionalCallerDeclaration(fn) && graph.callers(fn).some((caller) => callsDirectly(caller, fn)),
  );
}

function callsDirectly(caller: IRFunction, callee: IRFunction): boolean {
  for (const inst of caller.instructions()) if (inst instanceof CallInst && inst.calledFunction === callee) return true;
  return false;
}

export const deviceIfPass = definePass({
  name: 'device-if',
  unit: imageSetKind,
  summary:
    'device_if (DeviceIf.md): decide the conditions for an AOT target before the split, or make add-on images for JIT; only acts when the program has conditional calls.',
  options: {
    mode: option.enum(['auto', 'add-on-images', 'resolve', 'off'], {
      doc: 'auto: resolve when every output is the same device target, add-on images when none is one',
      default: 'auto',
      bare: true,
    }),
    aotTarget: option.string({ doc: 'The AOT target to decide the conditions for (implies resolve)', valueName: 'target' }),
  },
  preserves: 'none',
  diagnostics: DEVICE_IF_DIAGNOSTICS,
  create: (options) => (set: ImageSet, ctx) => {
    if (options.mode === 'off' && options.aotTarget === '') return PreservedAnalyses.all();
    const target = options.aotTarget !== '' ? options.aotTarget : options.mode === 'resolve' || options.mode === 'auto' ? soleDeviceTarget(set) : undefined;
    const resolve = options.aotTarget !== '' || options.mode === 'resolve' || (options.mode === 'auto' && target !== undefined);
    if (resolve) {
      if (target === undefined) {
        return ctx.fail({ code: 'mixed-device-if-targets', message: `device_if resolution needs one device target; the outputs are ${set.outputs.map((o) => o.target ?? o.name).join(', ')}` });
      }
      if (set.config === undefined) return ctx.fail({ code: 'no-device-config', message: 'device_if resolution for an AOT target needs a device configuration' });
      // The program may be shared (other sets, the caller): resolve on a copy.
      const resolved = cloneModule(set.program);
      let errors = 0;
      for (const d of resolveForTarget(resolved, set.config, target)) {
        if (d.severity === 'error') errors++;
        ctx.report({ code: d.code, message: d.message, severity: d.severity });
      }
      if (errors > 0) return ctx.fail({ code: 'device-if-unresolved', message: `device_if conditions could not be resolved for target '${target}'` });
      set.program = resolved;
      return PreservedAnalyses.none();
    }
    // The call graph only when there is a conditional caller to look for calls of (most programs have none).
    if (!set.program.functions.some(isConditionalCallerDeclaration)) return PreservedAnalyses.all();
    if (!hasConditionalCallsIn(ctx.analyses.getResult(callGraphAnalysis, set.program))) return PreservedAnalyses.all();
    if (options.mode === 'auto' && set.outputs.some((o) => isDeviceTarget(set, o.deviceIfTarget ?? o.target))) {
      return ctx.fail({ code: 'mixed-device-if-targets', message: `the program has device_if calls, which a set of generic and device outputs cannot decide together (${set.outputs.map((o) => o.target ?? o.name).join(', ')})` });
    }
    set.graph = { ...set.graph, ...deviceIfGraphOptions() };
    set.set(ADD_ON_PROCESSOR, new AddOnImageProcessor(set.program, () => set.plan!));
    return programKept();
  },
});

/** Whether an output's target is a device (not spir64 & co.): device_if decides conditions for it. */
function isDeviceTarget(set: ImageSet, target: string | undefined): boolean {
  if (target === undefined) return false;
  const config = set.config ?? DeviceConfig.builtin();
  const kind = config.describe(target)?.kind;
  return kind !== undefined && kind !== 'generic';
}

/** The one device target all outputs share, if there is one. */
function soleDeviceTarget(set: ImageSet): string | undefined {
  const targets = new Set(set.outputs.map((o) => o.deviceIfTarget ?? o.target));
  if (targets.size !== 1) return undefined;
  const [target] = targets;
  return target !== undefined && isDeviceTarget(set, target) ? target : undefined;
}

export const deviceIfAddOnImagesPass = definePass({
  name: 'device-if-add-on-images',
  unit: imageKind,
  summary: "device_if for JIT: rewrites an image's conditional calls into calls of its actions and adds the add-on image pairs after the split images.",
  preserves: 'none',
  diagnostics: {
    'bad-conditional-call': { severity: 'error', summary: 'A device_if call has no action function, callable object or constant condition.' },
    'shard-with-processor': { severity: 'error', summary: 'A sharded run cannot add images (device_if, requirement strategies).' },
  },
  create: () => (image: ImageUnit, ctx) => {
    const set = enclosingImageSet(ctx, 'device-if-add-on-images');
    const processor = set.get(ADD_ON_PROCESSOR);
    if (processor === undefined || image.role !== 'split') return PreservedAnalyses.all();
    if (set.partial) return ctx.fail({ code: 'shard-with-processor', message: 'a sharded run cannot add images (device_if, requirement strategies)' });
    const [main, ...extra] = processor.process(splitView(image), {
      scope: 'per-kernel',
      report: (d) => ctx.report({ code: d.code, message: d.message, severity: d.severity }),
    });
    if (main !== undefined && main.module !== image.module) image.replaceModule(main.module, main.entryPoints, main.extraSets);
    else if (main?.extraSets !== undefined) image.extraSets = main.extraSets;
    for (const added of extra) set.addAtEnd(added, 'add-on');
    return imageChanged();
  },
});

/** The split-image view processors expect. */
function splitView(image: ImageUnit): SplitImage {
  return { id: image.splitId, key: image.key, module: image.module, entryPoints: image.entryPoints, esimd: image.esimd, materialize: () => image.materialize() };
}

// --- the split -------------------------------------------------------------------------------------

export const splitPass = definePass({
  name: 'split',
  unit: imageSetKind,
  summary: 'Plans the device code split (intel/llvm modes, the design\'s or intel/llvm\'s bundling); image(...) then builds the images one at a time.',
  options: {
    mode: option.enum(['kernel', 'source', 'auto', 'none'], { doc: 'Split mode (sycl-post-link -split=)', default: 'none', bare: true }),
    bundling: option.enum(['upstream', 'design', 'features-blind'], {
      doc: "upstream: intel/llvm's grouping key; design: kernels with different requirements never share an image; features-blind: requirements do not split",
      default: 'upstream',
    }),
    kernelsOnly: option.boolean({ doc: 'Only kernels (and indirectly-callable functions) are entry points (-emit-only-kernels-as-entry-points)' }),
    splitEsimd: option.boolean({ doc: 'SYCL and ESIMD entry points of a group go to two images (-split-esimd)' }),
    dynamicLinking: option.boolean({ doc: 'Importable functions stay declarations, to be linked at run time (-allow-device-image-dependencies)' }),
    irOutputOnly: option.boolean({ doc: 'One image, no tables; an error if the module must be split (-ir-output-only)' }),
    deviceImageScope: option.boolean({ doc: 'device_image_scope device globals must stay in one image (-device-globals)' }),
  },
  preserves: ['aspect-facts', 'call-graph'],
  diagnostics: {
    'split-with-ir-output-only': { severity: 'error', summary: "The module had to be split, so '-ir-output-only' cannot be used." },
    'device-image-scope': { severity: 'error', summary: 'A device_image_scope device global is used in more than one device image.' },
  },
  create: (options) => (set: ImageSet, ctx) => {
    const features = programFeatures(ctx as PassContext<object>, set);
    const plan = planSplit(set.program, {
      mode: options.mode,
      irOutputOnly: options.irOutputOnly,
      emitOnlyKernelsAsEntryPoints: options.kernelsOnly,
      policy: options.bundling,
      splitEsimd: options.splitEsimd,
      allowDeviceImageDependencies: options.dynamicLinking,
      graph: set.graph,
      features: (fn) => features.get(fn) ?? functionFeatures(set.program, fn),
    });
    set.plan = plan;
    set.splitMode = options.mode;
    set.irOutputOnly = options.irOutputOnly;
    if (options.irOutputOnly && plan.splitOccurred) {
      return ctx.fail({ code: 'split-with-ir-output-only', message: "some modules had to be split, '-ir-output-only' can't be used" });
    }
    if (options.deviceImageScope) {
      const [conflict] = plan.deviceImageScopeConflicts();
      if (conflict !== undefined) {
        return ctx.fail({ code: 'device-image-scope', message: `device_global variable '${conflict}' with property "device_image_scope" is used in more than one device image.` });
      }
    }
    set.setSource(plan.images(set.include));
    return programKept();
  },
});

// --- the alternative requirement strategy ------------------------------------------------------------

const SPEC_CONSTANT_PROCESSOR = new Slot<SpecConstantProcessor>('spec-constant processor');

export const specConstantRequirementsPass = definePass({
  name: 'spec-constant-requirements',
  unit: imageKind,
  summary: "The alternative requirement design: each kernel and exported function gets its requirements in 'SYCL/requirements' with spec ids (use with split<bundling=features-blind>).",
  options: {
    specIdBase: option.integer({ doc: 'First spec id', default: 0x40000000, min: 0 }),
  },
  preserves: 'none',
  diagnostics: {
    'aspect-not-allowed': { severity: 'warning', summary: 'A function uses an aspect its kernel does not allow.' },
    'unsupported-combination': { severity: 'error', summary: 'device_if add-on images and the spec-constant requirement strategy cannot be combined.' },
    'shard-with-processor': { severity: 'error', summary: 'A sharded run cannot add images (device_if, requirement strategies).' },
  },
  create: (options) => (image: ImageUnit, ctx) => {
    if (image.role !== 'split') return PreservedAnalyses.all();
    const set = enclosingImageSet(ctx, 'spec-constant-requirements');
    if (set.partial) return ctx.fail({ code: 'shard-with-processor', message: 'a sharded run cannot add images (device_if, requirement strategies)' });
    if (set.get(ADD_ON_PROCESSOR) !== undefined) {
      return ctx.fail({ code: 'unsupported-combination', message: 'device_if add-on images and the spec-constant requirement strategy cannot be combined' });
    }
    let processor = set.get(SPEC_CONSTANT_PROCESSOR);
    if (processor === undefined) set.set(SPEC_CONSTANT_PROCESSOR, (processor = new SpecConstantProcessor({ specIdBase: options.specIdBase })));
    const [main] = processor.process(splitView(image), {
      scope: 'per-kernel',
      report: (d) => ctx.report({ code: d.code, message: d.message, severity: d.severity }),
    });
    if (main !== undefined) {
      if (main.module !== image.module) image.replaceModule(main.module, main.entryPoints, [...image.extraSets, ...(main.extraSets ?? [])]);
      else image.extraSets = [...image.extraSets, ...(main.extraSets ?? [])];
    }
    return imageChanged();
  },
});

// --- requirements, dummies, filtering, properties --------------------------------------------------

export const imageRequirementsPass = definePass({
  name: 'image-requirements',
  unit: imageKind,
  summary: "An image's device requirements (aspects, sizes, fixed targets); with check-sycl-external, the design's SYCL_EXTERNAL check adds what functions of the image use.",
  options: {
    checkSyclExternal: option.boolean({ doc: "The design's SYCL_EXTERNAL check: warnings, and the requirements include what every function of the image uses" }),
  },
  preserves: 'none',
  diagnostics: {
    'unexpected-aspect': { severity: 'warning', summary: 'A function of an image uses an aspect its kernel does not declare (a SYCL_EXTERNAL function without [[sycl::device_has()]]).' },
    'sub-group-mismatch': { severity: 'warning', summary: 'A function of an image requires another sub-group size than its kernel.' },
    'fixed-targets-mismatch': { severity: 'warning', summary: 'A function was compiled with other -fsycl-fixed-targets than its kernel.' },
  },
  create: (options) => (image: ImageUnit, ctx) => {
    const set = enclosingImageSet(ctx, 'image-requirements');
    const features = programFeatures(ctx as PassContext<object>, set);
    const module = image.module;
    const table = aspectTableOf(module);
    let requirements = computeImageRequirements(module, image.entryPoints, features, table);
    image.fixedTargetOverride = undefined;
    if (options.checkSyclExternal) {
      const check = checkExternalFunctions(module, image.entryPoints, features, table);
      for (const w of check.warnings) ctx.report({ code: w.code, message: w.message });
      if (check.fixedTargetImage) image.fixedTargetOverride = check.finalFixedTargets;
      else requirements = withAspects(requirements, check.finalUsedAspects, table.nameOf.bind(table));
    }
    image.requirements = requirements;
    return imageChanged();
  },
});

/** `requirements` plus the (non-negative) aspect values of `values`, sorted. */
function withAspects(requirements: ImageRequirements, values: readonly number[], nameOf: (value: number) => string | undefined): ImageRequirements {
  // Usually the check adds nothing (its aspects are the image's own): keep the requirements as they are.
  if (values.every((value) => value < 0 || requirements.aspects.some((a) => a.value === value))) return requirements;
  const merged = new Map(requirements.aspects.map((a) => [a.value, a]));
  for (const value of values) {
    if (value < 0 || merged.has(value)) continue;
    const name = nameOf(value);
    merged.set(value, name === undefined ? { value } : { value, name });
  }
  return { ...requirements, aspects: [...merged.values()].sort((a, b) => a.value - b.value) };
}

function requirementsOf(image: ImageUnit, pass: string): ImageRequirements {
  if (image.requirements === undefined) throw new TypeError(`pass '${pass}' needs the image's requirements: run image-requirements before it`);
  return image.requirements;
}

export const virtualFunctionDummiesPass = definePass({
  name: 'virtual-function-dummies',
  unit: imageKind,
  summary: 'An image that defines virtual functions and needs optional aspects gets a dummy twin (empty bodies, dummy-image=1) right after it, so a device without them can still link the set.',
  preserves: 'all',
  diagnostics: {
    'shard-with-dummy': { severity: 'error', summary: 'A sharded run cannot add dummy images for virtual functions.' },
  },
  create: () => (image: ImageUnit, ctx) => {
    if (image.role !== 'split') return PreservedAnalyses.all();
    const requirements = requirementsOf(image, 'virtual-function-dummies');
    if (requirements.aspects.length === 0) return PreservedAnalyses.all();
    const virtuals = image.entryPoints.filter((fn) => fn.attributes.fn.hasString('indirectly-callable'));
    if (virtuals.length === 0) return PreservedAnalyses.all();
    const set = enclosingImageSet(ctx, 'virtual-function-dummies');
    if (set.partial) return ctx.fail({ code: 'shard-with-dummy', message: 'a sharded run cannot add dummy images for virtual functions' });
    const { module, stubs } = stubModule(image.module, virtuals.map((fn) => [fn, fn.name] as const));
    set.addAfterCurrent({ module, entryPoints: stubs, esimd: image.esimd, extraSets: [[PropertySetName.VIRTUAL_FUNCTIONS, [['dummy-image', uint32Value(1)]]]] }, 'dummy');
    return PreservedAnalyses.all();
  },
});

export const filterTargetsPass = definePass({
  name: 'filter-targets',
  unit: imageKind,
  summary: "Per-target filtering: an output whose target lacks an aspect or the sub-group size an image needs drops the image's row, or keeps it with an empty module.",
  options: {
    incompatible: option.enum(['drop', 'empty-module'], {
      doc: "drop: leave the row out (intel/llvm); empty-module: keep it with an empty module (the design)",
      default: 'drop',
      bare: true,
    }),
  },
  preserves: 'all',
  diagnostics: {
    'incompatible-image': { severity: 'note', summary: "An image needs what an output's target does not support." },
  },
  create: (options) => (image: ImageUnit, ctx) => {
    const set = enclosingImageSet(ctx, 'filter-targets');
    const config = set.config;
    if (config === undefined) return PreservedAnalyses.all();
    const requirements = requirementsOf(image, 'filter-targets');
    set.outputs.forEach((output, i) => {
      if (output.target === undefined || image.rows[i] === undefined) return;
      const why = targetIncompatibility(config, output.target, { aspects: requirements.aspects, esimd: image.esimd, ...(requirements.reqdSubGroupSize === undefined ? {} : { reqdSubGroupSize: requirements.reqdSubGroupSize }) });
      if (why === undefined) return;
      const reason = why.kind === 'aspect' ? `aspect '${why.aspect.name ?? why.aspect.value}'` : `sub-group size ${why.size}`;
      ctx.report({ code: 'incompatible-image', message: `image ${image.id} needs ${reason}, which target '${output.target}' does not support` });
      image.rows[i] = options.incompatible === 'drop' ? undefined : { empty: true };
    });
    return PreservedAnalyses.all();
  },
});

export const imagePropertiesPass = definePass({
  name: 'image-properties',
  unit: imageKind,
  summary: "The property sets of each row of an image (the .prop file): device requirements with the output's compile_target, and the optional sets the options ask for.",
  options: {
    paramInfo: option.boolean({ doc: "'SYCL/kernel param opt' from !sycl_kernel_omit_args (-emit-param-info)" }),
    programMetadata: option.boolean({ doc: "'SYCL/program metadata' (-emit-program-metadata)" }),
    exportedSymbols: option.boolean({ doc: "'SYCL/exported symbols' (-emit-exported-symbols)" }),
    importedSymbols: option.boolean({ doc: "'SYCL/imported symbols' (-emit-imported-symbols)" }),
    deviceGlobals: option.boolean({ doc: "'SYCL/device globals' (-device-globals)" }),
    legacyReqdWorkGroupSize: option.boolean({ doc: 'Also the uint32 reqd_work_group_size of older runtimes', default: true }),
    reqdWorkGroupSize: option.enum(['auto', 'keep', 'drop'], { doc: 'The work-group size requirement (auto: dropped without a split, as intel/llvm does)', default: 'auto' }),
  },
  preserves: 'all',
  create: (options) => (image: ImageUnit, ctx) => {
    const set = enclosingImageSet(ctx, 'image-properties');
    const requirements = requirementsOf(image, 'image-properties');
    const drop = options.reqdWorkGroupSize === 'auto' ? (set.splitMode ?? 'none') === 'none' : options.reqdWorkGroupSize === 'drop';
    const propertyOptions = {
      emitParamInfo: options.paramInfo,
      emitProgramMetadata: options.programMetadata,
      emitExportedSymbols: options.exportedSymbols,
      emitImportedSymbols: options.importedSymbols,
      deviceGlobals: options.deviceGlobals,
      legacyReqdWorkGroupSize: options.legacyReqdWorkGroupSize,
      dropReqdWorkGroupSize: drop,
    };
    const input = {
      module: image.module,
      entryPoints: image.entryPoints,
      esimd: image.esimd,
      requirements,
      ...(image.extraSets.length > 0 ? { extraSets: image.extraSets } : {}),
      ...(image.fixedTargetOverride !== undefined ? { fixedTargetOverride: image.fixedTargetOverride } : {}),
      features: programFeatures(ctx as PassContext<object>, set),
    };
    // Computed once per image: outputs without a target share the registry, targeted ones get a
    // copy with their compile_target (the only property that depends on the output).
    let generic: ImageRow['properties'];
    set.outputs.forEach((output, i) => {
      const row = image.rows[i];
      if (row === undefined) return;
      generic ??= computeImageProperties(input, propertyOptions);
      row.properties = output.target === undefined ? generic : withCompileTarget(generic, output.target);
    });
    return PreservedAnalyses.all();
  },
});

// --- code and files -----------------------------------------------------------------------------------

/** Turns text IR into bitcode (sycl-post-link without -S); the CLI runs LLVM's llvm-as. */
export const BITCODE_ENCODER = new Slot<(text: Uint8Array) => Uint8Array>('bitcode encoder');

export const emitIrPass = definePass({
  name: 'emit-ir',
  unit: imageKind,
  summary: "Prints an image's module: the device code later passes compile and sinks write (text IR, or bitcode through the set's encoder).",
  options: {
    format: option.enum(['text', 'bitcode'], { doc: 'Text IR (.ll) or bitcode (.bc)', default: 'text', bare: true }),
  },
  preserves: 'all',
  diagnostics: {
    'no-bitcode-writer': { severity: 'error', summary: 'Bitcode output needs an encoder; use text IR (-S).' },
  },
  create: (options) => (image: ImageUnit, ctx) => {
    const set = enclosingImageSet(ctx, 'emit-ir');
    const text = printImage(image.module, set);
    if (options.format === 'text') {
      image.code = text;
      image.codeFormat = 'text';
      return PreservedAnalyses.all();
    }
    const encode = set.get(BITCODE_ENCODER);
    if (encode === undefined) return ctx.fail({ code: 'no-bitcode-writer', message: 'bitcode output needs an encoder; use text IR (-S)' });
    image.code = encode(text);
    image.codeFormat = 'bitcode';
    return PreservedAnalyses.all();
  },
});

/** Text IR of a module as latin1 bytes, function bodies shared through the set's print cache. */
function printImage(module: Module, set: ImageSet): Uint8Array {
  return printBytes(module, set.printCache);
}

/** Where `write-image-files` writes (the front end's choice). */
export interface ImageFileSink {
  /**
   * Writes one file. Image, symbol and property files are the run's own: a front end may write
   * them directly, as long as no table names them before they are complete.
   */
  writeFile(path: string, data: string | Uint8Array): void;
  /** Files start with this (the stem of the first `-o`, in its directory or `-out-dir`). */
  readonly prefix: string;
  /**
   * One prefix per output instead: every output gets its own code and symbol files, as one
   * sycl-post-link run per output would write them (`syclkit compile -save-temps`).
   */
  readonly prefixes?: readonly string[];
  /**
   * The input path when no `-o` was given: if the split changed nothing (sycl-post-link's "no
   * modifications" case), every Code cell names the input and no IR is written.
   */
  readonly input?: string;
  /** Back-pressure: a promise to wait for before the next image, or undefined to go on. */
  ready?(): Promise<void> | undefined;
}

/** The Code cell an image got (its file, or the input). */
export const CODE_CELL = new Slot<string>('code cell');

export const FILE_SINK = new Slot<ImageFileSink>('image file sink');

/** One table row per output, with the image id of each row (`rowsOf` reads them). */
const TABLE_ROWS = new Slot<{ rows: { code: string; properties?: string; symbols?: string }[]; ids: number[] }[]>('table rows');

export const writeImageFilesPass = definePass({
  name: 'write-image-files',
  unit: imageKind,
  summary: "Writes an image's code, .sym and one .prop per output (sycl-post-link's names) and records its table rows; then releases the image.",
  options: {
    symbols: option.boolean({ doc: '.sym files and the Symbols column (-symbols)' }),
    properties: option.boolean({ doc: '.prop files and the Properties column', default: true }),
    layout: option.enum(['post-link', 'module-split'], {
      doc: "File names: sycl-post-link's (<prefix>[_esimd]_<id>), or sycl-module-split's (<prefix>_<row>, .sym with an extra newline)",
      default: 'post-link',
    }),
    release: option.boolean({ doc: 'Release the image once written (no-release: a later sink, such as wrap, writes it too)', default: true }),
  },
  preserves: 'all',
  diagnostics: {
    'split-with-ir-output-only': { severity: 'error', summary: "The module needs more than one image, so '-ir-output-only' cannot be used." },
  },
  create: (options) => (image: ImageUnit, ctx) => {
    const set = enclosingImageSet(ctx, 'write-image-files');
    const sink = set.get(FILE_SINK);
    if (sink === undefined) throw new TypeError("write-image-files needs the set's file sink (FILE_SINK)");
    if (image.code === undefined) throw new TypeError('write-image-files needs the image code: run emit-ir before it');
    if (set.irOutputOnly) {
      if (set.produced.length > 1) return ctx.fail({ code: 'split-with-ir-output-only', message: "the module needs more than one image, '-ir-output-only' can't be used" });
      sink.writeFile(set.outputs[0]!.name, image.code);
      image.release();
      return PreservedAnalyses.all();
    }
    let tables = set.get(TABLE_ROWS);
    if (tables === undefined) set.set(TABLE_ROWS, (tables = set.outputs.map(() => ({ rows: [], ids: [] }))));
    const keepInput = keptInput(set);
    const ext = image.codeFormat === 'bitcode' ? 'bc' : 'll';
    const moduleSplit = options.layout === 'module-split';
    const n = moduleSplit ? tables[0]!.rows.length : image.id;
    const namesFor = (prefix: string): ImageFileNames =>
      moduleSplit
        ? { code: `${prefix}_${n}.${ext}`, symbols: `${prefix}_${n}.sym`, properties: () => `${prefix}_${n}.prop` }
        : imageFileNames(prefix, image.id, image.esimd, ext === 'll');
    // Code and symbols once (or once per output with per-output prefixes), properties per output.
    const written = new Map<string, { code: string; symbols: string | undefined }>();
    const filesUnder = (prefix: string): { code: string; symbols: string | undefined } => {
      let files = written.get(prefix);
      if (files === undefined) {
        const names = namesFor(prefix);
        const code = keepInput ?? names.code;
        if (keepInput === undefined) sink.writeFile(code, image.code!);
        let symbols: string | undefined;
        if (options.symbols) {
          symbols = names.symbols;
          sink.writeFile(symbols, writeSymbolFile(image.entryNames) + (moduleSplit ? '\n' : ''));
        }
        written.set(prefix, (files = { code, symbols }));
      }
      return files;
    };
    const prefixOf = (i: number): string => sink.prefixes?.[i] ?? sink.prefix;
    if (sink.prefixes === undefined) image.set(CODE_CELL, filesUnder(sink.prefix).code);
    else sink.prefixes.forEach((prefix) => filesUnder(prefix));
    set.outputs.forEach((output, i) => {
      const row = image.rows[i];
      if (row === undefined) return;
      const prefix = prefixOf(i);
      const files = filesUnder(prefix);
      const cells: { code: string; properties?: string; symbols?: string } = { code: row.empty ? emptyModulePath(set, sink, prefix, ext) : files.code };
      if (options.properties) {
        if (row.properties === undefined) throw new TypeError("write-image-files needs the rows' properties: run image-properties before it");
        cells.properties = namesFor(prefix).properties(output.target);
        sink.writeFile(cells.properties, writePropertySetRegistry(row.properties));
      }
      if (files.symbols !== undefined) cells.symbols = files.symbols;
      tables![i]!.rows.push(cells);
      tables![i]!.ids.push(image.id);
    });
    if (options.release) image.release();
    const wait = sink.ready?.();
    return wait === undefined ? PreservedAnalyses.all() : wait.then(() => PreservedAnalyses.all());
  },
});

/** The input path every Code cell names in sycl-post-link's "no modifications" case, else undefined. */
export function keptInput(set: ImageSet): string | undefined {
  const input = set.get(FILE_SINK)?.input;
  return input !== undefined && set.plan !== undefined && !set.plan.modified ? input : undefined;
}

const EMPTY_MODULES = new Slot<Map<string, string>>('empty module files');

/** `<prefix>_empty.<ext>`, written once per prefix: the Code of rows filtered out for their target. */
function emptyModulePath(set: ImageSet, sink: ImageFileSink, prefix: string, ext: string): string {
  let paths = set.get(EMPTY_MODULES);
  if (paths === undefined) set.set(EMPTY_MODULES, (paths = new Map()));
  let path = paths.get(prefix);
  if (path === undefined) {
    path = `${prefix}_empty.${ext}`;
    const program = set.program;
    const empty = new Module(program.id, program.context);
    empty.sourceFilename = program.sourceFilename;
    empty.dataLayout = program.dataLayout;
    empty.triple = program.triple;
    const text = printBytesOf(empty);
    const encode = set.get(BITCODE_ENCODER);
    sink.writeFile(path, ext === 'bc' && encode !== undefined ? encode(text) : text);
    paths.set(prefix, path);
  }
  return path;
}

/** The file tables `write-image-files` recorded, one per output, with each row's image id. */
export function tablesOf(set: ImageSet, columns: { symbols: boolean; properties: boolean }): { table: FileTable; rowIds: readonly number[] }[] {
  const tables = set.get(TABLE_ROWS) ?? set.outputs.map(() => ({ rows: [], ids: [] }));
  return tables.map((t) => ({ table: createPostLinkTable(t.rows, columns), rowIds: t.ids }));
}

/** The default file prefix of a set's tables: the stem of the first output, in its directory or `outDir`. */
export function filePrefix(set: ImageSet, outDir?: string): string {
  return outputPrefix(set.outputs[0]!.name, outDir);
}

function printBytesOf(module: Module, set?: ImageSet): Uint8Array {
  return printBytes(module, set?.printCache);
}

/** Every pass of this package, one line each (the registry in @syclkit/passes lists them). */
export const postLinkPasses = [
  deviceIfPass,
  splitPass,
  deviceIfAddOnImagesPass,
  specConstantRequirementsPass,
  imageRequirementsPass,
  virtualFunctionDummiesPass,
  filterTargetsPass,
  imagePropertiesPass,
  emitIrPass,
  writeImageFilesPass,
] as const;

/** The analyses these passes share. */
export const postLinkAnalyses = [aspectFactsAnalysis, callGraphAnalysis] as const;
