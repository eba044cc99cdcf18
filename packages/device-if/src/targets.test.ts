import { AspectTable, DeviceConfig, UnknownTargetError, truncateArchitectureToInt32 } from '@syclkit/device-config';
import { describe, expect, it } from 'vitest';
import { truncateArchitecture } from './architecture.js';
import { decodeCondition } from './condition.js';
import { simplifyConditionallyUsedAspects } from './conditional-aspects.js';
import { decideCondition, evaluateCondition } from './evaluate.js';
import { formatCondition } from './format.js';
import { deviceConfigConditionNames, targetArchitectureAspects, targetDeviceFacts } from './targets.js';

const config = DeviceConfig.builtin();
const PVC_OPERAND = 251660032;
const DG1_OPERAND = 41943040;

describe('targetDeviceFacts', () => {
  it("gives an Intel GPU target's aspects and architecture, all of them known", () => {
    const pvc = targetDeviceFacts(config, 'intel_gpu_pvc');
    expect(pvc.target).toBe('intel_gpu_pvc');
    expect(pvc.architecture).toBe(0x000000030f000700n);
    expect([5, 6, 28, 53].map((aspect) => pvc.hasAspect(aspect))).toEqual([true, true, true, true]);
    expect(pvc.hasAspect(7)).toBe(false);
    expect(pvc.knowsAspect!(7)).toBe(true);
    expect(evaluateCondition(decodeCondition([-4, -1, 6, -2, PVC_OPERAND]), pvc)).toBe(true);
  });

  it('accepts aliases and reports the canonical name', () => {
    expect(targetDeviceFacts(config, 'intel_gpu_12_60_7').target).toBe('intel_gpu_pvc');
  });

  it('leaves unlisted aspects and the architecture open for a target that may support other aspects and has no fixed architecture', () => {
    const gen = targetDeviceFacts(config, 'spir64_gen');
    expect(gen.architecture).toBeUndefined();
    expect(gen.knowsArchitecture).toBe(false);
    expect(gen.knowsAspect!(6)).toBe(false);
    expect(decideCondition(decodeCondition([-1, 6]), gen)).toBeUndefined();
  });

  it("reads aspect numbers with the given table (the module's)", () => {
    const table = AspectTable.fromPairs([['fp64', 100]]);
    const pvc = targetDeviceFacts(config, 'intel_gpu_pvc', { aspectTable: table });
    expect(pvc.hasAspect(100)).toBe(true);
    expect(pvc.hasAspect(6)).toBe(false);
  });

  it('throws UnknownTargetError with a suggestion for names the configuration does not know', () => {
    expect(() => targetDeviceFacts(config, 'intel_gpu_pvcc')).toThrow(UnknownTargetError);
  });
});

describe('targetArchitectureAspects', () => {
  const architectureAspects = targetArchitectureAspects(config);

  it("gives what every device of the operand's target has", () => {
    expect([...architectureAspects.guaranteedAspects(PVC_OPERAND)!].sort((a, b) => a - b)).toEqual([5, 6, 28, 53]);
    expect([...architectureAspects.guaranteedAspects(DG1_OPERAND)!].sort((a, b) => a - b)).toEqual([5, 28, 53]);
  });

  it('guarantees nothing for an operand shared with a target that may support other aspects (0: x86_64, bdw, tgllp)', () => {
    expect(architectureAspects.guaranteedAspects(0)).toBeUndefined();
  });

  it('guarantees nothing for an operand no architecture has', () => {
    expect(architectureAspects.guaranteedAspects(12345)).toBeUndefined();
  });

  it("lets the simplification drop aspects an OR of architectures surely has", () => {
    const condition = [-5, -2, DG1_OPERAND, -2, PVC_OPERAND]; // already in normal form
    const result = simplifyConditionallyUsedAspects([{ condition, aspects: [5, 6] }], { architectureAspects });
    expect(result.pairs).toEqual([{ condition, aspects: [6] }]);
  });
});

describe('deviceConfigConditionNames', () => {
  it('prints aspects and architectures by their enum names, colliding operands with every name', () => {
    const names = deviceConfigConditionNames();
    expect(formatCondition(decodeCondition([-4, -1, 5, -3, -2, PVC_OPERAND]), names)).toBe('fp16 && !arch(intel_gpu_pvc)');
    expect(formatCondition(decodeCondition([-2, 0]), names)).toBe('arch(x86_64|intel_gpu_bdw|intel_gpu_tgllp)');
  });
});

describe('truncateArchitecture', () => {
  it("is device-config's truncateArchitectureToInt32, so the two cannot disagree", () => {
    expect(truncateArchitecture).toBe(truncateArchitectureToInt32);
  });
});
