import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { findLlvmTool } from '../llvm-tools.js';
import { main } from '../main.js';
import { needsPasses } from './opt.js';
import { memoryIO, runSyclkit, scratchDir } from '../../test/testing.js';

const scratch = scratchDir('opt');
afterAll(scratch.remove);

/** Written the way a person might: unnamed values, extra spaces, no attribute comments. */
const INPUT = `target triple = "spir64-unknown-unknown"

define spir_func i32 @add(i32 %a,   i32 %b) #0 {
entry:
  %0 = add nsw i32 %a, %b
  ret i32 %0
}

attributes #0 = { nounwind }
`;

/** What LLVM 16 \`opt -S\` prints for INPUT (checked against it below when it is installed). */
const EXPECTED = `; ModuleID = '<stdin>'
source_filename = "<stdin>"
target triple = "spir64-unknown-unknown"

; Function Attrs: nounwind
define spir_func i32 @add(i32 %a, i32 %b) #0 {
entry:
  %0 = add nsw i32 %a, %b
  ret i32 %0
}

attributes #0 = { nounwind }
`;

const llvmOpt = existsSync('/usr/lib/llvm-16/bin/opt') ? '/usr/lib/llvm-16/bin/opt' : undefined;
const llvmAs = findLlvmTool('llvm-as');

describe('syclkit opt', () => {
  const BROKEN = 'define i32 @f(i1 %c) {\nentry:\n  br i1 %c, label %m, label %m\nm:\n  %p = phi i32 [ 0, %entry ]\n  ret i32 %p\n}\n';

  it("refuses input LLVM's verifier refuses, with its report, before any pass runs", async () => {
    const path = join(scratch.dir, 'broken.ll');
    writeFileSync(path, BROKEN);
    const out = join(scratch.dir, 'broken.out.ll');
    const { code, err } = await runSyclkit(['opt', '-S', '-passes=sycl-propagate-aspects-usage', path, '-o', out]);
    expect(code).toBe(1);
    expect(err).toBe(
      'PHINode should have one entry for each predecessor of its parent basic block!\n  %p = phi i32 [ 0, %entry ]\n' +
        `syclkit opt: ${path}: error: input module is broken!\n`,
    );
    expect(existsSync(out)).toBe(false);
  });

  it('reports the attribute failures of declarations in module order, between those of definitions', async () => {
    const ir =
      'define void @a() {\nentry:\n  br label %entry\n}\n\ndeclare void @b(i32 nonnull)\n\n' +
      'define void @c(ptr %p) {\n  call void @b(i32 zeroext 1)\n  call void @d(i32 noalias 2)\n  ret void\n}\n\ndeclare void @d(i32)\n';
    const { code, err } = await runSyclkit(['opt', '-S'], ir);
    expect(code).toBe(1);
    expect(err).toBe(
      'Entry block to function must not have predecessors!\nlabel %entry\n' +
        "Attribute 'nonnull' applied to incompatible type!\nptr @b\n" +
        "Attribute 'noalias' applied to incompatible type!\n  call void @d(i32 noalias 2)\n" +
        'syclkit opt: -: error: input module is broken!\n',
    );
  });

  it('reports function-attribute failures from groups defined after their users, in LLVM order within each function', async () => {
    const ir =
      'declare void @f()\n\ndefine void @g() #0 {\nentry:\n  call void @f() #1\n  br label %entry\n}\n\n' +
      'define void @h() {\nentry:\n  br label %entry\n}\n\nattributes #0 = { optnone }\nattributes #1 = { noinline alwaysinline }\n';
    const { code, err } = await runSyclkit(['opt', '-S'], ir);
    expect(code).toBe(1);
    expect(err).toBe(
      "Attribute 'optnone' requires 'noinline'!\nptr @g\nEntry block to function must not have predecessors!\nlabel %entry\n" +
        "Attributes 'noinline and alwaysinline' are incompatible!\n  call void @f() #1\n" +
        'Entry block to function must not have predecessors!\nlabel %entry\n' +
        'syclkit opt: -: error: input module is broken!\n',
    );
    if (llvmOpt !== undefined) {
      const r = spawnSync(llvmOpt, ['-S', '-o', '/dev/null', '-'], { input: ir, encoding: 'utf8' });
      expect(r.stderr).toBe(err.replace('syclkit opt: -:', `${llvmOpt}: -:`));
    }
  });

  it('reads such input with -disable-verify, as LLVM opt does', async () => {
    const { code, out, err } = await runSyclkit(['opt', '-S', '-disable-verify'], BROKEN);
    expect({ code, err }).toEqual({ code: 0, err: '' });
    expect(out).toContain('%p = phi i32 [ 0, %entry ]');
  });

  it('with -S and no passes prints the module as LLVM 16 opt -S does (stdin to stdout)', async () => {
    const { code, out, err } = await runSyclkit(['opt', '-S'], INPUT);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toBe(EXPECTED);
  });

  it.skipIf(llvmOpt === undefined)('agrees with LLVM 16 opt -S on that module', async () => {
    const { execFileSync } = await import('node:child_process');
    expect(execFileSync(llvmOpt!, ['-S', '-'], { input: INPUT }).toString('latin1')).toBe(EXPECTED);
  });

  it('writes -o atomically and names the module after its input file', async () => {
    const input = join(scratch.dir, 'add.ll');
    const output = join(scratch.dir, 'add.out.ll');
    writeFileSync(input, INPUT);
    const { code } = await runSyclkit(['opt', '-S', input, '-o', output]);
    expect(code).toBe(0);
    expect(readFileSync(output, 'latin1')).toBe(EXPECTED.replaceAll('<stdin>', input));
  });

  it('runs a pipeline given with -passes', async () => {
    const dead = `${INPUT}\ndefine internal void @unused() {\n  ret void\n}\n`;
    const { code, out } = await runSyclkit(['opt', '-S', '-passes=globaldce'], dead);
    expect(code).toBe(0);
    expect(out).not.toContain('@unused');
    expect(out).toContain('define spir_func i32 @add');
  });

  it('prints the canonical pipeline text with -print-pipeline-passes', async () => {
    const { code, out } = await runSyclkit(['opt', '-passes=globaldce ,  globaldce', '-print-pipeline-passes']);
    expect(code).toBe(0);
    expect(out).toBe('globaldce,globaldce\n');
  });

  it('reports a syntax error as file:line:col with the line and a caret, exits 1, and leaves -o alone', async () => {
    const input = join(scratch.dir, 'bad.ll');
    const output = join(scratch.dir, 'kept.ll');
    writeFileSync(input, 'define i32 @f() {\n  ret i32 %nope\n}\n');
    writeFileSync(output, 'previous contents');
    const { code, err } = await runSyclkit(['opt', '-S', input, '-o', output]);
    expect(code).toBe(1);
    expect(err).toBe(`${input}:2:11: error: use of undefined value '%nope'\n  ret i32 %nope\n          ^\n`);
    expect(readFileSync(output, 'utf8')).toBe('previous contents');
  });

  it('rejects an unknown pass with a suggestion, pointing into the pipeline text', async () => {
    const { code, err } = await runSyclkit(['opt', '-S', '-passes=globaldec'], INPUT);
    expect(code).not.toBe(0);
    expect(err).toContain("-passes:1:1: error: unknown pass 'globaldec'; did you mean 'globaldce'?");
  });

  it('refuses to write bitcode to a terminal', async () => {
    const io = { ...memoryIO(INPUT), stdoutIsTTY: true };
    const code = await main(['opt'], io);
    expect(code).not.toBe(0);
    expect(io.err()).toContain('refusing to write bitcode to a terminal');
    expect(io.out()).toBe('');
  });

  it('writes nothing with -disable-output', async () => {
    const { code, out } = await runSyclkit(['opt', '-S', '-disable-output'], INPUT);
    expect(code).toBe(0);
    expect(out).toBe('');
  });

  it('takes at most one input', async () => {
    const { code, err } = await runSyclkit(['opt', '-S', 'a.ll', 'b.ll']);
    expect(code).toBe(2);
    expect(err).toContain('expected one input file, got 2');
  });

  it.skipIf(llvmAs === undefined)('writes bitcode through llvm-as without -S, and reads it back', async () => {
    const bitcode = join(scratch.dir, 'add.bc');
    expect((await runSyclkit(['opt', '-o', bitcode], INPUT)).code).toBe(0);
    const bytes = readFileSync(bitcode);
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('BC\xc0\xde');
    const { code, out } = await runSyclkit(['opt', '-S', bitcode]);
    expect(code).toBe(0);
    expect(out).toContain('define spir_func i32 @add(i32 %a, i32 %b) #0 {');
  });
});

describe('opt loads the pass packages only when the command line needs them', () => {
  it('needs them for a pipeline, pass options, -W/-R codes, help and anything unknown', () => {
    expect(needsPasses(['-S', 'in.ll', '-o', 'out.ll'])).toBe(false);
    expect(needsPasses(['-S', '-', '-o=out.ll', '-disable-verify', '-time-passes', '--verify-each', '-print-after-all', '-f', '-disable-output'])).toBe(false);
    // the value of -o is not an option, even when it starts with '-'
    expect(needsPasses(['-S', '-o', '-passes-out.ll'])).toBe(false);
    for (const arg of ['-passes=', '-passes=globaldce', '-Werror', '-Rsycl-x', '-help', '-h', '-print-passes', '-print-pipeline-passes', '-sycl-propagate-aspects-usage-fp64-conv-emu', '-frob', '--']) {
      expect(needsPasses(['-S', arg, 'in.ll'])).toBe(true);
    }
  });

  const bin = fileURLToPath(new URL('../../bin/syclkit.js', import.meta.url));
  // the built CLI in its own process, with a resolve hook that names every module node loads: its
  // modules, not the bundle (SYCLKIT_NO_BUNDLE), whose one file holds them all
  it.skipIf(!existsSync(fileURLToPath(new URL('../../dist/main.js', import.meta.url))))('does not load them for a parse/print round trip', () => {
    const hooks = join(scratch.dir, 'hooks.mjs');
    // to a file: writes to a full stderr pipe from the hooks thread can fail with EAGAIN
    writeFileSync(hooks, `import { appendFileSync } from 'node:fs';\nexport async function resolve(s, c, next) { const r = await next(s, c); appendFileSync(process.env.RESOLVE_LOG, 'resolved ' + r.url + '\\n'); return r; }\n`);
    const register = join(scratch.dir, 'register.mjs');
    writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    const input = join(scratch.dir, 'lazy.ll');
    writeFileSync(input, INPUT);
    let runs = 0;
    const resolved = (...args: string[]): string[] => {
      const log = join(scratch.dir, `resolved-${runs++}.log`);
      writeFileSync(log, '');
      const r = spawnSync(process.execPath, ['--import', register, bin, 'opt', '-S', input, '-o', join(scratch.dir, 'lazy.out.ll'), ...args], { encoding: 'utf8', env: { ...process.env, SYCLKIT_NO_BUNDLE: '1', RESOLVE_LOG: log } });
      expect(r.status).toBe(0);
      return readFileSync(log, 'utf8').split('\n').filter((l) => l.startsWith('resolved '));
    };
    const passPackages = /[\\/](aspect-propagation|device-if)[\\/]|[\\/]globaldce\.js$/;
    const roundTrip = resolved();
    expect(roundTrip.some((l) => /[\\/]ir[\\/]dist[\\/]index\.js$/.test(l))).toBe(true);
    expect(roundTrip.filter((l) => passPackages.test(l))).toEqual([]);
    expect(resolved('-passes=sycl-propagate-aspects-usage').filter((l) => passPackages.test(l)).length).toBeGreaterThan(0);
  });
});
