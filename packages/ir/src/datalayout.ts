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
