/**
 * The value kinds LLVM's reader expects in the fields of specialized debug-info nodes (its
 * `MDUnsignedField`, `DwarfTagField`, `DIFlagField`, ... per field) and the messages it gives for
 * a value of the wrong kind. Names are checked against the DWARF and LLVM enumerations (the
 * DWARF lists include names newer than LLVM 16, so newer IR stays readable).
 */
import type { DIFieldValue } from '../model/metadata.js';

type FieldKind =
  | 'unsigned'
  | 'signed'
  | 'string'
  | 'bool'
  | 'md'
  | 'signed-or-md'
  | 'tag'
  | 'encoding'
  | 'language'
  | 'cc'
  | 'virtuality'
  | 'macinfo'
  | 'flags'
  | 'spflags'
  | 'checksum'
  | 'emission'
  | 'nametable';

/** `prefix` + each space-separated word of `words`: LLVM's named DWARF constants. */
function prefixedNames(prefix: string, words: string): Set<string> {
  return new Set(words.split(' ').map((word) => prefix + word));
}

const TAGS = prefixedNames(
  'DW_TAG_',
  'null array_type class_type entry_point enumeration_type formal_parameter imported_declaration label lexical_block member ' +
  'pointer_type reference_type compile_unit string_type structure_type subroutine_type typedef union_type unspecified_parameters ' +
  'variant common_block common_inclusion inheritance inlined_subroutine module ptr_to_member_type set_type subrange_type with_stmt ' +
  'access_declaration base_type catch_block const_type constant enumerator file_type friend namelist namelist_item packed_type ' +
  'subprogram template_type_parameter template_value_parameter thrown_type try_block variant_part variable volatile_type ' +
  'dwarf_procedure restrict_type interface_type namespace imported_module unspecified_type partial_unit imported_unit condition ' +
  'shared_type type_unit rvalue_reference_type template_alias coarray_type generic_subrange dynamic_type atomic_type call_site ' +
  'call_site_parameter skeleton_unit immutable_type MIPS_loop format_label function_template class_template GNU_BINCL GNU_EINCL ' +
  'GNU_template_template_param GNU_template_parameter_pack GNU_formal_parameter_pack GNU_call_site GNU_call_site_parameter ' +
  'APPLE_property APPLE_ptrauth_type SUN_function_template SUN_class_template SUN_struct_template SUN_union_template ' +
  'SUN_indirect_inheritance SUN_codeflags SUN_memop_info SUN_omp_child_func SUN_rtti_descriptor SUN_dtor_info SUN_dtor ' +
  'SUN_f90_interface SUN_fortran_vax_structure SUN_hi ALTIUM_circ_type ALTIUM_mwa_circ_type ALTIUM_rev_carry_type ALTIUM_rom ' +
  'GHS_namespace GHS_using_namespace GHS_using_declaration GHS_template_templ_param UPC_shared_type UPC_strict_type UPC_relaxed ' +
  'PGI_kanji_type PGI_interface_block BORLAND_property BORLAND_Delphi_string BORLAND_Delphi_dynamic_array BORLAND_Delphi_set ' +
  'BORLAND_Delphi_variant'
);
const ENCODINGS = prefixedNames(
  'DW_ATE_',
  'address boolean complex_float float signed signed_char unsigned unsigned_char imaginary_float packed_decimal numeric_string ' +
  'edited signed_fixed unsigned_fixed decimal_float UTF UCS ASCII HP_complex_float HP_float128 HP_complex_float128 ' +
  'HP_floathpintel HP_imaginary_float90 HP_imaginary_float128'
);
const LANGUAGES = prefixedNames(
  'DW_LANG_',
  'C89 C Ada83 C_plus_plus Cobol74 Cobol85 Fortran77 Fortran90 Pascal83 Modula2 Java C99 Ada95 Fortran95 PLI ObjC ObjC_plus_plus ' +
  'UPC D Python OpenCL Go Modula3 Haskell C_plus_plus_03 C_plus_plus_11 OCaml Rust C11 Swift Julia Dylan C_plus_plus_14 Fortran03 ' +
  'Fortran08 RenderScript BLISS Kotlin Zig Crystal C_plus_plus_17 C_plus_plus_20 C17 Fortran18 Ada2005 Ada2012 HIP Assembly ' +
  'C_sharp Mojo GLSL GLSL_ES HLSL OpenCL_CPP CPP_for_OpenCL SYCL Ruby Move Hylo Metal Mips_Assembler GOOGLE_RenderScript BORLAND_Delphi'
);
const CALLING_CONVENTIONS = prefixedNames(
  'DW_CC_',
  'normal program nocall pass_by_reference pass_by_value GNU_renesas_sh GNU_borland_fastcall_i386 BORLAND_safecall ' +
  'BORLAND_stdcall BORLAND_pascal BORLAND_msfastcall BORLAND_msreturn BORLAND_thiscall BORLAND_fastcall LLVM_vectorcall ' +
  'LLVM_Win64 LLVM_X86_64SysV LLVM_AAPCS LLVM_AAPCS_VFP LLVM_IntelOclBicc LLVM_SpirFunction LLVM_OpenCLKernel LLVM_Swift ' +
  'LLVM_PreserveMost LLVM_PreserveAll LLVM_X86RegCall LLVM_M68kRTD LLVM_PreserveNone LLVM_RISCVVectorCall LLVM_SwiftTail GDB_IBM_OpenCL'
);
const VIRTUALITIES = new Set(['DW_VIRTUALITY_none', 'DW_VIRTUALITY_virtual', 'DW_VIRTUALITY_pure_virtual']);
const MACINFO_TYPES = new Set(['DW_MACINFO_define', 'DW_MACINFO_undef', 'DW_MACINFO_start_file', 'DW_MACINFO_end_file', 'DW_MACINFO_vendor_ext']);
/** The flags LLVM 16 reads by name (`DIFlagZero` and `DISPFlagZero` are not among them). */
const DI_FLAGS = prefixedNames(
  'DIFlag',
  'Private Protected Public FwdDecl AppleBlock ReservedBit4 Virtual Artificial Explicit Prototyped ObjcClassComplete ObjectPointer ' +
  'Vector StaticMember LValueReference RValueReference ExportSymbols SingleInheritance MultipleInheritance VirtualInheritance ' +
  'IntroducedVirtual BitField NoReturn TypePassByValue TypePassByReference EnumClass Thunk NonTrivial BigEndian LittleEndian ' +
  'AllCallsDescribed IndirectVirtualBase'
);
const SP_FLAGS = prefixedNames(
  'DISPFlag',
  'Virtual PureVirtual LocalToUnit Definition Optimized Pure Elemental Recursive MainSubprogram Deleted ObjCDirect',
);
const CHECKSUM_KINDS = new Set(['CSK_MD5', 'CSK_SHA1', 'CSK_SHA256']);
const EMISSION_KINDS = new Set(['NoDebug', 'FullDebug', 'LineTablesOnly', 'DebugDirectivesOnly']);
const NAME_TABLE_KINDS = new Set(['Default', 'GNU', 'None', 'Apple']);

/** A DWARF enumeration field: the lexer's prefix, the names, and LLVM's two messages. */
const ENUMS: Partial<Record<FieldKind, { prefix: string; names: ReadonlySet<string>; what: string }>> = {
  tag: { prefix: 'DW_TAG_', names: TAGS, what: 'DWARF tag' },
  encoding: { prefix: 'DW_ATE_', names: ENCODINGS, what: 'DWARF type attribute encoding' },
  language: { prefix: 'DW_LANG_', names: LANGUAGES, what: 'DWARF language' },
  cc: { prefix: 'DW_CC_', names: CALLING_CONVENTIONS, what: 'DWARF calling convention' },
  virtuality: { prefix: 'DW_VIRTUALITY_', names: VIRTUALITIES, what: 'DWARF virtuality code' },
  macinfo: { prefix: 'DW_MACINFO_', names: MACINFO_TYPES, what: 'DWARF macinfo type' },
};

const u = 'unsigned';
const s = 'string';
const md = 'md';
const b = 'bool';
/** LLVM 16's field kinds, per class (fields it does not list are not checked). */
const FIELDS: Readonly<Record<string, Readonly<Record<string, FieldKind>>>> = {
  DILocation: { line: u, column: u, scope: md, inlinedAt: md, isImplicitCode: b },
  DISubrange: { count: 'signed-or-md', lowerBound: 'signed-or-md', upperBound: 'signed-or-md', stride: 'signed-or-md' },
  DIEnumerator: { name: s, value: 'signed', isUnsigned: b },
  DIBasicType: { tag: 'tag', name: s, size: u, align: u, encoding: 'encoding', flags: 'flags' },
  DIStringType: { tag: 'tag', name: s, stringLength: md, stringLengthExpression: md, stringLocationExpression: md, size: u, align: u, encoding: 'encoding' },
  DIDerivedType: {
    tag: 'tag', name: s, scope: md, file: md, line: u, baseType: md, size: u, align: u, offset: u, flags: 'flags', extraData: md,
    dwarfAddressSpace: u, annotations: md,
  },
  DICompositeType: {
    tag: 'tag', name: s, scope: md, file: md, line: u, baseType: md, size: u, align: u, offset: u, flags: 'flags', elements: md,
    runtimeLang: 'language', vtableHolder: md, templateParams: md, identifier: s, discriminator: md, dataLocation: md, associated: md,
    allocated: md, rank: 'signed-or-md', annotations: md,
  },
  DISubroutineType: { flags: 'flags', cc: 'cc', types: md },
  DIFile: { filename: s, directory: s, checksumkind: 'checksum', checksum: s, source: s },
  DICompileUnit: {
    language: 'language', file: md, producer: s, isOptimized: b, flags: s, runtimeVersion: u, splitDebugFilename: s,
    emissionKind: 'emission', enums: md, retainedTypes: md, globals: md, imports: md, macros: md, dwoId: u, splitDebugInlining: b,
    debugInfoForProfiling: b, nameTableKind: 'nametable', rangesBaseAddress: b, sysroot: s, sdk: s,
  },
  DISubprogram: {
    scope: md, name: s, linkageName: s, file: md, line: u, type: md, isLocal: b, isDefinition: b, scopeLine: u, containingType: md,
    virtuality: 'virtuality', virtualIndex: u, thisAdjustment: 'signed', flags: 'flags', spFlags: 'spflags', isOptimized: b, unit: md,
    templateParams: md, declaration: md, retainedNodes: md, thrownTypes: md, annotations: md, targetFuncName: s,
  },
  DILexicalBlock: { scope: md, file: md, line: u, column: u },
  DILexicalBlockFile: { scope: md, file: md, discriminator: u },
  DINamespace: { scope: md, name: s, exportSymbols: b },
  DICommonBlock: { scope: md, declaration: md, name: s, file: md, line: u },
  DIMacro: { type: 'macinfo', line: u, name: s, value: s },
  DIMacroFile: { type: 'macinfo', line: u, file: md, nodes: md },
  DIModule: { scope: md, name: s, configMacros: s, includePath: s, apinotes: s, file: md, line: u, isDecl: b },
  DITemplateTypeParameter: { name: s, type: md, defaulted: b },
  DITemplateValueParameter: { tag: 'tag', name: s, type: md, defaulted: b, value: md },
  DIGlobalVariable: {
    name: s, scope: md, linkageName: s, file: md, line: u, type: md, isLocal: b, isDefinition: b, templateParams: md, declaration: md,
    align: u, annotations: md,
  },
  DILocalVariable: { scope: md, name: s, arg: u, file: md, line: u, type: md, flags: 'flags', align: u, annotations: md },
  DILabel: { scope: md, name: s, file: md, line: u },
  DIGlobalVariableExpression: { var: md, expr: md },
  DIObjCProperty: { name: s, file: md, line: u, setter: s, getter: s, attributes: u, type: md },
  DIImportedEntity: { tag: 'tag', scope: md, entity: md, file: md, line: u, name: s, elements: md },
  GenericDINode: { tag: 'tag', header: s },
};

const isInt = (v: DIFieldValue): v is { k: 'int'; v: bigint } => v.k === 'int';

/**
 * What LLVM 16 says when field `field` of `!className(...)` holds a token no value starts with,
 * or undefined for a field it does not know (or a checksum, whose message quotes the token).
 */
export function diFieldExpected(className: string, field: string): string | undefined {
  const kind = FIELDS[className]?.[field];
  switch (kind) {
    case undefined:
    case 'checksum':
      return undefined;
    case 'unsigned':
      return 'expected unsigned integer';
    case 'signed':
      return className === 'DIEnumerator' ? 'expected integer' : 'expected signed integer';
    case 'string':
      return 'expected string constant';
    case 'bool':
      return "expected 'true' or 'false'";
    case 'md':
    case 'signed-or-md':
      return 'expected metadata operand';
    case 'flags':
    case 'spflags':
      return 'expected debug info flag';
    case 'emission':
      return 'expected emission kind';
    case 'nametable':
      return 'expected nameTable kind';
    default:
      return `expected ${ENUMS[kind]!.what}`;
  }
}

/**
 * What LLVM 16 says about `value` in field `field` of `!className(...)`, or undefined when it is
 * a value of the field's kind.
 */
export function diFieldProblem(className: string, field: string, value: DIFieldValue): string | undefined {
  const kind = FIELDS[className]?.[field];
  if (kind === undefined) return undefined;
  const name = value.k === 'enum' ? value.v : undefined;
  switch (kind) {
    case 'unsigned':
      return isInt(value) && value.v >= 0n ? undefined : 'expected unsigned integer';
    case 'signed':
      return isInt(value) ? undefined : className === 'DIEnumerator' ? 'expected integer' : 'expected signed integer';
    case 'string':
      return value.k === 'str' ? undefined : 'expected string constant';
    case 'bool':
      return value.k === 'bool' ? undefined : "expected 'true' or 'false'";
    case 'md':
      return value.k === 'md' ? undefined : 'expected metadata operand';
    case 'signed-or-md':
      return value.k === 'md' || isInt(value) ? undefined : 'expected metadata operand';
    case 'flags':
    case 'spflags': {
      const parts = value.k === 'flags' ? value.v : value.k === 'enum' ? [value.v] : isInt(value) ? [value.v] : undefined;
      const prefix = kind === 'flags' ? 'DIFlag' : 'DISPFlag';
      if (parts === undefined || parts.some((p) => typeof p === 'string' && !p.startsWith(prefix))) return 'expected debug info flag';
      const known = kind === 'flags' ? DI_FLAGS : SP_FLAGS;
      const unknown = parts.find((p): p is string => typeof p === 'string' && !known.has(p));
      if (unknown !== undefined) return `invalid ${kind === 'flags' ? '' : 'subprogram '}debug info flag '${unknown}'`;
      return undefined;
    }
    case 'checksum':
      return name !== undefined && CHECKSUM_KINDS.has(name) ? undefined : `invalid checksum kind '${name ?? ''}'`;
    case 'emission':
      return name !== undefined && EMISSION_KINDS.has(name) ? undefined : 'expected emission kind';
    case 'nametable':
      return name !== undefined && NAME_TABLE_KINDS.has(name) ? undefined : 'expected nameTable kind';
    default: {
      const e = ENUMS[kind]!;
      if (isInt(value) && value.v >= 0n) return undefined;
      if (name === undefined || !name.startsWith(e.prefix)) return `expected ${e.what}`;
      return e.names.has(name) ? undefined : `invalid ${e.what} '${name}'`;
    }
  }
}
