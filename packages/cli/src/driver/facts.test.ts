import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { Context, parseModule } from '@syclkit/ir';
import { byteArrayValue, uint32Value } from '@syclkit/formats';
import { SAMPLE_UNITS } from './sample.js';
import { FactsFormatError, FactsIndex, aspectsReached, computeProgramFacts, decodeFacts, encodeFacts, explainAspect, formatLoc, restrictFacts } from './facts.js';

function sampleFacts() {
  const context = new Context();
  return computeProgramFacts(SAMPLE_UNITS.map((u) => ({ file: u.file, module: parseModule(u.text, { filename: u.file, context }) })));
}

describe('explanation facts of the sample program', () => {
  const facts = sampleFacts();

  it('trace ScaleVelocity to the float promoted to double in damp(), with its source location', () => {
    const e = explainAspect(facts, '_ZTS13ScaleVelocity', 6)!;
    expect(e.chain.map((s) => [s.caller, s.callee, formatLoc(s.location)])).toEqual([
      ['_ZTS13ScaleVelocity', '_ZZ4mainENKUlN4sycl3_V12idILi1EEEE0_clES2_', 'nbody.cpp:24:5'],
      ['_ZZ4mainENKUlN4sycl3_V12idILi1EEEE0_clES2_', '_Z4dampf', 'nbody.cpp:25:16'],
    ]);
    expect(e.function).toBe('_Z4dampf');
    expect(e.unit).toBe('nbody.ll');
    expect(e.use).toMatchObject({ kind: 'instruction', text: '%conv = fpext float %v to double', type: 'double', location: { file: 'nbody.cpp', line: 6, column: 37 }, count: 3 });
    expect(e.conditional).toBe(false);
  });

  it("resolves a call to a SYCL_EXTERNAL declaration to the other unit's definition, and same-named local functions to their own unit", () => {
    // nbody.ll and shade.ll both define an internal `_ZZ4mainENKUlN4sycl3_V12idILi1EEEE_clES2_`.
    const e = explainAspect(facts, '_ZTS11ShadePixels', 6)!;
    expect(e.chain.map((s) => s.callee)).toEqual(['_ZZ4mainENKUlN4sycl3_V12idILi1EEEE_clES2_', '_Z7tonemapf']);
    expect(e.unit).toBe('tonemap.ll');
    expect(formatLoc(e.use.location)).toBe('tonemap.cpp:3:55');
    expect(explainAspect(facts, '_ZTS9Integrate', 6)).toBeUndefined();
  });

  it('follows a device_if conditional call only when no plain call reaches the aspect, and records its condition', () => {
    const e = explainAspect(facts, '_ZTS11ShadePixels', 5)!;
    expect(e.conditional).toBe(true);
    const last = e.chain[e.chain.length - 1]!;
    expect(last.condition).toEqual([-1, 5]);
    expect(e.use).toMatchObject({ kind: 'instruction', type: '%"class.sycl::_V1::detail::half_impl::half"' });
    expect(aspectsReached(facts, '_ZTS11ShadePixels')).toEqual([6]);
    expect(aspectsReached(facts, '_ZTS11ShadePixels', true).sort()).toEqual([5, 6]);
  });

  it('reports atomic64 from an identified struct that contains the type listed in !sycl_types_that_use_aspects', () => {
    const e = explainAspect(facts, '_ZTS14EnergyCounters', 28)!;
    expect(e.use).toMatchObject({ text: '%ref = alloca %"class.sycl::_V1::atomic_ref", align 8', type: '%"class.sycl::_V1::atomic_ref"' });
  });

  it('counts a [[sycl::device_has]] declaration as a use of the declared aspect', () => {
    const e = explainAspect(facts, '_ZTS13HalfHistogram', 5)!;
    expect(e.chain).toEqual([]);
    expect(e.use.kind).toBe('declared');
  });

  it('restricts to the functions an image reaches, renumbering translation units', () => {
    const image = restrictFacts(facts, ['_ZTS11ShadePixels']);
    expect(image.units).toEqual(['shade.ll', 'tonemap.ll']);
    expect(image.functions.map((f) => f.name)).toContain('_Z7tonemapf');
    expect(image.functions.map((f) => f.name)).not.toContain('_Z4dampf');
    expect(explainAspect(image, '_ZTS11ShadePixels', 6)?.function).toBe('_Z7tonemapf');
    expect(new FactsIndex(image).kernels()).toEqual(['_ZTS11ShadePixels']);
  });
});

describe('encoding', () => {
  it('round-trips through a byte-array property', () => {
    const facts = sampleFacts();
    expect(decodeFacts(encodeFacts(facts))).toEqual(JSON.parse(JSON.stringify(facts)));
  });

  it('reads the deflated facts of binaries made before the facts were stored as JSON', () => {
    const facts = sampleFacts();
    const old = byteArrayValue(new Uint8Array(deflateRawSync(Buffer.from(JSON.stringify(facts), 'utf8'), { level: 9 })));
    expect(decodeFacts(old, true)).toEqual(JSON.parse(JSON.stringify(facts)));
  });

  it('rejects values that are not facts with a FactsFormatError', () => {
    expect(() => decodeFacts(uint32Value(3))).toThrow(FactsFormatError);
    expect(() => decodeFacts(byteArrayValue(new Uint8Array([1, 2, 3])))).toThrow(/'facts-json' does not hold JSON/);
    expect(() => decodeFacts(byteArrayValue(new Uint8Array([1, 2, 3])), true)).toThrow(/'facts' does not hold deflated JSON/);
    expect(() => decodeFacts(byteArrayValue(new Uint8Array(Buffer.from('{"version":0}'))))).toThrow(/unknown layout/);
  });
});
