/**
 * The parts of LLVM's DataLayout the parser and passes need: type sizes and ABI / preferred
 * alignments (LLParser gives `alloca` the preferred alignment and `load`/`store` the ABI alignment
 * when none is written), and the alloca / program address spaces.
 */
import type { Type } from './types.js';

interface AlignEntry {
  bits: number;
  abi: number;
  pref: number;
}

interface PointerEntry {
  sizeBits: number;
  abi: number;
  pref: number;
}

export class DataLayout {
  bigEndian = false;
  allocaAddressSpace = 0;
  programAddressSpace = 0;
  globalsAddressSpace = 0;
  stackNaturalAlign = 0;
  /** Sorted by width. */
  private readonly ints: AlignEntry[] = [
    { bits: 1, abi: 1, pref: 1 },
    { bits: 8, abi: 1, pref: 1 },
    { bits: 16, abi: 2, pref: 2 },
    { bits: 32, abi: 4, pref: 4 },
    { bits: 64, abi: 4, pref: 8 },
  ];
  private readonly floats: AlignEntry[] = [
    { bits: 16, abi: 2, pref: 2 },
    { bits: 32, abi: 4, pref: 4 },
    { bits: 64, abi: 8, pref: 8 },
    { bits: 128, abi: 16, pref: 16 },
  ];
  private readonly vectors: AlignEntry[] = [
    { bits: 64, abi: 8, pref: 8 },
    { bits: 128, abi: 16, pref: 16 },
  ];
  private aggregate = { abi: 1, pref: 8 };
  private readonly pointers = new Map<number, PointerEntry>([[0, { sizeBits: 64, abi: 8, pref: 8 }]]);
  private readonly structCache = new Map<Type, { size: number; align: number; offsets: number[] }>();

  static parse(spec: string): DataLayout {
    const dl = new DataLayout();
    if (spec === '') return dl;
    for (const item of spec.split('-')) {
      if (item === '') continue;
      const kind = item[0]!;
      const rest = item.slice(1);
      const nums = (s: string): number[] => s.split(':').map((x) => (x === '' ? NaN : Number(x)));
      switch (kind) {
        case 'e':
          dl.bigEndian = false;
          break;
        case 'E':
          dl.bigEndian = true;
          break;
        case 'A':
          dl.allocaAddressSpace = Number(rest);
          break;
        case 'P':
          dl.programAddressSpace = Number(rest);
          break;
        case 'G':
          dl.globalsAddressSpace = Number(rest);
          break;
        case 'S':
          dl.stackNaturalAlign = Number(rest) / 8;
          break;
        case 'p': {
          // p[n]:size:abi[:pref[:idx]]
          const colon = rest.indexOf(':');
          const asText = colon < 0 ? rest : rest.slice(0, colon);
          const as = asText === '' ? 0 : Number(asText.replace(/^[^0-9]*/, ''));
          const [size, abi, pref] = nums(colon < 0 ? '' : rest.slice(colon + 1));
          const abiBytes = (abi ?? 64) / 8;
          dl.pointers.set(as, { sizeBits: size ?? 64, abi: abiBytes, pref: Number.isNaN(pref ?? NaN) ? abiBytes : pref! / 8 });
          break;
        }
        case 'i':
        case 'f':
        case 'v': {
          const [bits, abi, pref] = nums(rest);
          const abiBytes = (abi ?? 0) / 8;
          const entry = { bits: bits!, abi: abiBytes, pref: pref === undefined || Number.isNaN(pref) ? abiBytes : pref / 8 };
          const table = kind === 'i' ? dl.ints : kind === 'f' ? dl.floats : dl.vectors;
          const at = table.findIndex((e) => e.bits >= entry.bits);
          if (at >= 0 && table[at]!.bits === entry.bits) table[at] = entry;
          else if (at >= 0) table.splice(at, 0, entry);
          else table.push(entry);
          break;
        }
        case 'a': {
          const [, abi, pref] = nums(rest.startsWith(':') ? '0' + rest : rest);
          const abiBytes = (abi ?? 0) / 8 || 1;
          dl.aggregate = { abi: abiBytes, pref: pref === undefined || Number.isNaN(pref) ? abiBytes : pref / 8 };
          break;
        }
        default:
          // n (native ints), m (mangling), F (function pointer alignment), ni (non-integral): no effect here.
          break;
      }
    }
    return dl;
  }

  private pointer(as: number): PointerEntry {
    return this.pointers.get(as) ?? this.pointers.get(0)!;
  }

  pointerSizeBits(addressSpace = 0): number {
    return this.pointer(addressSpace).sizeBits;
  }

  /** Size in bits (`getTypeSizeInBits`). */
  sizeInBits(t: Type): number {
    switch (t.kind) {
      case 'integer':
        return t.bits;
      case 'float':
        return t.bits;
      case 'pointer':
        return this.pointer(t.addressSpace).sizeBits;
      case 'array':
        return t.length * this.allocSize(t.element) * 8;
      case 'vector':
        return t.length * this.sizeInBits(t.element);
      case 'struct':
        return this.structLayout(t).size * 8;
      case 'x86_mmx':
        return 64;
      case 'x86_amx':
        return 8192;
      default:
        return 0;
    }
  }

  /** Store size in bytes (`getTypeStoreSize`). */
  storeSize(t: Type): number {
    return Math.ceil(this.sizeInBits(t) / 8);
  }

  /** Allocation size in bytes, store size rounded up to the ABI alignment (`getTypeAllocSize`). */
  allocSize(t: Type): number {
    const store = this.storeSize(t);
    const align = this.abiAlign(t);
    return Math.ceil(store / align) * align;
  }

  abiAlign(t: Type): number {
    return this.alignment(t, true);
  }

  prefAlign(t: Type): number {
    return this.alignment(t, false);
  }

  private alignment(t: Type, abi: boolean): number {
    switch (t.kind) {
      case 'integer': {
        let entry = this.ints.find((e) => e.bits >= t.bits);
        entry ??= this.ints[this.ints.length - 1]!;
        return abi ? entry.abi : entry.pref;
      }
      case 'float': {
        const bits = t.bits;
        const entry = this.floats.find((e) => e.bits === bits);
        if (entry) return abi ? entry.abi : entry.pref;
        return powerOf2Ceil(this.storeSize(t));
      }
      case 'pointer': {
        const p = this.pointer(t.addressSpace);
        return abi ? p.abi : p.pref;
      }
      case 'array':
        return this.alignment(t.element, abi);
      case 'vector': {
        const bits = this.sizeInBits(t);
        const entry = this.vectors.find((e) => e.bits === bits);
        if (entry) return abi ? entry.abi : entry.pref;
        return Math.max(1, powerOf2Ceil(this.storeSize(t)));
      }
      case 'struct': {
        if (t.packed && abi) return 1;
        const layout = this.structLayout(t);
        return Math.max(abi ? this.aggregate.abi : this.aggregate.pref, layout.align);
      }
      case 'x86_mmx':
        return 8;
      case 'x86_amx':
        return 64;
      default:
        return 1;
    }
  }

  /** Field offsets, size and alignment of a struct (`StructLayout`). */
  structLayout(t: Type): { size: number; align: number; offsets: number[] } {
    let layout = this.structCache.get(t);
    if (layout !== undefined) return layout;
    if (t.kind !== 'struct') throw new TypeError('not a struct type');
    let offset = 0;
    let align = 1;
    const offsets: number[] = [];
    for (const e of t.elements ?? []) {
      const a = t.packed ? 1 : this.abiAlign(e);
      offset = Math.ceil(offset / a) * a;
      offsets.push(offset);
      offset += this.allocSize(e);
      align = Math.max(align, a);
    }
    offset = Math.ceil(offset / align) * align;
    layout = { size: offset, align, offsets };
    this.structCache.set(t, layout);
    return layout;
  }
}

function powerOf2Ceil(n: number): number {
  if (n <= 1) return 1;
  return 2 ** Math.ceil(Math.log2(n));
}

/**
 * Why LLVM 16 rejects a `target datalayout` string (`DataLayout::parse`'s message), or undefined
 * when it reads it. The rules: `-`-separated specifications, each `:`-separated, with no empty
 * part before a separator and no trailing separator; unsigned 32-bit decimal numbers; alignments
 * in bits that are byte multiples and powers of two; address spaces below 2^24.
 */
export function dataLayoutProblem(spec: string): string | undefined {
  try {
    checkDataLayout(spec);
    return undefined;
  } catch (error) {
    if (error instanceof DataLayoutProblem) return error.message;
    throw error;
  }
}

class DataLayoutProblem extends Error {}

function checkDataLayout(spec: string): void {
  const fail = (message: string): never => {
    throw new DataLayoutProblem(message);
  };
  /** LLVM's `split`: the part before `sep` and the rest, refusing `a-` and `-a`. */
  const split = (s: string, sep: string): [string, string] => {
    const at = s.indexOf(sep);
    const [first, rest] = at < 0 ? [s, ''] : [s.slice(0, at), s.slice(at + 1)];
    if (rest === '' && first !== s) fail('Trailing separator in datalayout string');
    if (rest !== '' && first === '') fail('Expected token before separator in datalayout string');
    return [first, rest];
  };
  const int = (s: string): number => {
    if (!/^[0-9]+$/.test(s) || Number(s) > 0xffffffff) fail('not a number, or does not fit in an unsigned int');
    return Number(s);
  };
  const bytes = (s: string): number => {
    const bits = int(s);
    if (bits % 8 !== 0) fail('number of bits must be a byte width multiple');
    return bits / 8;
  };
  const isPow2 = (n: number): boolean => n > 0 && (n & (n - 1)) === 0 && n <= 0x80000000;
  const addressSpace = (s: string): number => {
    const as = int(s);
    if (as >= 1 << 24) fail('Invalid address space, must be a 24-bit integer');
    return as;
  };

  let desc = spec;
  while (desc !== '') {
    const [item, more] = split(desc, '-');
    desc = more;
    let [tok, rest] = split(item, ':');
    /** Moves to the next `:` part of the specification. */
    const nextPart = (): string => {
      [tok, rest] = split(rest, ':');
      return tok;
    };
    if (tok === 'ni') {
      do {
        const as = int(nextPart());
        if (as === 0) fail('Address space 0 can never be non-integral');
      } while (rest !== '');
      continue;
    }
    const specifier = tok[0]!;
    tok = tok.slice(1);
    switch (specifier) {
      case 's':
      case 'E':
      case 'e':
        break;
      case 'p': {
        if ((tok === '' ? 0 : int(tok)) >= 1 << 24) fail('Invalid address space, must be a 24bit integer');
        if (rest === '') fail('Missing size specification for pointer in datalayout string');
        // pointer and index sizes are in bits and need not be byte multiples (LLVM 16)
        if (int(nextPart()) === 0) fail('Invalid pointer size of 0 bytes');
        if (rest === '') fail('Missing alignment specification for pointer in datalayout string');
        const abi = bytes(nextPart());
        if (!isPow2(abi)) fail('Pointer ABI alignment must be a power of 2');
        let pref = abi;
        if (rest !== '') {
          pref = bytes(nextPart());
          if (!isPow2(pref)) fail('Pointer preferred alignment must be a power of 2');
          if (rest !== '' && int(nextPart()) === 0) fail('Invalid index size of 0 bytes');
        }
        if (pref < abi) fail('Preferred alignment cannot be less than the ABI alignment');
        break;
      }
      case 'i':
      case 'v':
      case 'f':
      case 'a': {
        const size = tok === '' ? 0 : int(tok);
        if (specifier === 'a' && size !== 0) fail('Sized aggregate specification in datalayout string');
        if (rest === '') fail('Missing alignment specification in datalayout string');
        const abi = bytes(nextPart());
        if (specifier !== 'a' && abi === 0) fail('ABI alignment specification must be >0 for non-aggregate types');
        if (abi >= 1 << 16) fail('Invalid ABI alignment, must be a 16bit integer');
        if (abi !== 0 && !isPow2(abi)) fail('Invalid ABI alignment, must be a power of 2');
        const pref = rest !== '' ? bytes(nextPart()) : abi;
        if (pref >= 1 << 16) fail('Invalid preferred alignment, must be a 16bit integer');
        if (pref !== 0 && !isPow2(pref)) fail('Invalid preferred alignment, must be a power of 2');
        if (size >= 1 << 24) fail('Invalid bit width, must be a 24bit integer');
        // an alignment of 0 counts as 1 (`assumeAligned`)
        if (Math.max(pref, 1) < Math.max(abi, 1)) fail('Preferred alignment cannot be less than the ABI alignment');
        break;
      }
      case 'n':
        for (;;) {
          if (int(tok) === 0) fail('Zero width native integer type in datalayout string');
          if (rest === '') break;
          nextPart();
        }
        break;
      case 'S': {
        const align = bytes(tok);
        if (align !== 0 && !isPow2(align)) fail('Alignment is neither 0 nor a power of 2');
        break;
      }
      case 'F': {
        if (tok[0] !== 'i' && tok[0] !== 'n') fail('Unknown function pointer alignment type in datalayout string');
        const align = bytes(tok.slice(1));
        if (align !== 0 && !isPow2(align)) fail('Alignment is neither 0 nor a power of 2');
        break;
      }
      case 'P':
      case 'A':
      case 'G':
        addressSpace(tok);
        break;
      case 'm':
        if (tok !== '') fail('Unexpected trailing characters after mangling specifier in datalayout string');
        if (rest === '') fail('Expected mangling specifier in datalayout string');
        if (rest.length > 1) fail('Unknown mangling specifier in datalayout string');
        if (!'elomwxa'.includes(rest)) fail('Unknown mangling in datalayout string');
        break;
      default:
        fail('Unknown specifier in datalayout string');
    }
  }
}
