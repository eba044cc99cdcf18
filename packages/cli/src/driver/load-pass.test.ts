import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { definePass, PreservedAnalyses } from '@syclkit/pass-manager';
import { moduleKind } from '@syclkit/ir';
import { passRegistry } from '../passes.js';
import { isPassEntry, loadPassModules, passEntriesOf } from './load-pass.js';

const example = resolve(fileURLToPath(new URL('../../../../docs/examples/count-kernels-pass.mjs', import.meta.url)));
const pass = (name: string) => definePass({ name, unit: moduleKind, summary: name, preserves: 'all', create: () => () => PreservedAnalyses.all() });

describe('--load-pass modules', () => {
  it('takes named exports, a passes array and a default export, each pass once', () => {
    const a = pass('pass-a');
    const b = pass('pass-b');
    expect(passEntriesOf({ a, passes: [a, b], other: 3, default: b }).map((p) => p.name)).toEqual(['pass-a', 'pass-b']);
    expect(isPassEntry({ name: 'x' })).toBe(false);
  });

  it('extends the registry with the passes of a module file', async () => {
    const { registry, loaded } = await loadPassModules([example], passRegistry());
    expect(loaded).toEqual([{ path: example, passes: ['count-kernels'] }]);
    expect(registry.print(registry.parse('count-kernels<list>'))).toBe('count-kernels<list>');
    expect(passRegistry().passes.has('count-kernels')).toBe(false);
  });

  it('refuses a pass whose name is already registered', async () => {
    await expect(loadPassModules([example, example], passRegistry())).rejects.toThrow("pass 'count-kernels' is registered twice");
  });
});
