/**
 * Properties of diagnostics ordering:
 * 1. sortDiagnostics is independent of emission order: any permutation sorts to the same list.
 * 2. sortDiagnostics is idempotent and keeps every diagnostic (a permutation of its input).
 * 3. A pipeline run reports the same diagnostics in the same order every time (emission order is
 *    deterministic: pass order, then unit order, then the pass's own order).
 * 4. The JSON form round-trips through JSON.stringify/parse unchanged.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { diagnosticToJSON, formatDiagnosticsJSON, sortDiagnostics, type Diagnostic } from './index.js';
import { fcOptions } from '@syclkit/testing';
import { moduleKind, toyRegistry, type ToyModule } from '../test/toy.js';

const locationArb = fc.record(
  {
    file: fc.constantFrom('a.cpp', 'b.cpp'),
    line: fc.integer({ min: 1, max: 5 }),
    column: fc.integer({ min: 1, max: 3 }),
    function: fc.constantFrom('f', 'g'),
    debugLoc: fc.record({ line: fc.integer({ min: 1, max: 5 }) }),
  },
  { requiredKeys: [] },
);
const diagnosticArb: fc.Arbitrary<Diagnostic> = fc.record({
  severity: fc.constantFrom('error', 'warning', 'remark', 'note'),
  code: fc.constantFrom('x', 'y-z'),
  message: fc.constantFrom('m', 'n'),
  pass: fc.constantFrom('p', 'q'),
  location: locationArb,
  notes: fc.array(fc.record({ message: fc.constantFrom('n1', 'n2'), location: locationArb }, { requiredKeys: ['message'] }), { maxLength: 2 }),
  fatal: fc.boolean(),
});

describe('diagnostics ordering properties', () => {
  test.prop([fc.array(diagnosticArb, { maxLength: 12 }).chain((ds) => fc.tuple(fc.constant(ds), fc.shuffledSubarray(ds, { minLength: ds.length })))], fcOptions())(
    'sorting does not depend on emission order',
    ([diagnostics, shuffled]) => {
      expect(sortDiagnostics(shuffled)).toEqual(sortDiagnostics(diagnostics));
    },
  );

  test.prop([fc.array(diagnosticArb, { maxLength: 12 })], fcOptions())('sorting is idempotent and keeps every diagnostic', (diagnostics) => {
    const sorted = sortDiagnostics(diagnostics);
    expect(sortDiagnostics(sorted)).toEqual(sorted);
    const key = (d: Diagnostic) => JSON.stringify(diagnosticToJSON(d));
    expect(sorted.map(key).sort()).toEqual(diagnostics.map(key).sort());
  });

  const registry = toyRegistry();
  const linesArb = fc.array(fc.constantFrom('bad', 'ok', 'bad bad', 'x'), { maxLength: 4 });
  const moduleArb = fc.dictionary(fc.stringMatching(/^[a-z]{1,4}$/), linesArb, { maxKeys: 4 });
  test.prop([moduleArb, fc.constantFrom('lint-bad', 'lint-bad,rename,lint-bad', 'function(lint-bad,append-line<text=bad>)')], fcOptions(50))(
    'a run reports the same diagnostics in the same order every time',
    (functions, text) => {
      const run = () => {
        const module: ToyModule = { name: 'm', functions: Object.entries(functions).map(([name, lines]) => ({ name, lines: [...lines] })) };
        return registry.build<ToyModule>(text, { unit: moduleKind }).run(module).diagnostics;
      };
      const first = run();
      expect(run()).toEqual(first);
      // Emission order follows the functions' order in the module.
      const order = first.map((d) => d.location!.function!);
      const positions = order.map((name) => name.replace(/^x_/, '')).map((name) => Object.keys(functions).indexOf(name));
      const firstPass = positions.slice(0, first.filter((d) => !d.location!.function!.startsWith('x_')).length);
      expect([...firstPass].sort((a, b) => a - b)).toEqual(firstPass);
    },
  );

  test.prop([fc.array(diagnosticArb, { maxLength: 6 })], fcOptions())('the JSON form round-trips', (diagnostics) => {
    const json = diagnostics.map(diagnosticToJSON);
    expect(JSON.parse(formatDiagnosticsJSON(diagnostics))).toEqual(json);
  });
});
