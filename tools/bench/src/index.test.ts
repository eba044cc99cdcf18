import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('bench public surface', () => {
  it('exports exactly the documented names', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'OptionError',
        'benchmarks',
        'callgrindArgv',
        'countInstructions',
        'compareCommands',
        'createProcessRunner',
        'defaultGeneratorOptions',
        'describeGrowth',
        'detectMemoryProbe',
        'generateModule',
        'generateToSize',
        'generatorVersion',
        'growthExponent',
        'main',
        'median',
        'medianRatio',
        'pairedRatios',
        'parseCollected',
        'renderCounts',
        'renderMarkdown',
        'renderText',
        'resolveGeneratorOptions',
        'runCompare',
        'substitute',
        'writeModule',
        'writeModuleFile',
      ].sort(),
    );
  });
});
