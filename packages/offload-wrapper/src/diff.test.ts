import { PropertySetRegistry, addDeviceRequirements, type DeviceRequirements } from '@syclkit/formats';
import { describe, expect, it } from 'vitest';
import { ContainerReader, writeContainer } from './container.js';
import { deviceImage, type DeviceImage } from './descriptor.js';
import { diffReports, formatDiff } from './diff.js';
import { inspectContainer, type InspectReport } from './inspect.js';

interface Spec {
  readonly name: string;
  readonly kernels: string[];
  readonly requirements?: DeviceRequirements;
  readonly empty?: boolean;
  readonly code?: number[];
}

function image(target: string, spec: Spec): DeviceImage {
  const properties = new PropertySetRegistry();
  addDeviceRequirements(properties, spec.requirements ?? {});
  return deviceImage({
    name: spec.name,
    target,
    image: spec.empty === true ? new Uint8Array(0) : Uint8Array.from(spec.code ?? [1, 2, 3]),
    empty: spec.empty ?? false,
    entries: spec.kernels,
    properties,
  });
}

function report(file: string, bundles: Record<string, Spec[]>): InspectReport {
  const bytes = writeContainer({ bundles: Object.entries(bundles).map(([target, specs]) => ({ target, images: specs.map((s) => image(target, s)) })) });
  return inspectContainer(ContainerReader.fromBytes(bytes, { fileName: file }));
}

describe('diffReports', () => {
  it('finds nothing between identical builds', () => {
    const bundles = { spir64: [{ name: 'a_0', kernels: ['K1'], requirements: { aspects: [6] } }] };
    const diff = diffReports(report('a.fatbin', bundles), report('b.fatbin', bundles));
    expect(diff).toEqual({ before: 'a.fatbin', after: 'b.fatbin', identical: true, bundles: [] });
    expect(formatDiff(diff)).toBe('--- a.fatbin\n+++ b.fatbin\nno differences in bundles, images, kernels or requirements\n');
  });

  it('reports kernels gaining and losing aspects and changing their required sizes', () => {
    const before = report('a.fatbin', { spir64: [{ name: 'a_0', kernels: ['K1', 'K2'], requirements: { aspects: [9, 12], reqdSubGroupSize: 16 } }] });
    const after = report('b.fatbin', {
      spir64: [{ name: 'a_0', kernels: ['K1', 'K2'], requirements: { aspects: [6, 12], reqdSubGroupSize: 32, reqdWorkGroupSize: [64n] } }],
    });
    const diff = diffReports(before, after);
    expect(diff.identical).toBe(false);
    expect(diff.bundles[0]!.kernels[0]).toEqual({
      name: 'K1',
      changes: [
        { kind: 'aspect-gained', aspect: 6 },
        { kind: 'aspect-lost', aspect: 9 },
        { kind: 'sub-group-size', before: 16, after: 32 },
        { kind: 'work-group-size', before: null, after: [64] },
      ],
    });
    expect(formatDiff(diff)).toBe(
      [
        '--- a.fatbin',
        '+++ b.fatbin',
        'bundle spir64:',
        '  kernel K1: gained aspect fp64 (6); lost aspect image (9); required sub-group size 16 -> 32; required work-group size none -> 64',
        '  kernel K2: gained aspect fp64 (6); lost aspect image (9); required sub-group size 16 -> 32; required work-group size none -> 64',
        '',
      ].join('\n'),
    );
  });

  it('reports images appearing and vanishing, kernels moving, and code changes', () => {
    const before = report('a', {
      spir64: [
        { name: 'a_0', kernels: ['K1', 'K2'], code: [1] },
        { name: 'a_1', kernels: ['K3'] },
      ],
    });
    const after = report('b', {
      spir64: [
        { name: 'a_0', kernels: ['K1'], code: [1, 1] },
        { name: 'a_2', kernels: ['K2', 'K4'], requirements: { aspects: [28] } },
      ],
    });
    const text = formatDiff(diffReports(before, after));
    expect(text).toBe(
      [
        '--- a',
        '+++ b',
        'bundle spir64:',
        '  ~ image a_0: code changed (1 -> 2 bytes)',
        '  + image a_2: appeared, kernels: K2, K4',
        '  - image a_1: vanished, kernels were: K3',
        '  kernel K2: moved from a_0 to a_2; gained aspect atomic64 (28)',
        '  kernel K4: appeared (in a_2)',
        '  kernel K3: vanished (was in a_1)',
        '',
      ].join('\n'),
    );
  });

  it('reports kernels that became empty (filtered out) for an AOT target, and bundles added or removed', () => {
    const before = report('a', {
      spir64: [{ name: 'a_0', kernels: ['K1'] }],
      intel_gpu_pvc: [{ name: 'a_0', kernels: ['K1'], requirements: { aspects: [6] } }],
      intel_gpu_dg1: [{ name: 'a_0', kernels: ['K1'] }],
    });
    const after = report('b', {
      spir64: [{ name: 'a_0', kernels: ['K1'] }],
      intel_gpu_pvc: [{ name: 'a_0', kernels: ['K1'], requirements: { aspects: [6, 5] }, empty: true }],
      intel_gpu_tgllp: [{ name: 'a_0', kernels: ['K1'] }],
    });
    const diff = diffReports(before, after);
    expect(diff.bundles.map((b) => [b.target, b.status])).toEqual([
      ['intel_gpu_pvc', 'changed'],
      ['intel_gpu_tgllp', 'added'],
      ['intel_gpu_dg1', 'removed'],
    ]);
    expect(formatDiff(diff)).toBe(
      [
        '--- a',
        '+++ b',
        'bundle intel_gpu_pvc:',
        '  kernel K1: gained aspect fp16 (5); now empty (filtered out: no code for this target)',
        '+ bundle intel_gpu_tgllp (1 image)',
        '- bundle intel_gpu_dg1 (had 1 image)',
        '',
      ].join('\n'),
    );
    expect(formatDiff(diffReports(after, before))).toContain('  kernel K1: lost aspect fp16 (5); no longer empty (has code for this target again)');
  });

  it('follows a kernel held by several images (default spec-constant copies)', () => {
    const before = report('a', { spir64: [{ name: 'a_0', kernels: ['K'] }, { name: 'a_1', kernels: ['K'], requirements: { aspects: [6] } }] });
    const after = report('b', { spir64: [{ name: 'a_0', kernels: ['K'] }] });
    expect(formatDiff(diffReports(before, after))).toContain('  kernel K: now in a_0 (was in a_0, a_1); lost aspect fp64 (6)');
  });
});
