export { ObjectFormatError, DeviceLinkError } from './errors.js';
export {
  ELF_MAGIC,
  ElfType,
  SectionType,
  SectionFlag,
  SymbolBinding,
  SymbolType,
  SHN_UNDEF,
  SHN_ABS,
  SHN_COMMON,
  EM_X86_64,
  ElfFile,
  isElf,
  elfIdentity,
  machineArch,
  machineOfTriple,
  type ElfIdentity,
  type ElfSection,
  type ElfSegment,
  type ElfSymbol,
  type ElfRelocation,
} from './elf.js';
export { addElfSections, type NewSection } from './elf-write.js';
export {
  OFFLOAD_BUNDLER_MAGIC,
  TARGET_SYMBOLS_SECTION,
  OFFLOAD_KINDS,
  parseBundleId,
  formatBundleId,
  isBundleSection,
  readFatObject,
  writeFatObject,
  unbundle,
  isBinaryBundle,
  readBinaryBundle,
  writeBinaryBundle,
  type BundleId,
  type OffloadBundle,
  type FatObject,
  type WriteFatObjectOptions,
} from './bundle.js';
export { ARCHIVE_MAGIC, isArchive, readArchive, writeArchive, type ArchiveMember } from './archive.js';
export {
  DESCRIPTOR_SIZE,
  IMAGE_STRUCT_SIZE,
  ENTRY_SIZE,
  PROPERTY_SET_SIZE,
  PROPERTY_SIZE,
  readProgramDescriptors,
  readDescriptorsOf,
  mergeDescriptors,
  type ProgramDescriptor,
  type ReadDescriptorsOptions,
} from './program-descriptor.js';
export { KERNEL_INFO_PREFIXES, kernelOfHostSymbol, kernelInfoSymbol, kernelsReferencedBy } from './host-kernels.js';
export { selectArchiveMembers, type LinkInput, type MemberChoice } from './member-selection.js';
