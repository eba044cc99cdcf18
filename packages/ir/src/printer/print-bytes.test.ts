import { describe, expect, it } from 'vitest';
import { parseModule } from '../reader/parser.js';
import { printModule, printModuleTo } from './printer.js';

/** Printed bytes, concatenated from the chunks `printModuleTo` hands over. */
function printedBytes(source: string, filename: string): Buffer {
  const chunks: Buffer[] = [];
  printModuleTo(parseModule(source, { filename }), (chunk) => chunks.push(Buffer.from(chunk)));
  return Buffer.concat(chunks);
}

describe('printed bytes', () => {
  it('are one byte per character, for short and long strings alike, bytes 0x80-0xff included', () => {
    // the module id is printed raw; names and strings are escaped: every write path of the printer
    const filename = 'caf\xe9-\xff-module-with-a-long-name.ll';
    const source = `@"glob\xe9al with a long name" = constant [3 x i8] c"\\E9\\FF\\00"\n` + `define void @"f\xe9"() {\n  ret void\n}\n!named = !{!0}\n!0 = !{!"long metadata string \xe9\xff"}\n`;
    const bytes = printedBytes(source, filename);
    const text = printModule(parseModule(source, { filename }));
    expect(bytes.equals(Buffer.from(text, 'latin1'))).toBe(true);
    expect(bytes.includes(Buffer.from(`; ModuleID = '${filename}'\n`, 'latin1'))).toBe(true);
    expect(text).toContain('@"glob\\E9al with a long name" = constant [3 x i8] c"\\E9\\FF\\00"');
    expect(text).toContain('define void @"f\\E9"()');
    expect(text).toContain('!0 = !{!"long metadata string \\E9\\FF"}');
  });
});
