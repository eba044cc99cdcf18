import { describe, expect, it } from 'vitest';
import {
  ambiguousArchitectureOperands,
  architectureOperand,
  architectureOperandsOf,
  truncateArchitecture,
} from './architecture.js';
import { decodeCondition } from './condition.js';

describe('truncateArchitecture', () => {
  it.each([
    ['intel_gpu_pvc', 0x000000030f000700n, 251660032],
    ['intel_gpu_icllp', 0x00000002c0000000n, -1073741824],
    ['intel_gpu_ehl', 0x00000002c0800000n, -1065353216],
    ['intel_gpu_skl', 0x0000000240000900n, 1073744128],
    ['intel_gpu_dg1', 0x0000000302800000n, 41943040],
    ['amd_gpu_gfx90a', 0x0200000000090a00n, 592384],
    ['nvidia_gpu_sm_90a', 0x01000000000090a0n, 37024],
    ['intel_cpu_spr', 0x0300000000000800n, 2048],
  ])('truncates %s like static_cast<int>', (_name, value, operand) => {
    expect(truncateArchitecture(value)).toBe(operand);
  });

  it.each([
    ['x86_64', 0x0300000000000000n],
    ['unknown', 0x9900000000000000n],
    ['intel_gpu_bdw', 0x0000000200000000n],
    ['intel_gpu_tgllp', 0x0000000300000000n],
  ])('truncates %s to the ambiguous operand 0', (_name, value) => {
    expect(truncateArchitecture(value)).toBe(0);
  });
});

describe('architectureOperand', () => {
  it('truncates bigints and keeps int32 numbers', () => {
    expect(architectureOperand(0x000000030f000700n)).toBe(251660032);
    expect(architectureOperand(-1073741824)).toBe(-1073741824);
  });

  it('refuses numbers outside int32, which would be an untruncated 64-bit value', () => {
    expect(() => architectureOperand(0x30f000700)).toThrow(/pass the 64-bit enum value as a bigint/);
  });
});

describe('architectureOperandsOf', () => {
  it('lists distinct operands in first-occurrence order', () => {
    expect(architectureOperandsOf(decodeCondition([-4, -2, 7, -5, -3, -2, 3, -4, -1, 5, -2, 7]))).toEqual([7, 3]);
  });
});

describe('ambiguousArchitectureOperands', () => {
  const known = [0x0300000000000000n, 0x0000000200000000n, 0x0000000300000000n, 0x000000030f000700n, 0x000000030f000700n];

  it('reports operands that several known architectures truncate to', () => {
    const condition = decodeCondition([-5, -2, 0, -2, 251660032]);
    expect(ambiguousArchitectureOperands(condition, known)).toEqual(
      new Map([[0, [0x0300000000000000n, 0x0000000200000000n, 0x0000000300000000n]]]),
    );
  });

  it('does not count an alias listed twice as ambiguous', () => {
    expect(ambiguousArchitectureOperands(decodeCondition([-2, 251660032]), known).size).toBe(0);
  });
});
