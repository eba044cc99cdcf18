/*
 * Properties of -fsycl-targets parsing over random lists of known spellings, typos and empties:
 * 1. Every value is accounted for: it becomes a target, a duplicate warning, or an error (a lone
 *    empty value is an empty-list warning).
 * 2. No two targets in the result select the same device or the same normalized triple.
 * 3. Targets keep command-line order, and each is what resolve() gives for its spelling.
 * 4. Parsing is deterministic.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { DeviceConfig } from './config.js';
import { parseSyclTargets } from './sycl-targets.js';
import { fcOptions } from '@syclkit/testing';

const config = DeviceConfig.builtin();
const spelling = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...config.selectableNames(), 'spir64-unknown-unknown', 'nvptx64', 'amdgcn') },
  { weight: 1, arbitrary: fc.constantFrom('intel_gpu_pvcc', 'spir32', 'nvidia_gpu_sm80', '') },
);
const list = fc.array(spelling, { minLength: 1, maxLength: 8 });

describe('-fsycl-targets parsing properties', () => {
  test.prop([list], fcOptions())('accounts for every value exactly once', (values) => {
    const { targets, diagnostics } = parseSyclTargets(config, values.join(','));
    // A list that joins to the empty string is one value reported as an empty list.
    const countable = diagnostics.filter((d) => ['invalid-target', 'duplicate-target', 'empty-target-list'].includes(d.code));
    expect(targets.length + countable.length).toBe(values.length);
  });

  test.prop([list], fcOptions())('never returns two targets for the same device or triple', (values) => {
    const { targets } = parseSyclTargets(config, values.join(','));
    const keys = targets.map((t) => (t.kind === 'generic' ? t.triple : t.name));
    expect(new Set(keys).size).toBe(keys.length);
  });

  test.prop([list], fcOptions())('keeps command-line order and resolves each spelling as resolve() does', (values) => {
    const { targets } = parseSyclTargets(config, values.join(','));
    let position = -1;
    for (const target of targets) {
      const next = values.indexOf(target.spelling, position + 1);
      expect(next).toBeGreaterThan(position);
      position = next;
      expect(target).toEqual(config.resolve(target.spelling));
    }
  });

  test.prop([list], fcOptions())('is deterministic', (values) => {
    expect(parseSyclTargets(config, values.join(','))).toEqual(parseSyclTargets(config, values.join(',')));
  });
});
