/**
 * Shared helpers for the property tests: arbitrary pipelines over a registry.
 */
import fc from 'fast-check';
import type { PassRegistry, PipelineNode, OptionSpec, UnitKind } from '../src/index.js';

const word = fc.stringMatching(/^[a-z0-9_.-]{1,8}$/);
/** Printable string option values: anything but ';', '<', '>' (including ',', '(', '=' and spaces). */
const stringValue = fc.stringMatching(/^[^;<>\n]{0,10}$/);

function valueOf(spec: OptionSpec): fc.Arbitrary<unknown> {
  switch (spec.type) {
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: spec.min ?? -1_000_000, max: spec.max ?? 1_000_000 });
    case 'string':
      return stringValue;
    case 'string-list':
      return fc.array(word, { maxLength: 4 });
    case 'enum':
      return fc.constantFrom(...spec.values);
  }
}

/**
 * Canonical pipelines built from a registry's names: every registered pass of the kind with
 * random option values, `require`/`invalidate` of its analyses, and explicit adaptors (never
 * empty) for its sub-unit kinds, nested up to `depth`.
 */
export function pipelineArbitrary(registry: PassRegistry, kind: UnitKind<object>, depth = 2): fc.Arbitrary<PipelineNode[]> {
  const element = elementArbitrary(registry, kind, depth);
  return fc.array(element, { minLength: 0, maxLength: 5 });
}

function elementArbitrary(registry: PassRegistry, kind: UnitKind<object>, depth: number): fc.Arbitrary<PipelineNode> {
  const choices: fc.Arbitrary<PipelineNode>[] = [];
  for (const entry of registry.passes.values()) {
    if (entry.unit !== kind) continue;
    const optionArbs: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [key, spec] of Object.entries(entry.options as Record<string, OptionSpec>)) optionArbs[key] = valueOf(spec);
    choices.push(fc.record(optionArbs).map((options) => ({ name: entry.name, options })));
  }
  for (const analysis of registry.analyses.values()) {
    if (analysis.unit !== kind) continue;
    choices.push(fc.constantFrom('require', 'invalidate').map((name) => ({ name, options: { analysis: analysis.name } })));
  }
  if (depth > 0) {
    for (const sub of kind.subunits ?? []) {
      const inner = fc.array(elementArbitrary(registry, sub.kind, depth - 1), { minLength: 1, maxLength: 3 });
      choices.push(inner.map((nodes) => ({ name: sub.kind.name, options: {}, inner: nodes })));
    }
  }
  return fc.oneof(...choices);
}
