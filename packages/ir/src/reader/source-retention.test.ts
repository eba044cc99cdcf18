import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dist = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

// Every kind of name the parser stores, each long enough (13+ characters) that a plain slice of
// the source would be a view into it rather than a copy.
const BODY = String.raw`source_filename = "a_long_source_file_name.cpp"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

$a_long_comdat_name_here = comdat any

%struct.a_long_struct_type_name = type { i32 }

@a_long_global_variable_name = global %struct.a_long_struct_type_name zeroinitializer, section "a_long_section_name", comdat($a_long_comdat_name_here)
@"a quoted long global name" = global i32 0

define void @a_long_function_name_here(i32 %a_long_argument_name) #0 {
a_long_entry_block_name:
  %a_long_instruction_name = add i32 %a_long_argument_name, 1
  br label %a-long-label-name-with-dash

a-long-label-name-with-dash:
  ret void
}

attributes #0 = { "a-long-string-attribute-key"="a-long-string-attribute-value" }

!a.long.named.metadata.name = !{!0}
!0 = !{!"a long metadata string here"}
`;

describe('parsed modules do not keep their source text alive', () => {
  it.skipIf(!existsSync(dist))('after parsing 16 MiB of text the module holds well under 16 MiB of heap', () => {
    const script = `
      const ir = await import(${JSON.stringify(dist)});
      const body = ${JSON.stringify(BODY)};
      const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
      await tick(); gc(); gc();
      const before = process.memoryUsage().heapUsed;
      // the text is built inside the function, so only the module can keep it alive
      const parse = () => ir.parseModule(('; ' + 'x'.repeat(78) + '\\n').repeat(100000) + body + ('; padding\\n').repeat(100000), { filename: 'big.ll' });
      const module = parse();
      await tick(); gc(); gc();
      const after = process.memoryUsage().heapUsed;
      const fn = module.functions[0];
      console.log(JSON.stringify({
        retainedMiB: (after - before) / 1048576,
        names: [fn.name, fn.args[0].name, fn.blocks[0].name, fn.blocks[1].name, fn.blocks[0].instructions[0].name, module.globals.map((g) => g.name)],
      }));
    `;
    const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' });
    const { retainedMiB, names } = JSON.parse(out) as { retainedMiB: number; names: unknown[] };
    expect(names).toEqual([
      'a_long_function_name_here',
      'a_long_argument_name',
      'a_long_entry_block_name',
      'a-long-label-name-with-dash',
      'a_long_instruction_name',
      ['a_long_global_variable_name', 'a quoted long global name'],
    ]);
    // the source is about 9 MiB; a module that kept it would hold at least that much
    expect(retainedMiB).toBeLessThan(3);
  });
});
