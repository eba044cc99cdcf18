import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const llvm16 = {
  opt: '/usr/lib/llvm-16/bin/opt',
  as: '/usr/lib/llvm-16/bin/llvm-as',
};

/** Whether an LLVM tool exists here (tests that need it are skipped, naming the reason, otherwise). */
export function haveTool(path: string): boolean {
  return existsSync(path);
}

/** Runs an LLVM tool on IR text from stdin; returns its exit status and stderr. */
export function runTool(path: string, args: readonly string[], input: string): { status: number | null; stderr: string } {
  const r = spawnSync(path, args, { input, encoding: 'utf8', maxBuffer: 256 << 20 });
  return { status: r.status, stderr: r.stderr };
}

/** Names of the functions a module defines, declares and calls (textual scan). */
export function functionSymbols(text: string): { defined: Set<string>; declared: Set<string>; called: Set<string>; kernels: string[] } {
  const defined = new Set<string>();
  const declared = new Set<string>();
  const called = new Set<string>();
  const kernels: string[] = [];
  const symbol = String.raw`@("(?:[^"\\]|\\.)*"|[-a-zA-Z$._0-9]+)`;
  for (const line of text.split('\n')) {
    if (line.startsWith('define ')) {
      const name = new RegExp(`${symbol}\\(`).exec(line)![1]!;
      defined.add(name);
      if (line.includes(' spir_kernel ')) kernels.push(name);
    } else if (line.startsWith('declare ')) {
      declared.add(new RegExp(`${symbol}\\(`).exec(line)![1]!);
    } else if (/^\s+(%\S+ = )?(tail )?call /.test(line)) {
      const m = new RegExp(`call [^@]*${symbol}\\(`).exec(line);
      if (m) called.add(m[1]!);
    }
  }
  return { defined, declared, called, kernels };
}
