export { SyclMetadata, SyclAttribute } from './names.js';
export { ModuleAspectTable, readAspectTable, readAspectValues, aspectOperandConstant, aspectOperandName, aspectTableOf } from './aspect-table.js';
export type { AspectTableOptions } from './aspect-table.js';
export {
  isKernel,
  isEntryPoint,
  entryPoints,
  isSyclExternal,
  isEsimdFunction,
  isSpirvSyclBuiltin,
  isEsimdBuiltin,
  isGenericBuiltin,
} from './entry-points.js';
export type { EntryPointOptions } from './entry-points.js';
export { attachment, debugNodeOf, fileOf, isDINode } from './attachments.js';
export type { HasAttachments } from './attachments.js';
export { kernelsNamed, kernelTypeName, typeinfoName } from './kernel-names.js';
