/**
 * The last two SYCL steps of DPC++'s device compile (clang's pipeline after the post-optimization
 * aspect propagation): `record-sycl-aspect-names` gives every aspect operand of
 * `!sycl_used_aspects` and `!sycl_declared_aspects` its name from `!sycl_aspects`, then
 * `cleanup-sycl-metadata` deletes the module tables the front end wrote (`!sycl_aspects`,
 * `!sycl_types_that_use_aspects`). Device code leaves the compiler without them: they would be
 * copied into every image of a split. Interop: as intel/llvm's RecordSYCLAspectNamesPass and
 * CleanupSYCLMetadataPass.
 */
import { getMetadata, moduleKind, setMetadata, type MDNode, type Metadata, type Module } from '@syclkit/ir';
import { definePass, PreservedAnalyses } from '@syclkit/pass-manager';
import { SyclMetadata, aspectOperandConstant } from '@syclkit/sycl-conventions';

/**
 * Rewrites `i32 N` aspect operands of functions' `!sycl_used_aspects` and `!sycl_declared_aspects`
 * into the table's `!{!"name", i32 N}` node (the last entry with that value, as intel/llvm fills
 * its map). Operands without an entry, and named ones, stay. Returns whether anything changed.
 */
export function recordAspectNames(module: Module): boolean {
  const byValue = new Map<number, MDNode>();
  for (const node of module.getNamedMetadata(SyclMetadata.aspects) ?? []) {
    // an entry is a named pair `!{!"fp64", i32 6}`; anything else names nothing
    const value = aspectOperandConstant(node);
    if (value !== undefined) byValue.set(value.num, node);
  }
  if (byValue.size === 0) return false;
  const context = module.context;
  const renamed = new Map<MDNode, MDNode>();
  let changed = false;
  for (const fn of module.functions) {
    if (fn.attachments === null || fn.attachments.length === 0) continue;
    for (const kind of [SyclMetadata.usedAspects, SyclMetadata.declaredAspects]) {
      const node = getMetadata(fn, context, kind);
      if (node === undefined || node.mk !== 'tuple') continue;
      let named = renamed.get(node);
      if (named === undefined) {
        const operands: (Metadata | null)[] = node.operands.map((op) => {
          const value = op !== null && op.mk === 'value' ? aspectOperandConstant(op) : undefined;
          return (value === undefined ? undefined : byValue.get(value.num)) ?? op;
        });
        named = operands.every((op, i) => op === node.operands[i]) ? node : context.md.tuple(operands);
        renamed.set(node, named);
      }
      if (named !== node) {
        setMetadata(fn, context, kind, named);
        changed = true;
      }
    }
  }
  return changed;
}

/** Deletes `!sycl_aspects` and `!sycl_types_that_use_aspects`. Returns whether either was there. */
export function cleanupSyclMetadata(module: Module): boolean {
  let changed = false;
  for (const name of [SyclMetadata.aspects, SyclMetadata.typesThatUseAspects]) changed = module.namedMetadata.delete(name) || changed;
  return changed;
}

export const recordSyclAspectNamesPass = definePass({
  name: 'record-sycl-aspect-names',
  unit: moduleKind,
  summary: "Names the aspects of functions' !sycl_used_aspects and !sycl_declared_aspects from !sycl_aspects (i32 6 becomes !{!\"fp64\", i32 6}), so they survive cleanup-sycl-metadata.",
  preserves: ['call-graph'],
  // metadata only: calls and control flow stay as they were
  create: () => (module: Module) => (recordAspectNames(module) ? PreservedAnalyses.only('call-graph') : PreservedAnalyses.all()),
});

export const cleanupSyclMetadataPass = definePass({
  name: 'cleanup-sycl-metadata',
  unit: moduleKind,
  summary: 'Deletes the front end\'s module tables !sycl_aspects and !sycl_types_that_use_aspects (run record-sycl-aspect-names first).',
  preserves: ['call-graph'],
  create: () => (module: Module) => (cleanupSyclMetadata(module) ? PreservedAnalyses.only('call-graph') : PreservedAnalyses.all()),
});
