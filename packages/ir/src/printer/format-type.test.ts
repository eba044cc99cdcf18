import { describe, expect, it } from 'vitest';
import { parseModule } from '../reader/parser.js';
import { formatType } from './printer.js';

describe('formatType', () => {
  const m = parseModule(
    [
      '%S = type { double, [2 x <4 x half>] }',
      '%"struct.with space" = type { i8 }',
      '%0 = type { i16 }',
      '@g = global { i32, ptr addrspace(1) } zeroinitializer',
      '@h = global %S zeroinitializer',
      '@q = global %"struct.with space" zeroinitializer',
      '@n = global %0 zeroinitializer',
      '@p = global <{ i8, i32 }> zeroinitializer',
      '@e = global {} zeroinitializer',
      'declare i32 @printf(ptr, ...)',
      'declare void @img(target("spirv.Image", void, 1, 0))',
      '',
    ].join('\n'),
    { filename: 't.ll' },
  );
  const valueType = (name: string) => m.getGlobalVariable(name)!.valueType;

  it('prints types as LLVM writes them in IR', () => {
    expect(formatType(valueType('g'))).toBe('{ i32, ptr addrspace(1) }');
    expect(formatType(valueType('h'))).toBe('%S');
    expect(formatType(m.context.getStruct('S')!.elements![1]!)).toBe('[2 x <4 x half>]');
    expect(formatType(valueType('q'))).toBe('%"struct.with space"');
    expect(formatType(valueType('p'))).toBe('<{ i8, i32 }>');
    expect(formatType(valueType('e'))).toBe('{}');
    expect(formatType(m.getFunction('printf')!.functionType)).toBe('i32 (ptr, ...)');
    expect(formatType(m.getFunction('img')!.functionType.params[0]!)).toBe('target("spirv.Image", void, 1, 0)');
  });

  it('numbers unnamed structs only when given a numbering', () => {
    expect(formatType(valueType('n'))).toBe('%<unnamed struct>');
    expect(formatType(valueType('n'), () => 7)).toBe('%7');
  });
});
