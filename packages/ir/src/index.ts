export { Context } from './context.js';
export {
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
} from './instructions.js';
export type { Opcode, AtomicOrdering, OperandBundle, DebugRecord } from './instructions.js';
export {
  MDString,
  ValueAsMetadata,
  MDTuple,
  DINode,
  DIExpression,
  DIArgList,
  isMDNode,
  childNodes,
} from './metadata.js';
export type { Metadata, MDNode, DIFieldValue, Attachment, MetadataContext } from './metadata.js';
export {
  AttributeSet,
  AttributeList,
  enumAttr,
  intAttr,
  typeAttr,
  stringAttr,
  packMemoryEffects,
  unpackMemoryEffects,
} from './attributes.js';
export type { Attribute, MemoryLocation } from './attributes.js';
export { Module, getMetadata, setMetadata } from './module.js';
export { DataLayout, dataLayoutProblem } from './datalayout.js';
export { parseModule } from './reader/parser.js';
export { decodeIRText } from './reader/ir-text.js';
export type { ParseOptions, ParsedFunctionFacts, PointerSyntax } from './reader/parser.js';
export { printModule, printModuleTo, PrintCache, formatName, formatType } from './printer.js';
export type { PrintOptions } from './printer.js';
export { IrSyntaxError, IrError, irDiagnostics } from './errors.js';
export { KERNEL_CALLING_CONVENTIONS } from './callingconv.js';
export { lookupIntrinsic, intrinsicAttributes } from './upgrade.js';
export { fpValue } from './fp.js';
export { moduleKind, functionKind } from './unit-kinds.js';
export { computeUses, GlobalUses, ConstantGlobals } from './uses.js';
export { forEachReference, forEachReferenceOf, NOT_AN_OPERAND } from './references.js';
export type { ReferenceHolder, ReferenceVisitor } from './references.js';
export type { GlobalUser, UsesOptions } from './uses.js';
export { replaceAllUsesWith, deleteFunctions, eraseUnused } from './replace.js';
export type { ReplaceOptions, DeleteOptions, DeleteResult, EraseUnusedOptions } from './replace.js';
export { buildCallGraph, CallGraph, calledFunction, stronglyConnectedComponentsOf } from './callgraph.js';
export type { CallGraphOptions } from './callgraph.js';
export { ValueMapper, forEachOperand } from './mapper.js';
export type { MapperOptions, LocalMap } from './mapper.js';
export { cloneModule, cloneModuleWithMap, declarationOf } from './clone.js';
export type { CloneOptions, CloneResult } from './clone.js';
export { linkModules } from './linker.js';
export type { LinkOptions, LinkModulesOptions } from './linker.js';
export { verifyModule } from './verifier.js';
export { llvmVerifierFailures, llvmVerifierFunctionFailures, verifyWhileParsing, formatLLVMVerifierFailures } from './llvm-verifier.js';
export type { LLVMVerifierFailure, ParseVerifier } from './llvm-verifier.js';
export type { VerifierProblem, VerifyOptions } from './verifier.js';
