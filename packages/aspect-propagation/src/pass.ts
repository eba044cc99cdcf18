/**
 * The registry entry: `-passes=sycl-propagate-aspects-usage`, with intel/llvm's hidden command-line
 * flags, so `syclkit opt` runs intel/llvm's `opt` lines unchanged.
 */
import { moduleKind, type Module } from '@syclkit/ir';
import { definePass, flag, option, PreservedAnalyses } from '@syclkit/pass-manager';
import { aspectPropagationDiagnostics } from './diagnostics.js';
import { moduleWalkAnalysis } from './module-walk.js';
import { propagateWithFacts } from './propagate.js';

export const syclPropagateAspectsUsage = definePass({
  name: 'sycl-propagate-aspects-usage',
  unit: moduleKind,
  summary: 'Propagates optional-kernel-feature (aspect) usage up the call graph into !sycl_used_aspects, with device_has and fixed-target warnings.',
  options: {
    validate: option.boolean({
      doc: "Report warnings (the pre-optimization run); 'no-validate' for the post-optimization run",
      default: true,
    }),
    excludeAspects: option.stringList({ doc: 'Aspects (names or numbers) not to save unless already present', valueName: 'aspect' }),
    fixedTargets: option.stringList({ doc: 'Targets all device code is expected to run on', valueName: 'target' }),
    fp64ConvEmu: option.boolean({ doc: 'FP64 conversion emulation: conversions of double do not use fp64' }),
    conditionalSemantics: option.enum(['auto', 'design', 'intel-llvm-prototype'], {
      doc: 'Conditionally used aspects: DeviceIf.md, the intel/llvm prototype, or design unless a condition does not decode',
      default: 'auto',
    }),
  },
  flags: {
    excludeAspects: flag.stringList('sycl-propagate-aspects-usage-exclude-aspects', {
      doc: 'Specify aspects to exclude when propagating aspect usage',
      hidden: true,
    }),
    fixedTargets: flag.stringList('sycl-propagate-aspects-usage-fixed-targets', {
      doc: 'Specify target device(s) all device code in the translation unit is expected to be runnable on',
      hidden: true,
    }),
  },
  preserves: ['call-graph'],
  diagnostics: aspectPropagationDiagnostics,
  create: (options, { flags }) => {
    // As intel/llvm: command-line flags add to what the pipeline gives.
    const excludeAspects = [...options.excludeAspects, ...flags.excludeAspects];
    const fixedTargets = [...options.fixedTargets, ...flags.fixedTargets];
    return (module: Module, ctx) => {
      // A walk a driver made before (explanation facts) is taken while the module is unchanged:
      // the analysis manager keeps it only as long as every pass since preserved it. (A driver
      // may also provide the walk of a module whose function bodies this one holds unchanged.)
      const walked = options.fp64ConvEmu ? undefined : ctx.analyses.getCachedResult(moduleWalkAnalysis, module);
      const result = propagateWithFacts(
        module,
        {
          excludeAspects,
          fixedTargets,
          validate: options.validate,
          fp64ConvEmu: options.fp64ConvEmu,
          conditionalSemantics: options.conditionalSemantics,
        },
        walked,
      );
      for (const diagnostic of result.diagnostics) ctx.report(diagnostic);
      // Only metadata changes: the call graph (and every CFG) stays as it was.
      return result.changed ? PreservedAnalyses.only('call-graph') : PreservedAnalyses.all();
    };
  },
});
