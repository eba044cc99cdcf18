export { Context, normalizeInt } from './context.js';
export {
  TypeContext,
  SimpleType,
  IntegerType,
  FloatType,
  PointerType,
  ArrayType,
  VectorType,
  FunctionType,
  StructType,
  TargetExtType,
  subtypes,
  isIntegerType,
  isFloatingType,
  isVoidType,
  scalarType,
  isFirstClassType,
  isSized,
} from './types.js';
export type { Type, FloatKind, SimpleKind } from './types.js';
export {
  ConstantInt,
  ConstantFP,
  ConstantPointerNull,
  ConstantAggregateZero,
  UndefValue,
  PoisonValue,
  ConstantNone,
  ConstantArray,
  ConstantString,
  ConstantStruct,
  ConstantVector,
  ConstantExpr,
  BlockAddress,
  DSOLocalEquivalent,
  NoCFIValue,
  Comdat,
  GlobalVariable,
  GlobalAlias,
  GlobalIFunc,
  IRFunction,
  Argument,
  BasicBlock,
  InlineAsm,
  MetadataAsValue,
  isGlobalValue,
  isConstant,
  isPlainConstant,
  isNullValue,
  stripPointerCasts,
} from './values.js';
export type {
  Value,
  Constant,
  GlobalValue,
  GlobalObject,
  Linkage,
  Visibility,
  DLLStorage,
  UnnamedAddr,
  ThreadLocal,
  ComdatSelection,
  ConstantExprOpcode,
  ConstantExprExtra,
  SanitizerFlags,
  InlineAsmFlags,
} from './values.js';
export {
  Instruction,
  AllocaInst,
  MemoryInst,
  GetElementPtrInst,
  CmpInst,
  CallInst,
  AggregateInst,
  ShuffleVectorInst,
  LandingPadInst,
  CatchSwitchInst,
  Flag,
  FAST_MATH_MASK,
  TERMINATORS,
  BINARY_OPS,
  CAST_OPS,
  isCall,
} from './instructions.js';
export type { Opcode, AtomicOrdering, OperandBundle, DebugRecord } from './instructions.js';
export {
  MDString,
  ValueAsMetadata,
  MDTuple,
  DINode,
  DIExpression,
  DIArgList,
  MetadataContext,
  MetadataKinds,
  FIXED_METADATA_KINDS,
  isMDNode,
  isNumberedNode,
  childNodes,
} from './metadata.js';
export type { Metadata, MDNode, DIFieldValue, Attachment } from './metadata.js';
export {
  AttributeSet,
  AttributeList,
  ATTRIBUTE_KIND_ORDER,
  enumAttr,
  intAttr,
  typeAttr,
  stringAttr,
  isAttributeKeyword,
  formatMemoryEffects,
  packMemoryEffects,
  unpackMemoryEffects,
} from './attributes.js';
export type { Attribute, MemoryLocation } from './attributes.js';
export { Module, getMetadata, setMetadata } from './module.js';
export { DataLayout, dataLayoutProblem } from './datalayout.js';
export { parseModule } from './reader/parser.js';
export { decodeIRText } from './reader/ir-text.js';
export type { ParseOptions, ParsedFunctionFacts, PointerSyntax } from './reader/parser.js';
export { printModule, printModuleTo, PrintCache, formatName, formatType, escapeString } from './printer.js';
export type { PrintOptions } from './printer.js';
export { IrSyntaxError, IrError, irDiagnostics } from './errors.js';
export { callingConvFromNumber, isCallingConvKeyword, KERNEL_CALLING_CONVENTIONS } from './callingconv.js';
export { lookupIntrinsic, intrinsicAttributes, upgradeIntrinsics, upgradeDebugInfo, stripDebugInfo, debugMetadataVersion } from './upgrade.js';
export { formatFP, fpValue } from './fp.js';
export { moduleKind, functionKind } from './unit-kinds.js';
export { computeUses, GlobalUses, ConstantGlobals, constantOperands, globalsInMetadata } from './uses.js';
export { forEachReference, forEachReferenceOf, NOT_AN_OPERAND } from './references.js';
export type { ReferenceHolder, ReferenceVisitor } from './references.js';
export type { GlobalUser, UsesOptions } from './uses.js';
export { replaceAllUsesWith, nullMetadataReferences, deleteFunctions, dropBody, removeFromUsedLists, eraseUnused } from './replace.js';
export type { ReplaceOptions, DeleteOptions, DeleteResult, EraseUnusedOptions } from './replace.js';
export { buildCallGraph, CallGraph, calledFunction, stronglyConnectedComponentsOf } from './callgraph.js';
export type { CallGraphOptions } from './callgraph.js';
export { ValueMapper, forEachOperand } from './mapper.js';
export type { MapperOptions, LocalMap } from './mapper.js';
export { cloneModule, cloneModuleWithMap, declarationOf } from './clone.js';
export type { CloneOptions, CloneResult } from './clone.js';
export { linkModules, Linker } from './linker.js';
export { identifiedStructTypes } from './type-finder.js';
export type { LinkOptions, LinkModulesOptions } from './linker.js';
export { verifyModule, formatProblems, moduleProblems } from './verifier.js';
export { llvmVerifierFailures, llvmVerifierFunctionFailures, functionAttributeRulesBroken, verifyWhileParsing, formatLLVMVerifierFailures } from './llvm-verifier.js';
export type { LLVMVerifierFailure, ParseVerifier } from './llvm-verifier.js';
export type { VerifierProblem, VerifyOptions } from './verifier.js';
