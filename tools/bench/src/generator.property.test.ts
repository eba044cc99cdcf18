/**
 * Properties of the module generator, for any seed and small option values:
 *  1. the module defines exactly `kernels` spir_kernel functions and `functions` definitions;
 *  2. every called function is defined or declared in the module;
 *  3. two runs with the same options give byte-identical text;
 *  4. the planned call graph only goes to deeper levels (no recursion, as SYCL requires);
 *  5. every struct type the text uses is defined.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { generateModule } from './generator.js';
import { resolveGeneratorOptions, type GeneratorOptions } from './options.js';
import { planModule } from './plan.js';
import { fcOptions } from '@syclkit/testing';
import { functionSymbols } from './testing.js';

const smallOptions = fc
  .record({
    seed: fc.integer({ min: 0, max: 0xffffffff }),
    kernels: fc.integer({ min: 0, max: 12 }),
    tus: fc.integer({ min: 1, max: 6 }),
    extra: fc.integer({ min: 0, max: 60 }),
    segments: fc.integer({ min: 0, max: 4 }),
    pointers: fc.constantFrom<'opaque' | 'typed'>('opaque', 'typed'),
    debugInfo: fc.boolean(),
  })
  .map(({ extra, ...o }): GeneratorOptions => ({ ...o, functions: o.kernels + extra }));

describe('generator properties', () => {
  test.prop([smallOptions], fcOptions(40))('defines exactly the requested kernels and functions', (options) => {
    const { text } = generateModule(options);
    const symbols = functionSymbols(text);
    expect(symbols.kernels).toHaveLength(options.kernels);
    expect(symbols.defined.size).toBe(options.functions);
  });

  test.prop([smallOptions], fcOptions(40))('calls only functions the module defines or declares', (options) => {
    const { defined, declared, called } = functionSymbols(generateModule(options).text);
    for (const name of called) expect(defined.has(name) || declared.has(name), name).toBe(true);
  });

  test.prop([smallOptions], fcOptions(20))('is byte-identical across two runs', (options) => {
    expect(generateModule(options).text).toBe(generateModule(options).text);
  });

  test.prop([smallOptions], fcOptions(40))('plans calls only to deeper levels', (options) => {
    const plan = planModule(resolveGeneratorOptions(options));
    for (const f of plan.functions) for (const c of f.callees) expect(plan.functions[c]!.level).toBeGreaterThan(f.level);
  });

  test.prop([smallOptions], fcOptions(40))('defines every struct type it uses', (options) => {
    const { text } = generateModule(options);
    const defined = new Set([...text.matchAll(/^(%[-\w.$]+|%"[^"]+") = type /gm)].map((m) => m[1]!));
    const used = new Set([...text.matchAll(/(%"(?:class|struct|union)\.[^"]+"|%(?:class|struct|union)\.[-\w.$]+)/g)].map((m) => m[1]!));
    for (const t of used) expect(defined.has(t), t).toBe(true);
  });
});
