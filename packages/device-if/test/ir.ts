/**
 * IR helpers for the pass tests: parse, print, and pick one function's printed text.
 */
import { parseModule, printModule, type Module } from '@syclkit/ir';

export function parse(text: string): Module {
  return parseModule(text, { filename: 'test.ll' });
}

export function print(module: Module): string {
  return printModule(module);
}

/** The printed lines of one function (its `define` or `declare` line through its closing brace). */
export function functionText(module: Module, name: string): string {
  const lines = printModule(module).split('\n');
  const start = lines.findIndex((line) => /^(define|declare) /.test(line) && line.includes(`@${name}(`));
  if (start < 0) throw new Error(`no function @${name} in the printed module`);
  if (lines[start]!.startsWith('declare')) return lines[start]!;
  const end = lines.indexOf('}', start);
  return lines.slice(start, end + 1).join('\n');
}

/** Names of the module's functions, in order. */
export function functionNames(module: Module): string[] {
  return module.functions.map((fn) => fn.name);
}

/** The conditional-caller attribute group and the lambda type most inputs share. */
export const PRELUDE = `%class.anon = type { ptr addrspace(4) }
`;

export const CALLER_ATTRIBUTES = `attributes #0 = { convergent "sycl-call-if-on-device-conditionally"="true" }
attributes #1 = { convergent nounwind }
`;

/**
 * A conditional caller definition as the headers emit it (`call_if_on_device_conditionally`), with
 * `conditionLength` i32 parameters, whose body calls `action`.
 */
export function callerDefinition(name: string, action: string, conditionLength: number): string {
  const params = Array.from({ length: conditionLength }, (_, i) => `, i32 noundef %${i}`).join('');
  return `define internal spir_func void @${name}(ptr noundef byval(%class.anon) align 8 %fn${params}) #0 {
entry:
  %fn.ascast = addrspacecast ptr %fn to ptr addrspace(4)
  call spir_func void @${action}(ptr addrspace(4) noundef align 8 dereferenceable_or_null(8) %fn.ascast) #1
  ret void
}
`;
}

/** A call to a caller definition with a condition, as the header's helper makes it. */
export function callToDefinition(caller: string, callable: string, condition: readonly number[], suffix = ''): string {
  const args = condition.map((value) => `, i32 noundef ${value}`).join('');
  return `  call spir_func void @${caller}(ptr noundef byval(%class.anon) align 8 %${callable}${args}) #1${suffix}`;
}

/** An action: a lambda's operator(), optionally with `!sycl_used_aspects` and a body. */
export function actionDefinition(name: string, body = '', metadata = ''): string {
  return `define internal spir_func void @${name}(ptr addrspace(4) noundef align 8 %this)${metadata === '' ? '' : ` ${metadata}`} {
entry:
${body}  ret void
}
`;
}
