import { describe, expect, it } from 'vitest';
import * as api from './index.js';

/** The public surface: adding or removing an export is a deliberate change to this list. */
const EXPORTS = [
    'ATTRIBUTE_KIND_ORDER', 'AggregateInst', 'AllocaInst', 'Argument', 'ArrayType', 'AttributeList',
    'AttributeSet', 'BINARY_OPS', 'BasicBlock', 'BlockAddress', 'CAST_OPS', 'CallGraph', 'CallInst',
    'CatchSwitchInst', 'CmpInst', 'Comdat', 'ConstantAggregateZero', 'ConstantArray', 'ConstantExpr',
    'ConstantFP', 'ConstantGlobals', 'ConstantInt', 'ConstantNone', 'ConstantPointerNull', 'ConstantString',
    'ConstantStruct', 'ConstantVector', 'Context', 'DIArgList', 'DIExpression', 'DINode',
    'DSOLocalEquivalent', 'DataLayout', 'dataLayoutProblem', 'FAST_MATH_MASK', 'FIXED_METADATA_KINDS', 'Flag', 'FloatType',
    'FunctionType', 'GetElementPtrInst', 'GlobalAlias', 'GlobalIFunc', 'GlobalUses', 'GlobalVariable',
    'IRFunction', 'InlineAsm', 'Instruction', 'IntegerType', 'IrError', 'IrSyntaxError',
    'KERNEL_CALLING_CONVENTIONS', 'LandingPadInst', 'Linker', 'MDString', 'MDTuple', 'MemoryInst',
    'MetadataAsValue', 'MetadataContext', 'MetadataKinds', 'Module', 'NOT_AN_OPERAND', 'NoCFIValue', 'PointerType',
    'PoisonValue', 'PrintCache', 'ShuffleVectorInst', 'SimpleType', 'StructType', 'TERMINATORS',
    'TargetExtType', 'TypeContext', 'UndefValue', 'ValueAsMetadata', 'ValueMapper', 'VectorType',
    'buildCallGraph', 'calledFunction', 'callingConvFromNumber', 'childNodes', 'cloneModule',
    'cloneModuleWithMap', 'computeUses', 'constantOperands', 'debugMetadataVersion', 'declarationOf', 'decodeIRText', 'deleteFunctions',
    'dropBody', 'enumAttr', 'eraseUnused', 'escapeString', 'forEachOperand', 'forEachReference', 'forEachReferenceOf', 'formatFP',
    'formatLLVMVerifierFailures', 'formatMemoryEffects', 'formatName', 'formatProblems', 'formatType', 'fpValue', 'functionAttributeRulesBroken', 'functionKind', 'getMetadata',
    'globalsInMetadata', 'identifiedStructTypes', 'intAttr', 'intrinsicAttributes', 'irDiagnostics', 'isAttributeKeyword',
    'isCall', 'isCallingConvKeyword', 'isConstant', 'isFirstClassType', 'isFloatingType', 'isGlobalValue',
    'isIntegerType', 'isMDNode', 'isNullValue', 'isNumberedNode', 'isPlainConstant', 'isSized', 'isVoidType',
    'linkModules', 'llvmVerifierFailures', 'llvmVerifierFunctionFailures', 'lookupIntrinsic', 'moduleKind', 'moduleProblems', 'normalizeInt',
    'nullMetadataReferences', 'packMemoryEffects', 'parseModule', 'printModule', 'printModuleTo',
    'removeFromUsedLists', 'replaceAllUsesWith', 'scalarType', 'setMetadata', 'stringAttr', 'stripDebugInfo',
    'stripPointerCasts', 'stronglyConnectedComponentsOf', 'subtypes', 'typeAttr', 'unpackMemoryEffects', 'upgradeDebugInfo',
    'upgradeIntrinsics', 'verifyModule', 'verifyWhileParsing',
];

describe('@syclkit/ir public surface', () => {
  it('exports exactly the documented names', () => {
    expect(Object.keys(api).sort()).toEqual([...EXPORTS].sort());
  });
});
