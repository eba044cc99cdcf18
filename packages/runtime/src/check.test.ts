import { AspectTable, BUILTIN_ASPECTS } from '@syclkit/device-config';
import { describe, expect, it } from 'vitest';
import { Device, RequirementsBuilder, checkJointMatrix, checkJointMatrixMad, checkKernelRequirements, errc, type KernelRequirements, type MatrixCombination } from './index.js';

const device = new Device({
  name: 'test-gpu',
  target: 'intel_gpu_pvc',
  aspects: [5, 6],
  subGroupSizes: [16, 32],
  maxWorkGroupSize: 1024,
  maxWorkItemSizes: [64, 512, 1024],
  backend: 'ext_oneapi_level_zero',
  deviceType: 'gpu',
});
const table = AspectTable.fromDefinitions([...BUILTIN_ASPECTS, { name: 'intel_gpu_pvc', value: 1000, status: 'current' }, { name: 'intel_gpu_dg1', value: 1001, status: 'current' }]);

const requirements = (build: (b: RequirementsBuilder) => void): KernelRequirements => {
  const builder = new RequirementsBuilder();
  build(builder);
  return builder.build();
};
const check = (req: KernelRequirements, options: Parameters<typeof checkKernelRequirements>[2] = {}) => checkKernelRequirements(req, device, { aspectTable: table, ...options });

describe('checkKernelRequirements', () => {
  it('passes when every requirement is met', () => {
    const req = requirements((b) => b.addAspects([2, 5, 6]).addSubGroupSize(16).addWorkGroupSize([16n, 64n]).addFixedTargets([1000, 1001]));
    expect(check(req, { submission: { dims: 2, local: [16, 64] } })).toBeUndefined();
  });

  it('reports an aspect the device lacks by its enumerator name', () => {
    const error = check(requirements((b) => b.addAspects([5, 28])));
    expect(error?.code).toBe(errc.kernel_not_supported);
    expect(error?.message).toBe('Required aspect atomic64 is not supported on the device');
  });

  it('reports an aspect value no table knows as Unknown aspect', () => {
    expect(check(requirements((b) => b.addAspects([777])))?.message).toBe('Unknown aspect 777');
  });

  it('reports a fixed target list the device is not in, naming the targets, before anything else', () => {
    const error = check(requirements((b) => b.addAspects([28]).addFixedTargets([1001])));
    expect(error?.code).toBe(errc.kernel_not_supported);
    expect(error?.message).toBe("Kernel was compiled with '-fsycl-fixed-targets=intel_gpu_dg1' but was submitted to a different device.");
  });

  it('names fixed-target values the table does not know by number, and an empty list matches no device', () => {
    expect(check(requirements((b) => b.addFixedTargets([1001, 4242])))?.message).toBe("Kernel was compiled with '-fsycl-fixed-targets=intel_gpu_dg1,4242' but was submitted to a different device.");
    expect(check(requirements((b) => b.addFixedTargets([])))?.message).toBe("Kernel was compiled with '-fsycl-fixed-targets=' but was submitted to a different device.");
  });

  it('skips fixed_target with intel-llvm semantics and goes on to the aspects', () => {
    const req = requirements((b) => b.addAspects([28]).addFixedTargets([1001]));
    expect(check(req, { semantics: 'intel-llvm' })?.message).toBe('Required aspect atomic64 is not supported on the device');
  });

  it('checks the work-group size before the sub-group size, as intel/llvm does', () => {
    const error = check(requirements((b) => b.addSubGroupSize(8).addWorkGroupSize([2048n])));
    expect(error?.message).toBe('Required work-group size 2048 is not supported on the device');
  });

  it('reports a required sub-group size the device lacks', () => {
    const error = check(requirements((b) => b.addSubGroupSize(8)));
    expect(error?.code).toBe(errc.kernel_not_supported);
    expect(error?.message).toBe('Sub-group size 8 is not supported on the device');
  });

  it('reports a work-group size whose product overflows 64 bits', () => {
    expect(check(requirements((b) => b.addWorkGroupSize([1n << 40n, 1n << 40n])))?.message).toBe(
      "Required work-group size is not supported (total number of work-items requested can't fit into size_t)",
    );
  });

  it('reports a submission whose dimensions differ from the required size as errc.nd_range', () => {
    const error = check(requirements((b) => b.addWorkGroupSize([8n, 8n])), { submission: { dims: 1 } });
    expect(error?.code).toBe(errc.nd_range);
    expect(error?.message).toBe("The local size dimension of submitted nd_range doesn't match the required work-group size dimension");
  });

  it('compares each dimension with max_work_item_sizes in reverse order', () => {
    // limits for 2 dimensions are [512, 1024]; required[0] is compared with 1024, required[1] with 512.
    expect(check(requirements((b) => b.addWorkGroupSize([1, 600].map(BigInt))))?.message).toBe('Required work-group size 600 is not supported');
    expect(check(requirements((b) => b.addWorkGroupSize([600, 1].map(BigInt))))).toBeUndefined();
    // three dimensions: required[0] against 1024, required[2] against 64.
    expect(check(requirements((b) => b.addWorkGroupSize([1n, 1n, 100n])))?.message).toBe('Required work-group size 100 is not supported');
  });

  it('reports a local size that differs from the required work-group size as errc.nd_range', () => {
    const error = check(requirements((b) => b.addWorkGroupSize([4n, 4n, 4n])), { submission: { dims: 3, local: [8, 8, 8] } });
    expect(error?.code).toBe(errc.nd_range);
    expect(error?.message).toBe("The specified local size {8, 8, 8} doesn't match the required work-group size specified in the program source {4, 4, 4}");
  });

  it('checks joint_matrix, except on CUDA and HIP devices', () => {
    const req = requirements((b) => b.addJointMatrix('matrix_type::fp32,use::a,8,16'));
    expect(check(req)?.message).toBe('no matrix hardware on the target device, joint_matrix is not supported');
    const cuda = new Device({ name: 'cuda', aspects: [], subGroupSizes: [32], maxWorkGroupSize: 1024, backend: 'ext_oneapi_cuda', deviceType: 'gpu' });
    expect(checkKernelRequirements(req, cuda)).toBeUndefined();
  });
});

describe('joint matrix combinations', () => {
  const combos: MatrixCombination[] = [
    { atype: 'bf16', btype: 'bf16', ctype: 'fp32', dtype: 'fp32', msize: 0, nsize: 0, ksize: 0, maxMsize: 8, maxNsize: 16, maxKsize: 16 },
    { atype: 'sint8', btype: 'sint8', ctype: 'sint32', dtype: 'sint32', msize: 8, nsize: 16, ksize: 32, maxMsize: 0, maxNsize: 0, maxKsize: 0 },
  ];

  it('accepts a matrix within the max sizes or of the exact sizes', () => {
    expect(checkJointMatrix('matrix_type::bf16,use::a,8,16;matrix_type::fp32,use::accumulator,8,16', combos)).toBeUndefined();
    expect(checkJointMatrix('matrix_type::sint8,use::b,32,16', combos)).toBeUndefined();
  });

  it('names the first matrix no combination supports', () => {
    expect(checkJointMatrix('matrix_type::bf16,use::a,8,16;matrix_type::sint8,use::a,8,16', combos)).toBe(
      'joint_matrix with parameters matrix_type::sint8, use::a, Rows=8, Cols=16 is not supported on this device',
    );
  });

  it('checks joint_matrix_mad type by type and size by size', () => {
    expect(checkJointMatrixMad('matrix_type::bf16,matrix_type::bf16,matrix_type::fp32,matrix_type::fp32,8,16,16', combos)).toBeUndefined();
    expect(checkJointMatrixMad('matrix_type::bf16,matrix_type::bf16,matrix_type::fp32,matrix_type::fp32,16,16,16', combos)).toBe(
      'joint_matrix_mad function with parameters atype=matrix_type::bf16, btype=matrix_type::bf16, ctype=matrix_type::fp32, dtype=matrix_type::fp32, M=16, K=16, N=16 is not supported on this device',
    );
    expect(checkJointMatrixMad('x,y,z,w,1,1,1', [])).toBe('no matrix hardware on the target device, joint_matrix_mad is not supported');
  });
});
