/*
 * Properties of configuration files:
 * 1. Override then lookup returns the override: after applying a file that defines a target
 *    (built-in name, alias, triple or new name), looking the target up gives the file's aspects,
 *    may_support_other_aspects, sub-group sizes and AOT toolchain.
 * 2. Applying a file never changes the base configuration.
 * 3. When a file defines the same target twice, the last definition wins.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { stringify } from 'yaml';
import { builtinAspectTable } from './aspects.js';
import { applyDeviceConfigYaml } from './config-file.js';
import { DeviceConfig } from './config.js';
import { fcOptions } from '@syclkit/testing';

const builtin = DeviceConfig.builtin();
const currentAspects = builtinAspectTable.definitions.filter((d) => d.status === 'current').map((d) => d.name);

const targetName = fc.oneof(
  fc.constantFrom(...builtin.selectableNames(), 'x86_64'),
  fc.stringMatching(/^[a-z][a-z0-9_]{0,12}$/),
);

const entryBody = fc.record(
  {
    aspects: fc.uniqueArray(fc.constantFrom(...currentAspects), { maxLength: 10 }),
    may_support_other_aspects: fc.boolean(),
    'sub-group-sizes': fc.uniqueArray(fc.integer({ min: 1, max: 128 }), { maxLength: 5 }),
    'aot-toolchain': fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/),
  },
  { requiredKeys: ['aspects', 'sub-group-sizes'] },
);

function lookup(config: DeviceConfig, name: string) {
  return config.describe(name)?.entry;
}

describe('configuration file properties', () => {
  test.prop([targetName, entryBody], fcOptions())('override then lookup returns the override', (name, body) => {
    const { config } = applyDeviceConfigYaml(builtin, stringify({ [name]: body }));
    const entry = lookup(config, name);
    expect(entry?.aspects).toEqual(body.aspects);
    expect(entry?.subGroupSizes).toEqual(body['sub-group-sizes']);
    expect(entry?.maySupportOtherAspects).toBe(body.may_support_other_aspects ?? false);
    if (body['aot-toolchain'] !== undefined) expect(entry?.aotToolchain).toBe(body['aot-toolchain']);
    expect(entry?.source.kind).toBe('file');
  });

  test.prop([targetName, entryBody], fcOptions())('applying a file leaves the base configuration unchanged', (name, body) => {
    const before = builtin.entries();
    const knownBefore = builtin.knownTargets();
    applyDeviceConfigYaml(builtin, stringify({ [name]: body }));
    expect(builtin.entries()).toEqual(before);
    expect(builtin.knownTargets()).toEqual(knownBefore);
  });

  test.prop([targetName, entryBody, entryBody], fcOptions())('the last of two definitions of a target wins', (name, first, second) => {
    const text = `${stringify({ [name]: first })}${stringify({ [name]: second })}`;
    const { config, diagnostics } = applyDeviceConfigYaml(builtin, text);
    expect(lookup(config, name)?.aspects).toEqual(second.aspects);
    expect(diagnostics.map((d) => d.code)).toContain('duplicate-target');
  });
});
