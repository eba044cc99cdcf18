import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('device-config public surface', () => {
  it('exports exactly the documented names (adding or removing one is a deliberate API change)', () => {
    expect(Object.keys(api).sort()).toEqual([
      'ARCHITECTURES',
      'AspectTable',
      'BUILTIN_ASPECTS',
      'BUILTIN_KNOWN_TARGETS',
      'BUILTIN_TABLE_UPSTREAM_COMMIT',
      'BUILTIN_TARGET_ENTRIES',
      'DeviceConfig',
      'DeviceConfigFileError',
      'UnknownTargetError',
      'applyDeviceConfigYaml',
      'architectureByName',
      'architectureByValue',
      'architectureForSyclTarget',
      'architecturesForConditionOperand',
      'aspectSupport',
      'builtinAspectTable',
      'checkTargetRequirements',
      'decodeArchitecture',
      'decodeIntelGpuIpVersion',
      'deviceConfigDiagnostics',
      'deviceTraitMacros',
      'deviceTraits',
      'deviceTraitsHeader',
      'driverMacros',
      'encodeArchitecture',
      'encodeIntelGpuIpVersion',
      'formatArchitectureValue',
      'formatMacroFlags',
      'loadDeviceConfigFile',
      'loadYaml',
      'oclocDeviceFor',
      'parseSyclTargets',
      'parseSyclTriple',
      'resolveTarget',
      'selectAotTargets',
      'subGroupSizeSupport',
      'syclTargetForArchitecture',
      'syclTargetMacroName',
      'syclTargetMacros',
      'targetArchitecture',
      'targetAspectValues',
      'targetEntry',
      'targetHasAspect',
      'targetIsArchitecture',
      'targetMatchesArchitectureOperand',
      'targetMayHaveAspect',
      'truncateArchitectureToInt32',
      'workGroupSizeSupport',
    ]);
  });

  it('has no default export', () => {
    expect('default' in api).toBe(false);
  });
});
