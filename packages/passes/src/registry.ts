/**
 * The registry of every built-in pass, analysis and preset: what `syclkit opt -passes=`,
 * `syclkit compile` and library users parse pipeline text against. One line per pass.
 */
import { cleanupSyclMetadataPass, recordSyclAspectNamesPass, syclPropagateAspectsUsage } from '@syclkit/aspect-propagation';
import { conditionalCallOnDevicePass, resolveDeviceIfPass } from '@syclkit/device-if';
import { globalOffsetPass, gpuRetargetPass, localAccessorToSharedMemoryPass, lowerSpirvBuiltinsPass } from '@syclkit/gpu-targets';
import { functionKind, moduleKind } from '@syclkit/ir';
import { createRegistry, type PassRegistry, type RegistryConfig } from '@syclkit/pass-manager';
import {
  aspectFactsAnalysis,
  callGraphAnalysis,
  deviceIfAddOnImagesPass,
  deviceIfPass,
  emitIrPass,
  filterTargetsPass,
  imageKind,
  imagePropertiesPass,
  imageRequirementsPass,
  imageSetKind,
  specConstantRequirementsPass,
  splitPass,
  virtualFunctionDummiesPass,
  writeImageFilesPass,
  type SplitMode,
} from '@syclkit/post-link';
import { aotPass } from './aot.js';
import { globalDcePass } from './globaldce.js';
import { explainFactsPass } from './image-property.js';
import { wrapPass } from './wrap.js';

/** Every built-in pass, one line each. Contributors add theirs with `registry.extend({ passes })`. */
export const builtinPasses: NonNullable<RegistryConfig['passes']> = [
  // modules (and their functions)
  conditionalCallOnDevicePass,
  resolveDeviceIfPass,
  syclPropagateAspectsUsage,
  recordSyclAspectNamesPass,
  cleanupSyclMetadataPass,
  globalDcePass,
  globalOffsetPass,
  localAccessorToSharedMemoryPass,
  gpuRetargetPass,
  lowerSpirvBuiltinsPass,
  // image sets
  deviceIfPass,
  splitPass,
  // images
  deviceIfAddOnImagesPass,
  specConstantRequirementsPass,
  imageRequirementsPass,
  virtualFunctionDummiesPass,
  filterTargetsPass,
  imagePropertiesPass,
  explainFactsPass,
  emitIrPass,
  writeImageFilesPass,
  aotPass,
  wrapPass,
];

/** The analyses passes share (cached per module; passes say which they keep). */
export const builtinAnalyses: NonNullable<RegistryConfig['analyses']> = [aspectFactsAnalysis, callGraphAnalysis];

/** What the offload pipeline is made for (the `syclkit compile` flags that shape it). */
export interface OffloadPipelineOptions {
  /** Split mode (`-fsycl-device-code-split`: per_kernel = kernel, per_source = source, off = none); default `auto`. */
  readonly split?: SplitMode;
  /** `design` (default): kernels with different requirements never share an image; `upstream`: intel/llvm's grouping. */
  readonly bundling?: 'design' | 'upstream';
  /** Device code dynamic linking: SYCL_EXTERNAL functions are exported, calls to them imported at run time. */
  readonly dynamicLinking?: boolean;
  /** Also write each image's files and table rows (`-save-temps`; the set needs a file sink). */
  readonly writeFiles?: boolean;
}

/** The per-image part of the offload pipeline (`image(...)`): everything after the split. */
export function offloadImagesText(options: OffloadPipelineOptions = {}): string {
  const design = (options.bundling ?? 'design') === 'design';
  const dynamic = options.dynamicLinking === true;
  return (
    'image(' +
    [
      'device-if-add-on-images',
      design ? 'image-requirements<check-sycl-external>' : 'image-requirements',
      'virtual-function-dummies',
      'filter-targets<empty-module>',
      dynamic ? 'image-properties<param-info;exported-symbols;imported-symbols>' : 'image-properties<param-info>',
      'explain-facts',
      'emit-ir',
      ...(options.writeFiles === true ? ['write-image-files<symbols;no-release>'] : []),
      'aot',
      'wrap',
    ].join(',') +
    ')'
  );
}

/**
 * The offload pipeline of an image set (what `syclkit compile` runs per set of targets after
 * linking): device_if, the split, and per image requirements, filtering, properties, explain
 * facts, printing, the AOT step and wrapping into the set's container.
 */
export function offloadPipelineText(options: OffloadPipelineOptions = {}): string {
  const dynamic = options.dynamicLinking === true;
  const split = `split<${options.split ?? 'auto'};bundling=${options.bundling ?? 'design'}${dynamic ? ';dynamic-linking' : ';kernels-only'}>`;
  return `device-if,${split},${offloadImagesText(options)}`;
}

/**
 * Named pipelines. `offload` is the default offload pipeline of an image set; `offload-images` its
 * part after the split, so "the default pipeline with my split" is `device-if,my-split,offload-images`.
 * `sycl-device-front` is what compile runs per translation unit before linking.
 */
export const builtinPresets: Readonly<Record<string, string>> = {
  'sycl-device-front': 'sycl-conditional-call-on-device,sycl-propagate-aspects-usage<exclude-aspects=fp64>',
  offload: offloadPipelineText(),
  'offload-images': offloadImagesText(),
};

let registry: PassRegistry | undefined;

/**
 * The registry of every built-in pass, analysis, unit kind (`module` first: the default top-level
 * kind; `function`, `image-set`, `image`) and preset.
 */
export function builtinRegistry(): PassRegistry {
  registry ??= createRegistry({
    unitKinds: [moduleKind, functionKind, imageSetKind, imageKind],
    passes: builtinPasses,
    analyses: builtinAnalyses,
    presets: builtinPresets,
  });
  return registry;
}
