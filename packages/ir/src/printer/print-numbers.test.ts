import { describe, expect, it } from 'vitest';
import { parseModule } from '../reader/parser.js';
import { printModule } from './printer.js';

// The printer writes the digits of 32-bit integers itself (no string per number); these texts
// print as they read, so every digit count, both signs and the int32 limits are checked.
const HEADER = `; ModuleID = 'n.ll'\nsource_filename = "n.ll"\n\n`;
const INTEGERS = [0, 7, 10, 99, 1023, 1024, 9999, 10000, 65535, 99999, 100000, 123456789, 999999999, 1000000000, 2147483647, 2147483648, 4294967295];

describe('printed numbers', () => {
  it('writes integer constants, alignments and indices of every length and sign as they read', () => {
    const values = [...INTEGERS, ...INTEGERS.map((v) => -v).filter((v) => v !== 0), -2147483649, 9223372036854775807n, -9223372036854775808n];
    const body = values.map((v, i) => `  %a${i} = add i64 %x, ${v}\n`).join('');
    const source =
      `${HEADER}define i64 @f(i64 %x, { i32, [70000 x i8] } %s) {\n${body}` +
      `  %e = extractvalue { i32, [70000 x i8] } %s, 1, 69999\n` +
      `  %p = alloca i8, align 1024\n` +
      `  %q = alloca i8, align 4096\n` +
      `  store i32 -2147483648, ptr %p, align 65536\n` +
      `  ret i64 %x\n}\n`;
    expect(printModule(parseModule(source, { filename: 'n.ll' }))).toBe(source);
  });

  it('numbers locals, metadata and attribute groups past 1024', () => {
    const n = 1100;
    const locals = Array.from({ length: n }, (_, i) => `  %${i + 1} = add i32 %0, ${i}, !m !${i}\n`).join('');
    // a named entry block: the locals are %1 ... %1100
    const calls = Array.from({ length: n }, (_, i) => `  call void @g() #${i}\n`).join('');
    const groups = Array.from({ length: n }, (_, i) => `attributes #${i} = { "k"="${i}" }\n`).join('');
    const nodes = Array.from({ length: n }, (_, i) => `!${i} = !{i32 ${i}}\n`).join('');
    const source = `${HEADER}define i32 @f(i32 %0) {\nentry:\n${locals}${calls}  ret i32 %${n}\n}\n\ndeclare void @g()\n\n${groups}\n${nodes}`;
    const printed = printModule(parseModule(source, { filename: 'n.ll' }));
    expect(printed).toContain(`  %1100 = add i32 %0, 1099, !m !1099\n`);
    expect(printed).toContain(`  call void @g() #1099\n`);
    expect(printed).toContain(`attributes #1099 = { "k"="1099" }\n`);
    expect(printed).toContain(`!1099 = !{i32 1099}\n`);
    expect(printed).toBe(source);
  });
});
