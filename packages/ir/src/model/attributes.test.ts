import { describe, expect, it } from 'vitest';
import { AttributeSet, enumAttr, formatMemoryEffects, intAttr, packMemoryEffects, stringAttr } from './attributes.js';

describe('attribute sets', () => {
  it('order enum attributes by LLVM 16 kind, type attributes before integer ones, strings last', () => {
    const set = AttributeSet.of([stringAttr('b', '1'), intAttr('align', 8), enumAttr('noundef'), stringAttr('a'), enumAttr('nocapture'), { kind: 'type', key: 'byval', type: undefined }]);
    expect(set.attributes.map((a) => a.key)).toEqual(['nocapture', 'noundef', 'byval', 'align', 'a', 'b']);
  });

  it('keep one attribute per key, the last one added winning', () => {
    const set = AttributeSet.of([intAttr('align', 4), intAttr('align', 16)]);
    expect(set.attributes).toEqual([intAttr('align', 16)]);
  });

  it('compare string attributes by key then value', () => {
    const set = AttributeSet.of([stringAttr('x', 'b'), stringAttr('w', 'z')]);
    expect(set.attributes.map((a) => a.key)).toEqual(['w', 'x']);
  });
});

describe('memory effects', () => {
  it('print the default access first and only the locations that differ', () => {
    expect(formatMemoryEffects(packMemoryEffects({ argmem: 0, inaccessiblemem: 0, other: 0 }))).toBe('memory(none)');
    expect(formatMemoryEffects(packMemoryEffects({ argmem: 1, inaccessiblemem: 0, other: 0 }))).toBe('memory(argmem: read)');
    expect(formatMemoryEffects(packMemoryEffects({ argmem: 3, inaccessiblemem: 3, other: 1 }))).toBe('memory(read, argmem: readwrite, inaccessiblemem: readwrite)');
  });
});
