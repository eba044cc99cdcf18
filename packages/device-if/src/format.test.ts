import { describe, expect, it } from 'vitest';
import { decodeCondition, type Condition } from './condition.js';
import { createConditionNames, formatCondition } from './format.js';

const names = createConditionNames({
  aspects: [
    ['fp16', 5],
    ['fp64', 6],
    ['half', 5],
  ],
  architectures: [
    ['x86_64', 0x0300000000000000n],
    ['intel_gpu_bdw', 0x0000000200000000n],
    ['intel_gpu_8_0_0', 0x0000000200000000n],
    ['intel_gpu_tgllp', 0x0000000300000000n],
    ['intel_gpu_pvc', 0x000000030f000700n],
  ],
});

describe('formatCondition', () => {
  it('prints the issue example with names', () => {
    expect(formatCondition(decodeCondition([-4, -1, 5, -3, -2, 251660032]), names)).toBe('fp16 && !arch(intel_gpu_pvc)');
  });

  it('falls back to numbers without names', () => {
    expect(formatCondition(decodeCondition([-4, -1, 5, -3, -2, 251660032]))).toBe('aspect(5) && !arch(251660032)');
    expect(formatCondition(decodeCondition([-1, 99]), names)).toBe('aspect(99)');
    expect(formatCondition(decodeCondition([-2, 12345]), names)).toBe('arch(12345)');
  });

  it('keeps the first name of a value and lists colliding architectures', () => {
    expect(formatCondition(decodeCondition([-5, -1, 5, -2, 0]), names)).toBe(
      'fp16 || arch(x86_64|intel_gpu_bdw|intel_gpu_tgllp)',
    );
  });

  it('parenthesizes only where precedence requires it', () => {
    expect(formatCondition(decodeCondition([-4, -5, -1, 5, -1, 6, -1, 28]))).toBe('(aspect(5) || aspect(6)) && aspect(28)');
    expect(formatCondition(decodeCondition([-5, -4, -1, 5, -1, 6, -1, 28]))).toBe('aspect(5) && aspect(6) || aspect(28)');
    expect(formatCondition(decodeCondition([-3, -4, -1, 5, -1, 6]))).toBe('!(aspect(5) && aspect(6))');
    expect(formatCondition(decodeCondition([-3, -3, -1, 5]))).toBe('!!aspect(5)');
    expect(formatCondition(decodeCondition([-4, -1, 5, -4, -1, 6, -1, 28]))).toBe('aspect(5) && aspect(6) && aspect(28)');
  });

  it('prints constants as true and false', () => {
    const tree: Condition = { kind: 'and', left: { kind: 'constant', value: true }, right: { kind: 'constant', value: false } };
    expect(formatCondition(tree)).toBe('true && false');
  });
});
