/**
 * Golden fixtures: `fixtures/<case>/input.ll` starts with `; RUN: <pipeline>`; the pass's output
 * must equal `output.ll` and its diagnostics `diagnostics.json`. `UPDATE=1` rewrites both.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { functionKind, moduleKind, parseModule, printModule, type Module } from '@syclkit/ir';
import { createRegistry, diagnosticToJSON } from '@syclkit/pass-manager';
import { syclPropagateAspectsUsage } from '../src/pass.js';

const root = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');
const registry = createRegistry({ unitKinds: [moduleKind, functionKind], passes: [syclPropagateAspectsUsage] });
const update = process.env['UPDATE'] === '1';

describe('golden fixtures', () => {
  for (const name of readdirSync(root).sort()) {
    it(`${name}: output and diagnostics match`, () => {
      const dir = join(root, name);
      const input = readFileSync(join(dir, 'input.ll'), 'latin1');
      const pipeline = /^; RUN: (.*)$/m.exec(input)?.[1];
      expect(pipeline, 'input.ll needs a "; RUN: <pipeline>" line').toBeDefined();
      const module = parseModule(input, { filename: 'input.ll' });
      const result = registry.build<Module>(registry.parse(pipeline!)).run(module, { file: 'input.ll' });
      const output = printModule(module);
      const diagnostics = JSON.stringify(result.diagnostics.map(diagnosticToJSON), null, 2) + '\n';
      if (update) {
        writeFileSync(join(dir, 'output.ll'), output, 'latin1');
        writeFileSync(join(dir, 'diagnostics.json'), diagnostics);
      }
      expect(existsSync(join(dir, 'output.ll')), 'run with UPDATE=1 to create output.ll').toBe(true);
      expect(output).toBe(readFileSync(join(dir, 'output.ll'), 'latin1'));
      expect(diagnostics).toBe(readFileSync(join(dir, 'diagnostics.json'), 'utf8'));
    });
  }
});
