/**
 * Printing of specialized debug-info nodes (`!DILocation(...)`, ...) in LLVM's per-class field
 * order, skipping fields at their defaults the way AsmWriter's MDFieldPrinter does. Fields a class
 * table does not know are printed after the known ones, as written, so nothing is lost.
 */
import { escapeString } from './printer.js';
import type { DIFieldValue, DINode, Metadata } from '../model/metadata.js';

/**
 * How a field prints:
 * - `int` skip when 0 / `int!` always; `md` skip when null / `md!` always; `str` skip when empty /
 *   `str!` always; `bool` skip when false / `bool=true` skip when true / `bool!` always;
 *   `enum` skip when absent or 0; `enum!` always; `flags` skip when 0; `spflags` always;
 *   `present` print when written (metadata only when not null).
 */
type Rule = 'present' | 'int' | 'int!' | 'md' | 'md!' | 'str' | 'str!' | 'bool' | 'bool=true' | 'bool!' | 'enum' | 'enum!' | 'flags' | 'spflags';

const CLASSES: Record<string, readonly (readonly [string, Rule])[]> = {
  DILocation: [['line', 'int!'], ['column', 'int'], ['scope', 'md!'], ['inlinedAt', 'md'], ['isImplicitCode', 'bool']],
  DISubrange: [['count', 'present'], ['lowerBound', 'present'], ['upperBound', 'present'], ['stride', 'present']],
  DIGenericSubrange: [['count', 'present'], ['lowerBound', 'present'], ['upperBound', 'present'], ['stride', 'present']],
  DIEnumerator: [['name', 'str!'], ['value', 'int!'], ['isUnsigned', 'bool']],
  DIBasicType: [['tag', 'enum'], ['name', 'str'], ['size', 'int'], ['align', 'int'], ['encoding', 'enum'], ['flags', 'flags']],
  DIStringType: [['tag', 'enum'], ['name', 'str'], ['stringLength', 'md'], ['stringLengthExpression', 'md'], ['stringLocationExpression', 'md'], ['size', 'int'], ['align', 'int'], ['encoding', 'enum']],
  DIDerivedType: [
    ['tag', 'enum!'], ['name', 'str'], ['scope', 'md'], ['file', 'md'], ['line', 'int'], ['baseType', 'md!'], ['size', 'int'],
    ['align', 'int'], ['offset', 'int'], ['flags', 'flags'], ['extraData', 'md'], ['dwarfAddressSpace', 'present'], ['annotations', 'md'],
    ['ptrAuthKey', 'int'], ['ptrAuthIsAddressDiscriminated', 'bool'], ['ptrAuthExtraDiscriminator', 'int'], ['ptrAuthIsaPointer', 'bool'],
    ['ptrAuthAuthenticatesNullValues', 'bool'],
  ],
  DICompositeType: [
    ['tag', 'enum!'], ['name', 'str'], ['scope', 'md'], ['file', 'md'], ['line', 'int'], ['baseType', 'md'], ['size', 'int'], ['align', 'int'],
    ['offset', 'int'], ['flags', 'flags'], ['elements', 'md'], ['runtimeLang', 'enum'], ['vtableHolder', 'md'], ['templateParams', 'md'],
    ['identifier', 'str'], ['discriminator', 'md'], ['dataLocation', 'md'], ['associated', 'md'], ['allocated', 'md'], ['rank', 'present'],
    ['annotations', 'md'],
  ],
  DISubroutineType: [['flags', 'flags'], ['cc', 'enum'], ['types', 'md!']],
  DIFile: [['filename', 'str!'], ['directory', 'str!'], ['checksumkind', 'enum'], ['checksum', 'str!'], ['source', 'str']],
  DICompileUnit: [
    ['language', 'enum!'], ['file', 'md!'], ['producer', 'str'], ['isOptimized', 'bool!'], ['flags', 'str'], ['runtimeVersion', 'int!'],
    ['splitDebugFilename', 'str'], ['emissionKind', 'enum!'], ['enums', 'md'], ['retainedTypes', 'md'], ['globals', 'md'], ['imports', 'md'],
    ['macros', 'md'], ['dwoId', 'int'], ['splitDebugInlining', 'bool=true'], ['debugInfoForProfiling', 'bool'], ['nameTableKind', 'enum'],
    ['rangesBaseAddress', 'bool'], ['sysroot', 'str'], ['sdk', 'str'],
  ],
  DISubprogram: [
    ['name', 'str'], ['linkageName', 'str'], ['scope', 'md!'], ['file', 'md'], ['line', 'int'], ['type', 'md'], ['scopeLine', 'int'],
    ['containingType', 'md'], ['virtualIndex', 'int'], ['thisAdjustment', 'int'], ['flags', 'flags'], ['spFlags', 'spflags'], ['unit', 'md'],
    ['templateParams', 'md'], ['declaration', 'md'], ['retainedNodes', 'md'], ['thrownTypes', 'md'], ['annotations', 'md'],
    ['targetFuncName', 'str'],
  ],
  DILexicalBlock: [['scope', 'md!'], ['file', 'md'], ['line', 'int'], ['column', 'int']],
  DILexicalBlockFile: [['scope', 'md!'], ['file', 'md'], ['discriminator', 'int!']],
  DINamespace: [['name', 'str'], ['scope', 'md!'], ['exportSymbols', 'bool']],
  DICommonBlock: [['scope', 'md!'], ['declaration', 'md!'], ['name', 'str'], ['file', 'md'], ['line', 'int']],
  DIMacro: [['type', 'enum!'], ['line', 'int'], ['name', 'str'], ['value', 'str']],
  DIMacroFile: [['line', 'int'], ['file', 'md!'], ['nodes', 'md']],
  DIModule: [['scope', 'md!'], ['name', 'str'], ['configMacros', 'str'], ['includePath', 'str'], ['apinotes', 'str'], ['file', 'md'], ['line', 'int'], ['isDecl', 'bool']],
  DITemplateTypeParameter: [['name', 'str'], ['type', 'md!'], ['defaulted', 'bool']],
  DITemplateValueParameter: [['tag', 'enum'], ['name', 'str'], ['type', 'md'], ['defaulted', 'bool'], ['value', 'md!']],
  DIGlobalVariable: [
    ['name', 'str'], ['linkageName', 'str'], ['scope', 'md!'], ['file', 'md'], ['line', 'int'], ['type', 'md'], ['isLocal', 'bool!'],
    ['isDefinition', 'bool!'], ['declaration', 'md'], ['templateParams', 'md'], ['align', 'int'], ['annotations', 'md'],
  ],
  DILocalVariable: [
    ['name', 'str'], ['arg', 'int'], ['scope', 'md!'], ['file', 'md'], ['line', 'int'], ['type', 'md'], ['flags', 'flags'], ['align', 'int'],
    ['annotations', 'md'],
  ],
  DILabel: [['scope', 'md!'], ['name', 'str'], ['file', 'md'], ['line', 'int']],
  DIGlobalVariableExpression: [['var', 'md'], ['expr', 'md']],
  DIObjCProperty: [['name', 'str'], ['file', 'md'], ['line', 'int'], ['setter', 'str'], ['getter', 'str'], ['attributes', 'int'], ['type', 'md']],
  DIImportedEntity: [['tag', 'enum!'], ['name', 'str'], ['scope', 'md!'], ['entity', 'md'], ['file', 'md'], ['line', 'int'], ['elements', 'md']],
  GenericDINode: [['tag', 'enum!'], ['header', 'str'], ['operands', 'md']],
  DIAssignID: [],
};

/** Tags that are the default of their class and so are not printed. */
const DEFAULT_TAGS: Record<string, string> = {
  DIBasicType: 'DW_TAG_base_type',
  DIStringType: 'DW_TAG_string_type',
  DITemplateValueParameter: 'DW_TAG_template_value_parameter',
};

/** DIFlag values in `DebugInfoFlags.def` order (LLVM 16). */
const DI_FLAGS: readonly (readonly [string, number])[] = [
  ['DIFlagPrivate', 1], ['DIFlagProtected', 2], ['DIFlagPublic', 3], ['DIFlagFwdDecl', 1 << 2], ['DIFlagAppleBlock', 1 << 3],
  ['DIFlagReservedBit4', 1 << 4], ['DIFlagVirtual', 1 << 5], ['DIFlagArtificial', 1 << 6], ['DIFlagExplicit', 1 << 7],
  ['DIFlagPrototyped', 1 << 8], ['DIFlagObjcClassComplete', 1 << 9], ['DIFlagObjectPointer', 1 << 10], ['DIFlagVector', 1 << 11],
  ['DIFlagStaticMember', 1 << 12], ['DIFlagLValueReference', 1 << 13], ['DIFlagRValueReference', 1 << 14],
  ['DIFlagExportSymbols', 1 << 15], ['DIFlagSingleInheritance', 1 << 16], ['DIFlagMultipleInheritance', 2 << 16],
  ['DIFlagVirtualInheritance', 3 << 16], ['DIFlagIntroducedVirtual', 1 << 18], ['DIFlagBitField', 1 << 19],
  ['DIFlagNoReturn', 1 << 20], ['DIFlagTypePassByValue', 1 << 22], ['DIFlagTypePassByReference', 1 << 23],
  ['DIFlagEnumClass', 1 << 24], ['DIFlagThunk', 1 << 25], ['DIFlagNonTrivial', 1 << 26], ['DIFlagBigEndian', 1 << 27],
  ['DIFlagLittleEndian', 1 << 28], ['DIFlagAllCallsDescribed', 1 << 29], ['DIFlagIndirectVirtualBase', (1 << 2) | (1 << 5)],
];
const DISP_FLAGS: readonly (readonly [string, number])[] = [
  ['DISPFlagVirtual', 1], ['DISPFlagPureVirtual', 2], ['DISPFlagLocalToUnit', 1 << 2], ['DISPFlagDefinition', 1 << 3],
  ['DISPFlagOptimized', 1 << 4], ['DISPFlagPure', 1 << 5], ['DISPFlagElemental', 1 << 6], ['DISPFlagRecursive', 1 << 7],
  ['DISPFlagMainSubprogram', 1 << 8], ['DISPFlagDeleted', 1 << 9], ['DISPFlagObjCDirect', 1 << 11],
];

function flagValue(parts: readonly (string | bigint)[], table: readonly (readonly [string, number])[]): number | undefined {
  let v = 0;
  for (const p of parts) {
    if (typeof p === 'bigint') v |= Number(p);
    else if (p === 'DIFlagZero' || p === 'DISPFlagZero') continue;
    else {
      const e = table.find(([n]) => n === p);
      if (e === undefined) return undefined;
      v |= e[1];
    }
  }
  return v >>> 0;
}

/** `DINode::splitFlags` / `DISubprogram::splitFlags` rendering. */
function formatFlags(value: number, table: readonly (readonly [string, number])[], sp: boolean): string {
  const out: string[] = [];
  let rest = value;
  const take = (name: string, bits: number): void => {
    out.push(name);
    rest &= ~bits;
  };
  if (sp) {
    const v = rest & 3;
    if (v === 1) take('DISPFlagVirtual', 1);
    else if (v === 2) take('DISPFlagPureVirtual', 2);
    else if (v === 3) take('DISPFlagPureVirtual', 3);
  } else {
    const access = rest & 3;
    if (access === 1) take('DIFlagPrivate', 3);
    else if (access === 2) take('DIFlagProtected', 3);
    else if (access === 3) take('DIFlagPublic', 3);
    const rep = rest & (3 << 16);
    if (rep === 1 << 16) take('DIFlagSingleInheritance', 3 << 16);
    else if (rep === 2 << 16) take('DIFlagMultipleInheritance', 3 << 16);
    else if (rep === 3 << 16) take('DIFlagVirtualInheritance', 3 << 16);
    const ivb = (1 << 2) | (1 << 5);
    if ((rest & ivb) === ivb) take('DIFlagIndirectVirtualBase', ivb);
  }
  for (const [name, bits] of table) {
    if (sp && bits <= 2) continue;
    if (!sp && (bits <= 3 || (bits & (3 << 16)) === bits || name === 'DIFlagIndirectVirtualBase')) continue;
    if (rest & bits) take(name, bits);
  }
  if (rest !== 0 || out.length === 0) out.push(String(rest >>> 0));
  return out.join(' | ');
}

function fieldText(f: DIFieldValue, md: (m: Metadata | null) => string, enumText?: (name: string) => string): string {
  switch (f.k) {
    case 'md':
      return md(f.v);
    case 'int':
      return String(f.v);
    case 'bool':
      return f.v ? 'true' : 'false';
    case 'str':
      return `"${escapeString(f.v)}"`;
    case 'enum':
      return enumText === undefined ? f.v : enumText(f.v);
    case 'flags':
      return f.v.map(String).join(' | ');
  }
}

function isZero(f: DIFieldValue | undefined): boolean {
  if (f === undefined) return true;
  switch (f.k) {
    case 'int':
      return f.v === 0n;
    case 'md':
      return f.v === null;
    case 'str':
      return f.v === '';
    case 'bool':
      return !f.v;
    case 'enum':
      return f.v === '0';
    case 'flags':
      return f.v.every((p) => p === 0n || p === 'DIFlagZero' || p === 'DISPFlagZero');
  }
}

/** Legacy DISubprogram fields folded into `spFlags` by LLParser. */
function subprogramSPFlags(n: DINode): number | undefined {
  const sp = n.fields.get('spFlags');
  if (sp !== undefined) return sp.k === 'flags' ? flagValue(sp.v, DISP_FLAGS) : sp.k === 'enum' ? flagValue([sp.v], DISP_FLAGS) : sp.k === 'int' ? Number(sp.v) : undefined;
  let v = 0;
  const b = (name: string): boolean => n.fields.get(name)?.k === 'bool' && (n.fields.get(name) as { v: boolean }).v;
  if (b('isLocal')) v |= 1 << 2;
  // LLParser's legacy fields: isDefinition defaults to true when spFlags is not written
  const isDefinition = n.fields.get('isDefinition');
  if (isDefinition === undefined || (isDefinition.k === 'bool' && isDefinition.v)) v |= 1 << 3;
  if (b('isOptimized')) v |= 1 << 4;
  const virt = n.fields.get('virtuality');
  if (virt?.k === 'enum') v |= virt.v === 'DW_VIRTUALITY_virtual' ? 1 : virt.v === 'DW_VIRTUALITY_pure_virtual' ? 2 : 0;
  return v;
}

const LEGACY_SP_FIELDS = new Set(['isLocal', 'isDefinition', 'isOptimized', 'virtuality']);

/**
 * Prints a specialized node body (without `distinct`). `enumText` respells enumerators such as
 * `DW_LANG_C_plus_plus_17` (for an older reader); they print as written without it.
 */
export function printDINode(n: DINode, md: (m: Metadata | null) => string, enumText?: (name: string) => string): string {
  const spec = CLASSES[n.className];
  if (spec === undefined) {
    const parts = [...n.fields].map(([k, f]) => `${k}: ${fieldText(f, md, enumText)}`);
    return `!${n.className}(${parts.join(', ')})`;
  }
  const known = new Set(spec.map(([k]) => k));
  const parts: string[] = [];
  for (const [name, rule] of spec) {
    const f = n.fields.get(name);
    if (name === 'tag' && f?.k === 'enum' && DEFAULT_TAGS[n.className] === f.v) continue;
    if (n.className === 'DISubprogram' && name === 'virtualIndex') {
      const spf = subprogramSPFlags(n) ?? 0;
      if ((spf & 3) !== 0 || !isZero(f)) parts.push(`virtualIndex: ${f ? fieldText(f, md) : '0'}`);
      continue;
    }
    if (n.className === 'DICompileUnit' && name === 'nameTableKind' && f?.k === 'enum' && f.v === 'Default') continue;
    if (n.className === 'DIFile' && (name === 'checksumkind' || name === 'checksum') && n.fields.get('checksumkind') === undefined) continue;
    switch (rule) {
      case 'int':
      case 'md':
      case 'str':
      case 'bool':
      case 'enum':
        if (isZero(f)) continue;
        break;
      case 'present':
        if (f === undefined || (f.k === 'md' && f.v === null)) continue;
        break;
      case 'bool=true':
        if (f === undefined || (f.k === 'bool' && f.v)) continue;
        break;
      case 'flags': {
        if (f === undefined) continue;
        const v = f.k === 'flags' ? flagValue(f.v, DI_FLAGS) : f.k === 'enum' ? flagValue([f.v], DI_FLAGS) : f.k === 'int' ? Number(f.v) : undefined;
        if (v === 0) continue;
        parts.push(`${name}: ${v === undefined ? fieldText(f, md) : formatFlags(v, DI_FLAGS, false)}`);
        continue;
      }
      case 'spflags': {
        const v = subprogramSPFlags(n);
        parts.push(`spFlags: ${v === undefined ? fieldText(f!, md) : v === 0 ? '0' : formatFlags(v, DISP_FLAGS, true)}`);
        continue;
      }
      default:
        break;
    }
    if (f === undefined) {
      // always-printed field that was not written: print its default
      const def = rule.startsWith('int') ? '0' : rule.startsWith('md') ? 'null' : rule.startsWith('str') ? '""' : rule.startsWith('bool') ? 'false' : undefined;
      if (def === undefined) continue;
      parts.push(`${name}: ${def}`);
      continue;
    }
    parts.push(`${name}: ${fieldText(f, md, enumText)}`);
  }
  for (const [name, f] of n.fields) {
    if (known.has(name)) continue;
    if (n.className === 'DISubprogram' && LEGACY_SP_FIELDS.has(name)) continue;
    parts.push(`${name}: ${fieldText(f, md, enumText)}`);
  }
  return `!${n.className}(${parts.join(', ')})`;
}

/** Fields newer LLVM versions add that we accept and print after the known ones. */
const NEWER_FIELDS: Record<string, readonly string[]> = {
  DILocation: ['atomGroup', 'atomRank'],
  DIBasicType: ['num_extra_inhabitants'],
  DICompositeType: ['specification', 'num_extra_inhabitants', 'enumKind', 'bitStride'],
  DISubprogram: ['keyInstructions', 'isLocal', 'isDefinition', 'isOptimized', 'virtuality'],
  DIDerivedType: [],
};

/** Fields LLParser insists on, per class. */
const REQUIRED_FIELDS: Record<string, readonly string[]> = {
  DILocation: ['scope'],
  DIFile: ['filename', 'directory'],
  DIEnumerator: ['name', 'value'],
  DIDerivedType: ['tag', 'baseType'],
  DICompositeType: ['tag'],
  DISubroutineType: ['types'],
  DICompileUnit: ['language', 'file'],
  DILexicalBlock: ['scope'],
  DILexicalBlockFile: ['scope', 'discriminator'],
  DINamespace: ['scope'],
  DIModule: ['scope', 'name'],
  DITemplateTypeParameter: ['type'],
  DITemplateValueParameter: ['value'],
  DIGlobalVariable: ['name'],
  DILocalVariable: ['scope'],
  DILabel: ['scope', 'name', 'file', 'line'],
  DIGlobalVariableExpression: ['var', 'expr'],
  DIImportedEntity: ['tag', 'scope'],
  DIMacro: ['type', 'name'],
  DIMacroFile: ['file'],
  DICommonBlock: ['scope'],
  GenericDINode: ['tag'],
};

/** Whether `!className(...)` is a specialized node kind this library knows. */
export function isKnownDIClass(className: string): boolean {
  return CLASSES[className] !== undefined;
}

/** Checks a specialized node's fields: unknown fields and missing required ones, as LLParser. */
export function checkDIFields(className: string, fields: ReadonlyMap<string, unknown>): string | undefined {
  const spec = CLASSES[className];
  if (spec === undefined) return `unknown specialized metadata node '!${className}'`;
  const known = new Set([...spec.map(([k]) => k), ...(NEWER_FIELDS[className] ?? [])]);
  for (const name of fields.keys()) if (!known.has(name)) return `invalid field '${name}'`;
  for (const name of REQUIRED_FIELDS[className] ?? []) if (!fields.has(name)) return `missing required field '${name}'`;
  return undefined;
}
