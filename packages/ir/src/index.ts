export { Context } from './model/context.js';
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
} from './model/types.js';
export type { Type, FloatKind, SimpleKind } from './model/types.js';
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
} from './model/values.js';
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
} from './model/values.js';
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
} from './model/instructions.js';
export type { Opcode, AtomicOrdering, OperandBundle, DebugRecord } from './model/instructions.js';
export {
  MDString,
  ValueAsMetadata,
  MDTuple,
  DINode,
  DIExpression,
  DIArgList,
  isMDNode,
  childNodes,
} from './model/metadata.js';
export type { Metadata, MDNode, DIFieldValue, Attachment, MetadataContext } from './model/metadata.js';
export {
  AttributeSet,
  AttributeList,
  enumAttr,
  intAttr,
  typeAttr,
  stringAttr,
  packMemoryEffects,
  unpackMemoryEffects,
} from './model/attributes.js';
export type { Attribute, MemoryLocation } from './model/attributes.js';
export { Module, getMetadata, setMetadata } from './model/module.js';
export { DataLayout, dataLayoutProblem } from './model/datalayout.js';
export { parseModule } from './reader/parser.js';
export { decodeIRText } from './reader/ir-text.js';
export type { ParseOptions, ParsedFunctionFacts, PointerSyntax } from './reader/parser.js';
export { printModule, printModuleTo, PrintCache, formatName, formatType, valueTexts } from './printer/printer.js';
export type { ValueInFunction, ValueTextsOptions } from './printer/printer.js';
export type { PrintOptions } from './printer/printer.js';
export { IrSyntaxError, IrError, irDiagnostics } from './errors.js';
export { KERNEL_CALLING_CONVENTIONS } from './model/callingconv.js';
export { lookupIntrinsic, intrinsicAttributes } from './model/upgrade.js';
export { fpValue } from './model/fp.js';
export { moduleKind, functionKind } from './unit-kinds.js';
export { computeUses, GlobalUses, ConstantGlobals } from './analysis/uses.js';
export { forEachReference, forEachReferenceOf, NOT_AN_OPERAND } from './analysis/references.js';
export type { ReferenceHolder, ReferenceVisitor } from './analysis/references.js';
export type { GlobalUser, UsesOptions } from './analysis/uses.js';
export { replaceAllUsesWith, deleteFunctions, eraseUnused, unusedGlobals } from './transforms/replace.js';
export type { ReplaceOptions, DeleteOptions, DeleteResult, EraseUnusedOptions } from './transforms/replace.js';
export { buildCallGraph, CallGraph, calledFunction, stronglyConnectedComponentsOf } from './analysis/callgraph.js';
export type { CallGraphOptions } from './analysis/callgraph.js';
export { ValueMapper, forEachOperand } from './transforms/mapper.js';
export type { MapperOptions, LocalMap } from './transforms/mapper.js';
export { cloneModule, cloneModuleWithMap, declarationOf } from './transforms/clone.js';
export type { CloneOptions, CloneResult } from './transforms/clone.js';
export { linkModules } from './linker/linker.js';
export type { LinkOptions, LinkModulesOptions, LinkFacts } from './linker/linker.js';
export { verifyModule } from './verifier/verifier.js';
export { llvmVerifierFailures, llvmVerifierFunctionFailures, verifyWhileParsing, formatLLVMVerifierFailures } from './verifier/llvm-verifier.js';
export type { LLVMVerifierFailure, ParseVerifier } from './verifier/llvm-verifier.js';
export type { VerifierProblem, VerifyOptions } from './verifier/verifier.js';
