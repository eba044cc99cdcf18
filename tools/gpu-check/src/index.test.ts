import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('gpu-check public surface', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toEqual([
      'CARRY',
      'DEMO_CASES',
      'DEVICE_COMMAND',
      'REFUSED_CASES',
      'argumentsFor',
      'closure',
      'compare',
      'countingDriver',
      'firstLaunch',
      'fromHalfBits',
      'jitTimes',
      'kernelParams',
      'pack',
      'pickFirstKernel',
      'prepare',
      'ptxImages',
      'runGpuCheck',
      'seededRandom',
      'toHalfBits',
      'ulpDistance32',
    ]);
  });
});
