import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('gpu-check public surface', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toEqual([
      'CARRY',
      'DATA',
      'DEMO_CASES',
      'DEVICE_COMMAND',
      'EmulationFault',
      'EmulationUnsupported',
      'FIRST_LAUNCH_ITEMS',
      'REFUSED_CASES',
      'argumentsFor',
      'closure',
      'compare',
      'countingDriver',
      'demoCase',
      'emulateFirstLaunch',
      'emulateKernel',
      'findSanitizer',
      'firstLaunch',
      'firstLaunchCandidates',
      'fromHalfBits',
      'jitTimes',
      'kernelFault',
      'kernelParams',
      'kernelParamsOf',
      'memcheckSummary',
      'pack',
      'pickFirstKernel',
      'pickFirstLaunch',
      'pickRefusedKernel',
      'prepare',
      'printfCheck',
      'printfUnderSchedules',
      'ptxImages',
      'runGpuCheck',
      'runUnderMemcheck',
      'seededRandom',
      'toHalfBits',
      'ulpDistance32',
    ]);
  });
});
