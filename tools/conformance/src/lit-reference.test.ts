/**
 * Differential test against LLVM's own lit (its Python sources ship with Debian's llvm-N
 * packages): for every corpus test and fixture, our RUN-line extraction and substitution must
 * give exactly lit's commands, feature lists and UNRESOLVED verdicts. Skipped (and shown as
 * skipped) where lit's sources or python3 are not installed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultCorpus, defaultRepoRoot } from './main.js';
import { parseTestScript } from './script.js';
import { applySubstitutions, defaultSubstitutions } from './substitute.js';

const LIT_DIRS = [19, 18, 17, 16, 15, 14].map((v) => `/usr/lib/llvm-${v}/build/utils/lit`);
const litDir = LIT_DIRS.find((d) => existsSync(join(d, 'lit', 'TestRunner.py')));
const hasPython = spawnSync('python3', ['--version']).status === 0;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const corpus = defaultCorpus(defaultRepoRoot());
const fixtures = fileURLToPath(new URL('../test/fixtures/mini-corpus/tests', import.meta.url));
const tmpDir = '/tmp/conformance-lit-reference/Output';

function ours(path: string): unknown {
  try {
    const script = parseTestScript(readFileSync(path, 'utf8'));
    const commands = applySubstitutions(script.directives, defaultSubstitutions({ sourcePath: path, tmpDir, tmpBase: join(tmpDir, basename(path)) }));
    return { commands: commands.map((c) => c.command), xfails: script.xfails, requires: script.requires, unsupported: script.unsupported };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

describe('agreement with LLVM lit', () => {
  it.skipIf(litDir === undefined || !hasPython)('extracts and substitutes every corpus and fixture test exactly as lit does', () => {
    const files = [...filesUnder(join(corpus, 'llvm')), ...filesUnder(fixtures)].sort();
    const script = fileURLToPath(new URL('../test/lit-reference.py', import.meta.url));
    const run = spawnSync('python3', [script, litDir!, tmpDir, ...files], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    expect(run.stderr).toBe('');
    const reference = JSON.parse(run.stdout) as Record<string, { error?: string }>;
    expect(Object.keys(reference)).toHaveLength(files.length);
    for (const file of files) {
      const expected = reference[file]!;
      // Error wording differs slightly; the verdict (unresolved or not) must not.
      if (expected.error !== undefined) expect(ours(file), file).toHaveProperty('error');
      else expect(ours(file), file).toEqual(expected);
    }
  });
});
