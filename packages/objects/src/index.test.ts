import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@syclkit/objects public surface', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'ARCHIVE_MAGIC', 'DESCRIPTOR_SIZE', 'DeviceLinkError', 'ELF_MAGIC', 'EM_X86_64', 'ENTRY_SIZE', 'ElfFile', 'ElfType', 'IMAGE_STRUCT_SIZE',
        'KERNEL_INFO_PREFIXES', 'OFFLOAD_BUNDLER_MAGIC', 'OFFLOAD_KINDS', 'ObjectFormatError', 'PROPERTY_SET_SIZE', 'PROPERTY_SIZE', 'SHN_ABS',
        'SHN_COMMON', 'SHN_UNDEF', 'SectionFlag', 'SectionType', 'SymbolBinding', 'SymbolType', 'TARGET_SYMBOLS_SECTION', 'addElfSections',
        'elfIdentity', 'formatBundleId', 'isArchive', 'isBinaryBundle', 'isBundleSection', 'isElf', 'kernelInfoSymbol', 'kernelOfHostSymbol',
        'kernelsReferencedBy', 'machineArch', 'machineOfTriple', 'mergeDescriptors', 'parseBundleId', 'readArchive', 'readBinaryBundle',
        'readDescriptorsOf', 'readFatObject', 'readProgramDescriptors', 'selectArchiveMembers', 'unbundle', 'writeArchive', 'writeBinaryBundle',
        'writeFatObject',
      ].sort(),
    );
  });
});
