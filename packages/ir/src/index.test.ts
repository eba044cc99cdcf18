import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as api from './index.js';

/** The public surface: adding or removing an export is a deliberate change to this list. */
const EXPORTS = [
    'AggregateInst', 'AllocaInst', 'Argument', 'ArrayType', 'AttributeList',
    'AttributeSet', 'BasicBlock', 'BlockAddress', 'CallGraph', 'CallInst',
    'CatchSwitchInst', 'CmpInst', 'Comdat', 'ConstantAggregateZero', 'ConstantArray', 'ConstantExpr',
    'ConstantFP', 'ConstantGlobals', 'ConstantInt', 'ConstantNone', 'ConstantPointerNull', 'ConstantString',
    'ConstantStruct', 'ConstantVector', 'Context', 'DIArgList', 'DIExpression', 'DINode',
    'DSOLocalEquivalent', 'DataLayout', 'dataLayoutProblem', 'Flag', 'FloatType',
    'FunctionType', 'GetElementPtrInst', 'GlobalAlias', 'GlobalIFunc', 'GlobalUses', 'GlobalVariable',
    'IRFunction', 'InlineAsm', 'Instruction', 'IntegerType', 'IrError', 'IrSyntaxError',
    'KERNEL_CALLING_CONVENTIONS', 'LandingPadInst', 'MDString', 'MDTuple', 'MemoryInst',
    'MetadataAsValue', 'Module', 'NOT_AN_OPERAND', 'NoCFIValue', 'PointerType',
    'PoisonValue', 'PrintCache', 'ShuffleVectorInst', 'SimpleType', 'StructType',
    'TargetExtType', 'UndefValue', 'ValueAsMetadata', 'ValueMapper', 'VectorType',
    'buildCallGraph', 'calledFunction', 'childNodes', 'cloneModule',
    'cloneModuleWithMap', 'computeUses', 'declarationOf', 'decodeIRText', 'deleteFunctions',
    'enumAttr', 'eraseUnused', 'forEachOperand', 'forEachReference', 'forEachReferenceOf',
    'formatLLVMVerifierFailures', 'formatName', 'formatType', 'fpValue', 'functionKind', 'getMetadata',
    'intAttr', 'intrinsicAttributes', 'irDiagnostics',
    'isConstant', 'isFirstClassType', 'isFloatingType', 'isGlobalValue',
    'isIntegerType', 'isMDNode', 'isNullValue', 'isSized', 'isVoidType',
    'linkModules', 'llvmVerifierFailures', 'llvmVerifierFunctionFailures', 'lookupIntrinsic', 'moduleKind',
    'packMemoryEffects', 'parseModule', 'printModule', 'printModuleTo', 'valueTexts',
    'replaceAllUsesWith', 'scalarType', 'setMetadata', 'stringAttr',
    'stripPointerCasts', 'stronglyConnectedComponentsOf', 'subtypes', 'typeAttr', 'unpackMemoryEffects', 'unusedGlobals',
    'verifyModule', 'verifyWhileParsing',
];

describe('@syclkit/ir public surface', () => {
  it('exports exactly the documented names', () => {
    expect(Object.keys(api).sort()).toEqual([...EXPORTS].sort());
  });

  it('the README lists every exported name, types included, and nothing it does not export', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('### What it exports'), readme.indexOf('\n## ', readme.indexOf('### What it exports')));
    const listed = new Set([...section.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)`/g)].map((m) => m[1]!));
    const index = readFileSync(new URL('./index.ts', import.meta.url), 'utf8');
    const typeNames = [...index.matchAll(/export type \{([^}]*)\}/g)].flatMap((m) => m[1]!.split(',').map((n) => n.trim()).filter(Boolean));
    const exported = [...Object.keys(api), ...typeNames];
    expect(exported.filter((name) => !listed.has(name))).toEqual([]);
    const notExported = [...listed].filter((name) => !exported.includes(name));
    expect(notExported).toEqual([]);
  });
});
