/**
 * The documentation tells the truth:
 * - docs/cli.md is what `syclkit --help` and `syclkit <command> --help` print now;
 * - the examples under docs/examples run and print what their `.out` files say;
 * - every `<!-- example: f -->` / `<!-- output: f -->` block of the README is that file, verbatim;
 * - every `<!-- verified transcript -->` block of the README is what the built CLI prints, run in a
 *   directory holding the demo's sample (`(excerpt)`: the shown lines appear in that order), with
 *   SPIR-V images as `compile` makes them by default, or, where llvm-spirv is not installed, with
 *   SYCLKIT_DEVICE_OBJ=llvmir (the transcripts are the same either way).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { llvmSpirvAvailable } from '@syclkit/offload-wrapper';
import { renderCliDocs } from '../src/driver/cli-docs.js';

const ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const BIN = join(ROOT, 'packages/cli/bin/syclkit.js');
const built = existsSync(join(ROOT, 'packages/cli/dist/main.js'));
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The fenced block right after each `<!-- kind: arg -->` marker. */
function markedBlocks(text: string, kind: string): { arg: string; body: string }[] {
  const out: { arg: string; body: string }[] = [];
  const re = new RegExp(`<!-- ${kind}(?::? ?([^>]*?))? -->\\n\`\`\`[a-z]*\\n([\\s\\S]*?)\`\`\`\\n`, 'g');
  for (const m of text.matchAll(re)) out.push({ arg: (m[1] ?? '').trim(), body: m[2]! });
  return out;
}

/** Shell words: spaces split, single quotes group. */
function words(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2]!);
  return out;
}

describe('docs/cli.md', () => {
  it('is what the CLI prints for --help (npm run docs:cli regenerates it)', async () => {
    const expected = await renderCliDocs();
    const actual = readFileSync(join(ROOT, 'docs/cli.md'), 'utf8');
    expect(actual === expected, 'docs/cli.md is stale: run `npm run docs:cli`').toBe(true);
  });
});

describe('README examples', () => {
  it('embeds each example and output file verbatim', () => {
    const blocks = [...markedBlocks(readme, 'example'), ...markedBlocks(readme, 'output')];
    expect(blocks.length).toBe(5);
    for (const { arg, body } of blocks) expect(body, arg).toBe(readFileSync(join(ROOT, arg), 'utf8'));
  });

  it.runIf(built)('runs each example and prints its .out file', () => {
    for (const name of ['assemble-pipeline', 'use-own-pass']) {
      const out = execFileSync(process.execPath, [join(ROOT, `docs/examples/${name}.mjs`)], { encoding: 'utf8' });
      expect(out, name).toBe(readFileSync(join(ROOT, `docs/examples/${name}.out`), 'utf8'));
    }
  });
});

const spirv = llvmSpirvAvailable();
/** The transcripts' environment: compile's default (SPIR-V) needs llvm-spirv; without it, IR images. */
const transcriptEnv = spirv ? process.env : { ...process.env, SYCLKIT_DEVICE_OBJ: 'llvmir' };

describe.runIf(built)(`README transcripts (${spirv ? 'SPIR-V images' : 'LLVM IR images: llvm-spirv is not installed'})`, () => {
  let dir = '';
  beforeAll(() => {
    mkdirSync(join(ROOT, 'tmp'), { recursive: true }); // git-ignored; inside the repository so --load-pass modules resolve @syclkit/*
    dir = mkdtempSync(join(ROOT, 'tmp', 'docs-test-'));
    execFileSync(process.execPath, [BIN, 'demo', '--write-sample', '.'], { cwd: dir, env: transcriptEnv });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('are what the CLI prints, in order', () => {
    const blocks = markedBlocks(readme, 'verified transcript');
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    // In README order: later commands read the app.fatbin earlier ones write.
    for (const { arg, body } of blocks) {
      const [first, ...shown] = body.replace(/\n$/, '').split('\n');
      expect(first!.startsWith('$ syclkit ')).toBe(true);
      const argv = words(first!.slice('$ syclkit '.length)).map((w) => (w.startsWith('docs/') ? join(ROOT, w) : w));
      const r = spawnSync(process.execPath, [BIN, ...argv], { cwd: dir, encoding: 'utf8', env: transcriptEnv });
      const actual = `${r.stdout}${r.stderr}`.replace(/\n$/, '').split('\n');
      if (arg === '(excerpt)') {
        let at = 0;
        for (const line of shown) {
          if (line === '…') continue;
          const found = actual.indexOf(line, at);
          expect(found, `${first}: line not found in order: ${line}`).toBeGreaterThanOrEqual(0);
          at = found + 1;
        }
      } else {
        expect(actual.join('\n'), first).toBe(shown.join('\n'));
      }
    }
  });
});

describe('root scripts', () => {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

  it('run files that exist (npm start runs the demo through the committed bin)', () => {
    expect(scripts['start']).toBe('npm run build && node packages/cli/bin/syclkit.js demo');
    for (const name of ['start', 'docs:cli', 'check:packages', 'release:dry']) {
      const file = /node (\S+\.m?js)/.exec(scripts[name]!)?.[1];
      expect(file, name).toBeDefined();
      expect(existsSync(join(ROOT, file!)), `${name}: ${file}`).toBe(true);
    }
  });

  it('keep the README quick start commands', () => {
    expect(readme).toContain('npm ci && npm start   # builds, then runs the demo\nnpm ci && npm test    # builds, then runs every package\'s tests\n');
  });
});
