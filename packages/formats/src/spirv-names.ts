/**
 * Names of SPIR-V enumerants the reader reports (SPIR-V 1.6 core and the extensions DPC++'s
 * translator options enable), checked against SPIRV-Tools' assembler. A value missing here is
 * still read; `spirvEnumName` then spells it as its number.
 */

/** `Capability` operand values. */
export const SPIRV_CAPABILITIES: Readonly<Record<number, string>> = {
  0: 'Matrix', 1: 'Shader', 2: 'Geometry', 3: 'Tessellation', 4: 'Addresses', 5: 'Linkage', 6: 'Kernel', 7: 'Vector16',
  8: 'Float16Buffer', 9: 'Float16', 10: 'Float64', 11: 'Int64', 12: 'Int64Atomics', 13: 'ImageBasic', 14: 'ImageReadWrite',
  15: 'ImageMipmap', 17: 'Pipes', 18: 'Groups', 19: 'DeviceEnqueue', 20: 'LiteralSampler', 21: 'AtomicStorage', 22: 'Int16',
  23: 'TessellationPointSize', 24: 'GeometryPointSize', 25: 'ImageGatherExtended', 27: 'StorageImageMultisample',
  28: 'UniformBufferArrayDynamicIndexing', 29: 'SampledImageArrayDynamicIndexing', 30: 'StorageBufferArrayDynamicIndexing',
  31: 'StorageImageArrayDynamicIndexing', 32: 'ClipDistance', 33: 'CullDistance', 34: 'ImageCubeArray', 35: 'SampleRateShading',
  36: 'ImageRect', 37: 'SampledRect', 38: 'GenericPointer', 39: 'Int8', 40: 'InputAttachment', 41: 'SparseResidency', 42: 'MinLod',
  43: 'Sampled1D', 44: 'Image1D', 45: 'SampledCubeArray', 46: 'SampledBuffer', 47: 'ImageBuffer', 48: 'ImageMSArray',
  49: 'StorageImageExtendedFormats', 50: 'ImageQuery', 51: 'DerivativeControl', 52: 'InterpolationFunction', 53: 'TransformFeedback',
  54: 'GeometryStreams', 55: 'StorageImageReadWithoutFormat', 56: 'StorageImageWriteWithoutFormat', 57: 'MultiViewport',
  58: 'SubgroupDispatch', 59: 'NamedBarrier', 60: 'PipeStorage', 61: 'GroupNonUniform', 62: 'GroupNonUniformVote',
  63: 'GroupNonUniformArithmetic', 64: 'GroupNonUniformBallot', 65: 'GroupNonUniformShuffle', 66: 'GroupNonUniformShuffleRelative',
  67: 'GroupNonUniformClustered', 68: 'GroupNonUniformQuad', 69: 'ShaderLayer', 70: 'ShaderViewportIndex', 71: 'UniformDecoration',
  4423: 'SubgroupBallotKHR', 4427: 'DrawParameters', 4431: 'SubgroupVoteKHR', 4433: 'StorageBuffer16BitAccess',
  4434: 'UniformAndStorageBuffer16BitAccess', 4435: 'StoragePushConstant16', 4436: 'StorageInputOutput16', 4437: 'DeviceGroup',
  4439: 'MultiView', 4441: 'VariablePointersStorageBuffer', 4442: 'VariablePointers', 4445: 'AtomicStorageOps',
  4448: 'StorageBuffer8BitAccess', 4449: 'UniformAndStorageBuffer8BitAccess', 4450: 'StoragePushConstant8', 4464: 'DenormPreserve',
  4465: 'DenormFlushToZero', 4466: 'SignedZeroInfNanPreserve', 4467: 'RoundingModeRTE', 4468: 'RoundingModeRTZ',
  5008: 'Float16ImageAMD', 5016: 'Int64ImageEXT', 5055: 'ShaderClockKHR', 5345: 'VulkanMemoryModel', 5347: 'PhysicalStorageBufferAddresses',
  5568: 'SubgroupShuffleINTEL', 5569: 'SubgroupBufferBlockIOINTEL', 5570: 'SubgroupImageBlockIOINTEL', 5579: 'SubgroupImageMediaBlockIOINTEL',
  5582: 'RoundToInfinityINTEL', 5583: 'FloatingPointModeINTEL', 5584: 'IntegerFunctions2INTEL', 5603: 'FunctionPointersINTEL',
  5604: 'IndirectReferencesINTEL', 5606: 'AsmINTEL', 5612: 'AtomicFloat32MinMaxEXT', 5613: 'AtomicFloat64MinMaxEXT',
  5616: 'AtomicFloat16MinMaxEXT', 5617: 'VectorComputeINTEL', 5619: 'VectorAnyINTEL', 5629: 'ExpectAssumeKHR',
  5696: 'SubgroupAvcMotionEstimationINTEL', 5697: 'SubgroupAvcMotionEstimationIntraINTEL', 5698: 'SubgroupAvcMotionEstimationChromaINTEL',
  5817: 'VariableLengthArrayINTEL', 5821: 'FunctionFloatControlINTEL', 5824: 'FPGAMemoryAttributesINTEL', 5837: 'FPFastMathModeINTEL',
  5844: 'ArbitraryPrecisionIntegersINTEL', 5845: 'ArbitraryPrecisionFloatingPointINTEL', 5886: 'UnstructuredLoopControlsINTEL',
  5888: 'FPGALoopControlsINTEL', 5892: 'KernelAttributesINTEL', 5897: 'FPGAKernelAttributesINTEL', 5898: 'FPGAMemoryAccessesINTEL',
  5904: 'FPGAClusterAttributesINTEL', 5906: 'LoopFuseINTEL', 5908: 'FPGADSPControlINTEL', 5910: 'MemoryAccessAliasingINTEL',
  5916: 'FPGAInvocationPipeliningAttributesINTEL', 5920: 'FPGABufferLocationINTEL', 5922: 'ArbitraryPrecisionFixedPointINTEL',
  5935: 'USMStorageClassesINTEL', 5939: 'RuntimeAlignedAttributeINTEL', 5943: 'IOPipesINTEL', 5945: 'BlockingPipesINTEL', 5948: 'FPGARegINTEL',
  6016: 'DotProductInputAll', 6017: 'DotProductInput4x8Bit', 6018: 'DotProductInput4x8BitPacked', 6019: 'DotProduct',
  6020: 'RayCullMaskKHR', 6025: 'BitInstructions', 6026: 'GroupNonUniformRotateKHR', 6033: 'AtomicFloat32AddEXT',
  6034: 'AtomicFloat64AddEXT', 6089: 'LongConstantCompositeINTEL', 6094: 'OptNoneINTEL', 6095: 'AtomicFloat16AddEXT',
  6114: 'DebugInfoModuleINTEL', 6141: 'SplitBarrierINTEL', 6400: 'GroupUniformArithmeticKHR',
};

/** `ExecutionModel` operand values. */
export const SPIRV_EXECUTION_MODELS: Readonly<Record<number, string>> = {
  0: 'Vertex', 1: 'TessellationControl', 2: 'TessellationEvaluation', 3: 'Geometry', 4: 'Fragment', 5: 'GLCompute', 6: 'Kernel',
};

/** `ExecutionMode` operand values. */
export const SPIRV_EXECUTION_MODES: Readonly<Record<number, string>> = {
  0: 'Invocations', 1: 'SpacingEqual', 2: 'SpacingFractionalEven', 3: 'SpacingFractionalOdd', 4: 'VertexOrderCw', 5: 'VertexOrderCcw',
  6: 'PixelCenterInteger', 7: 'OriginUpperLeft', 8: 'OriginLowerLeft', 9: 'EarlyFragmentTests', 10: 'PointMode', 11: 'Xfb',
  12: 'DepthReplacing', 14: 'DepthGreater', 15: 'DepthLess', 16: 'DepthUnchanged', 17: 'LocalSize', 18: 'LocalSizeHint',
  19: 'InputPoints', 20: 'InputLines', 21: 'InputLinesAdjacency', 22: 'Triangles', 23: 'InputTrianglesAdjacency', 24: 'Quads',
  25: 'Isolines', 26: 'OutputVertices', 27: 'OutputPoints', 28: 'OutputLineStrip', 29: 'OutputTriangleStrip', 30: 'VecTypeHint',
  31: 'ContractionOff', 33: 'Initializer', 34: 'Finalizer', 35: 'SubgroupSize', 36: 'SubgroupsPerWorkgroup',
  37: 'SubgroupsPerWorkgroupId', 38: 'LocalSizeId', 39: 'LocalSizeHintId', 4459: 'DenormPreserve', 4460: 'DenormFlushToZero',
  4461: 'SignedZeroInfNanPreserve', 4462: 'RoundingModeRTE', 4463: 'RoundingModeRTZ', 5618: 'SharedLocalMemorySizeINTEL',
  5620: 'RoundingModeRTPINTEL', 5621: 'RoundingModeRTNINTEL', 5622: 'FloatingPointModeALTINTEL', 5623: 'FloatingPointModeIEEEINTEL',
  5893: 'MaxWorkgroupSizeINTEL', 5894: 'MaxWorkDimINTEL', 5895: 'NoGlobalOffsetINTEL', 5896: 'NumSIMDWorkitemsINTEL',
  5903: 'SchedulerTargetFmaxMhzINTEL', 6154: 'StreamingInterfaceINTEL', 6417: 'NamedBarrierCountINTEL',
};

/** `AddressingModel` operand values. */
export const SPIRV_ADDRESSING_MODELS: Readonly<Record<number, string>> = { 0: 'Logical', 1: 'Physical32', 2: 'Physical64', 5348: 'PhysicalStorageBuffer64' };

/** `MemoryModel` operand values. */
export const SPIRV_MEMORY_MODELS: Readonly<Record<number, string>> = { 0: 'Simple', 1: 'GLSL450', 2: 'OpenCL', 3: 'Vulkan' };

/** Tools of the Khronos generator registry (the header's generator word, upper half) syclkit meets. */
export const SPIRV_GENERATORS: Readonly<Record<number, string>> = {
  0: 'Khronos',
  6: 'Khronos LLVM/SPIR-V Translator',
  7: 'Khronos SPIR-V Tools Assembler',
  8: 'Khronos Glslang Reference Front End',
  11: 'Intel',
  17: 'Khronos SPIR-V Tools Linker',
  21: 'Google Clspv',
};

/** The name of `value` in `table`, or the value in decimal when the table does not know it. */
export function spirvEnumName(table: Readonly<Record<number, string>>, value: number): string {
  return table[value] ?? String(value);
}
