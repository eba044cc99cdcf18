import { describe, expect, it } from 'vitest';
import { addDeviceRequirements, readDeviceRequirements } from './device-requirements.js';
import { FormatError } from './errors.js';
import { DeviceRequirementName, PropertySetName } from './names.js';
import { PropertySetRegistry, readPropertySetRegistry, writePropertySetRegistry } from './property-sets.js';
import { uint32Value } from './property-value.js';

const SET = PropertySetName.DEVICE_REQUIREMENTS;

function written(requirements: Parameters<typeof addDeviceRequirements>[1]): string {
  const registry = new PropertySetRegistry();
  addDeviceRequirements(registry, requirements);
  return writePropertySetRegistry(registry);
}

describe('addDeviceRequirements', () => {
  it('always writes aspects, as AAAAAAAAAAA when empty', () => {
    expect(written({})).toBe(`[${SET}]\naspects=2|AAAAAAAAAAA\n`);
    expect(written({ aspects: [] })).toBe(`[${SET}]\naspects=2|AAAAAAAAAAA\n`);
  });

  it('writes the aspects.ll split=kernel image _0 byte-exactly', () => {
    expect(written({ aspects: [1, 6] })).toBe(`[${SET}]\naspects=2|ABAAAAAAAAQAAAAAGAAAAA\n`);
  });

  it('writes every property in alphabetical order with compile_target appended last', () => {
    const text = written({
      compileTarget: 'intel_gpu_pvc',
      workGroupNumDim: 2,
      reqdWorkGroupSize: [64n],
      legacyReqdWorkGroupSize: [32],
      reqdSubGroupSize: 16,
      jointMatrixMad: 'matrix_type::fp16,matrix_type::fp16,matrix_type::fp32,matrix_type::fp32,8,16,16',
      jointMatrix: 'matrix_type::fp64,use::a,16,16',
      fixedTarget: [1],
      aspects: [0, 9, 12],
    });
    const names = text
      .split('\n')
      .slice(1, -1)
      .map((line) => line.slice(0, line.indexOf('=')));
    expect(names).toEqual([
      'aspects',
      'fixed_target',
      'joint_matrix',
      'joint_matrix_mad',
      'reqd_sub_group_size',
      'reqd_work_group_size',
      'reqd_work_group_size_uint64_t',
      'work_group_num_dim',
      'compile_target',
    ]);
    // std::map order is byte-wise, so it equals a plain sort of the names written before compile_target.
    expect(names.slice(0, -1)).toEqual([...names.slice(0, -1)].sort());
    expect(text).toContain('aspects=2|gBAAAAAAAAAAAAAAJAAAAwAAAAA\n');
    expect(text).toContain('fixed_target=2|gAAAAAAAAAQAAAAA\n');
    expect(text).toContain('joint_matrix=2|wDAAAAAAAAQbhRncph3X0lHclpjOmBnN0wSdzVmO6EGLxYDLxYD\n');
    expect(text).toContain('reqd_sub_group_size=1|16\n');
    expect(text).toContain('reqd_work_group_size_uint64_t=2|ABAAAAAAAAAQAAAAAAAAAA\n');
    expect(text).toContain('work_group_num_dim=1|2\n');
  });

  it('omits fixed_target, joint_matrix and joint_matrix_mad when empty, as upstream asMap()', () => {
    expect(written({ fixedTarget: [], jointMatrix: '', jointMatrixMad: '' })).toBe(`[${SET}]\naspects=2|AAAAAAAAAAA\n`);
  });

  it('refuses to add the set twice', () => {
    const registry = new PropertySetRegistry();
    addDeviceRequirements(registry, {});
    expect(() => addDeviceRequirements(registry, {})).toThrow(`property set [${SET}] already exists`);
  });

  it('places the set after the sets already in the registry', () => {
    const registry = new PropertySetRegistry();
    registry.add(PropertySetName.DEVICELIB_REQ_MASK, 'DeviceLibReqMask', uint32Value(64));
    addDeviceRequirements(registry, { reqdSubGroupSize: 32 });
    expect(writePropertySetRegistry(registry)).toBe(
      '[SYCL/devicelib req mask]\nDeviceLibReqMask=1|64\n' +
        `[${SET}]\naspects=2|AAAAAAAAAAA\nreqd_sub_group_size=1|32\n`,
    );
  });
});

describe('readDeviceRequirements', () => {
  it('returns undefined when the registry has no device requirements', () => {
    expect(readDeviceRequirements(new PropertySetRegistry())).toBeUndefined();
  });

  it('reads back everything the writer wrote', () => {
    const requirements = {
      aspects: [0, 9, 12],
      fixedTarget: [1, 2],
      jointMatrix: 'matrix_type::fp32,use::a,8,16;matrix_type::fp32,use::accumulator,8,16',
      jointMatrixMad: 'matrix_type::bf16,matrix_type::bf16,matrix_type::fp32,matrix_type::fp32,8,16,16',
      reqdSubGroupSize: 16,
      legacyReqdWorkGroupSize: [8, 8],
      reqdWorkGroupSize: [32n, 1n, 1n],
      workGroupNumDim: 3,
      compileTarget: 'spir64_x86_64',
    };
    const registry = new PropertySetRegistry();
    addDeviceRequirements(registry, requirements);
    const read = readDeviceRequirements(readPropertySetRegistry(writePropertySetRegistry(registry)));
    expect(read).toEqual({ ...requirements, aspectsAsInt32: [0, 9, 12] });
  });

  it('leaves absent properties out of the result', () => {
    const read = readDeviceRequirements(readPropertySetRegistry(`[${SET}]\nreqd_sub_group_size=1|8\n`));
    expect(read).toEqual({ reqdSubGroupSize: 8 });
  });

  it('reads aspects as uint32 and as int32, so internal (negative) aspects are visible', () => {
    const registry = new PropertySetRegistry();
    addDeviceRequirements(registry, { aspects: [-1, 6] });
    const read = readDeviceRequirements(registry)!;
    expect(read.aspects).toEqual([0xffff_ffff, 6]);
    expect(read.aspectsAsInt32).toEqual([-1, 6]);
  });

  it('ignores properties it does not know, as the runtime does', () => {
    const read = readDeviceRequirements(readPropertySetRegistry(`[${SET}]\naspects=2|AAAAAAAAAAA\nfuture=1|1\n`));
    expect(read).toEqual({ aspects: [], aspectsAsInt32: [] });
  });

  it('reports a property of the wrong type at its line in the .prop file', () => {
    const registry = readPropertySetRegistry(`[${SET}]\naspects=2|AAAAAAAAAAA\nreqd_sub_group_size=2|AAAAAAAAAAA\n`, {
      fileName: 'img_0.prop',
    });
    let error: unknown;
    try {
      readDeviceRequirements(registry);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(FormatError);
    expect((error as FormatError).render()).toBe(
      `img_0.prop:3:1: error: property '${DeviceRequirementName.REQD_SUB_GROUP_SIZE}' in [${SET}]: expected a UINT32 (1), found BYTE_ARRAY (2)`,
    );
  });

  it('reports aspects that are not a whole number of uint32 values', () => {
    // 40 bits: five payload bytes.
    const registry = readPropertySetRegistry(`[${SET}]\naspects=2|oAAAAAAAAAw///3/wB\n`, { fileName: 'b.prop' });
    expect(() => readDeviceRequirements(registry)).toThrow(
      `b.prop:2:1: property 'aspects' in [${SET}]: a 40-bit byte array is not a whole number of uint32 values`,
    );
  });

  it('reports a reqd_work_group_size_uint64_t that is not whole uint64 values', () => {
    const registry = readPropertySetRegistry(`[${SET}]\nreqd_work_group_size_uint64_t=2|gAAAAAAAAAQAAAAA\n`);
    expect(() => readDeviceRequirements(registry)).toThrow(/not a whole number of uint64 values/);
  });
});
