// Properties checked:
// 1. Reading a module built from a random description gives back that description: version,
//    generator, capabilities, extensions, imports, memory model, entry points with their
//    execution modes, function names, linkage, bodies and calls.
// 2. A big-endian module reads the same as its little-endian twin.
// 3. Any bytes either read or throw a SpirvFormatError whose word offset lies within the module
//    (never another exception).
// 4. Cutting a valid module inside an instruction is a SpirvFormatError at that instruction's
//    first word.
// 5. Changing any one word of a valid module reads or fails with a SpirvFormatError, never with
//    another exception.
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { fcOptions } from '@syclkit/testing';
import { SpirvFormatError, readSpirvModule, spirvInstructions } from './spirv.js';
import { buildSpirv, buildSpirvWords, functionId, wordsToBytes, type ModuleSpec } from '../test/spirv-builder.js';

const identifier = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.]{0,20}$/);
const text = fc.string({ maxLength: 24 }).filter((s) => !s.includes('\0'));

const moduleSpec: fc.Arbitrary<ModuleSpec> = fc
  .record({
    minor: fc.integer({ min: 0, max: 6 }),
    generator: fc.integer({ min: 0, max: 0xffff }),
    capabilities: fc.array(fc.oneof(fc.integer({ min: 0, max: 71 }), fc.constantFrom(4423, 5603, 6094, 6400), fc.integer({ min: 0, max: 0xffffffff })), { maxLength: 8 }),
    extensions: fc.array(text, { maxLength: 3 }),
    extInstImports: fc.array(text, { maxLength: 2 }),
    addressing: fc.integer({ min: 0, max: 3 }),
    memory: fc.integer({ min: 0, max: 4 }),
    functionCount: fc.integer({ min: 0, max: 6 }),
  })
  .chain((base) =>
    fc
      .record({
        functions: fc.array(
          fc.record({
            name: fc.option(identifier, { nil: undefined }),
            linkage: fc.option(fc.constantFrom('export' as const, 'import' as const, 'linkonce_odr' as const), { nil: undefined }),
            defined: fc.boolean(),
            calls: fc.array(fc.nat({ max: Math.max(0, base.functionCount - 1) }), { maxLength: 4 }),
          }),
          { minLength: base.functionCount, maxLength: base.functionCount },
        ),
        entryPoints:
          base.functionCount === 0
            ? fc.constant([])
            : fc.array(
                fc.record({
                  model: fc.integer({ min: 0, max: 6 }),
                  fn: fc.nat({ max: base.functionCount - 1 }),
                  name: text,
                  modes: fc.array(fc.record({ mode: fc.oneof(fc.constantFrom(17, 31, 35), fc.nat({ max: 7000 })), operands: fc.array(fc.nat(), { maxLength: 3 }) }), { maxLength: 3 }),
                }),
                { maxLength: 3 },
              ),
      })
      .map(({ functions, entryPoints }) => {
        const { functionCount: _, ...rest } = base;
        // Declarations have no body, so no calls.
        return { ...rest, functions: functions.map((fn) => (fn.defined ? fn : { ...fn, calls: [] })), entryPoints };
      }),
  );

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

function readError(bytes: Uint8Array): SpirvFormatError | undefined {
  try {
    readSpirvModule(bytes);
    return undefined;
  } catch (error) {
    if (error instanceof SpirvFormatError) return error;
    throw error;
  }
}

describe('SPIR-V reader properties', () => {
  test.prop([moduleSpec], fcOptions())('reads back the module it was built from', (spec) => {
    const module = readSpirvModule(buildSpirv(spec));
    expect(module.version).toEqual({ major: 1, minor: spec.minor });
    expect(module.generator.tool).toBe(spec.generator);
    expect(module.capabilities.map((c) => c.value)).toEqual(spec.capabilities.map((c) => c >>> 0));
    expect(module.extensions).toEqual(spec.extensions);
    expect(module.extInstImports.map((i) => i.name)).toEqual(spec.extInstImports);
    expect([module.addressingModel.value, module.memoryModel.value]).toEqual([spec.addressing, spec.memory]);
    expect(module.entryPoints.map((e) => [e.executionModel.value, e.id, e.name])).toEqual(spec.entryPoints.map((e) => [e.model, functionId(e.fn), e.name]));
    expect(module.entryPoints.map((e) => e.executionModes.map((m) => [m.mode.value, m.operands]))).toEqual(
      spec.entryPoints.map((e) => spec.entryPoints.filter((o) => o.fn === e.fn).flatMap((o) => o.modes.map((m) => [m.mode, m.operands]))),
    );
    expect(
      module.functions.map((fn) => ({ id: fn.id, name: fn.name, linkage: fn.linkage, defined: fn.defined, calls: fn.calls })),
    ).toEqual(
      spec.functions.map((fn, i) => ({
        id: functionId(i),
        name: fn.linkage !== undefined ? (fn.name ?? `f${i}`) : fn.name,
        linkage: fn.linkage,
        defined: fn.defined,
        calls: unique(fn.calls.map(functionId)),
      })),
    );
  });

  test.prop([moduleSpec], fcOptions())('a big-endian module reads as its little-endian twin', (spec) => {
    const little = readSpirvModule(buildSpirv(spec));
    const big = readSpirvModule(buildSpirv({ ...spec, bigEndian: true }));
    expect({ ...big, bigEndian: false }).toEqual(little);
  });

  test.prop([fc.uint8Array({ maxLength: 200 })], fcOptions())('any bytes read or fail with a SpirvFormatError within the module', (bytes) => {
    const error = readError(bytes);
    if (error !== undefined) {
      expect(error.wordOffset).toBeGreaterThanOrEqual(0);
      expect(error.wordOffset).toBeLessThanOrEqual(Math.ceil(bytes.length / 4));
    }
  });

  test.prop([moduleSpec, fc.nat()], fcOptions())('a module cut inside an instruction fails at that instruction', (spec, pick) => {
    const words = buildSpirvWords(spec);
    const instructions = [...spirvInstructions(Uint32Array.from(words))].filter((inst) => inst.operands.length > 0);
    fc.pre(instructions.length > 0);
    const inst = instructions[pick % instructions.length]!;
    const cut = inst.offset + 1 + (pick % inst.operands.length);
    const error = readError(wordsToBytes(words.slice(0, cut)));
    expect(error).toBeDefined();
    expect(error!.wordOffset).toBe(inst.offset);
    expect(error!.reason).toMatch(/runs past the end of the module/);
  });

  test.prop([moduleSpec, fc.nat(), fc.oneof(fc.nat({ max: 0xffffffff }), fc.constantFrom(0, 0xffffffff, 0x10000, 0x0001ffff))], fcOptions())(
    'changing one word reads or fails with a SpirvFormatError',
    (spec, index, value) => {
      const words = buildSpirvWords(spec);
      words[index % words.length] = value;
      readError(wordsToBytes(words));
    },
  );
});
