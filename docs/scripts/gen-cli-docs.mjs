#!/usr/bin/env node
// Regenerates docs/cli.md from the built CLI's --help output (run `npm run build` first, or use
// `npm run docs:cli`, which builds). With --check, exits 1 instead of writing when the file is stale.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderCliDocs } from '../../packages/cli/dist/driver/cli-docs.js';

const target = fileURLToPath(new URL('../cli.md', import.meta.url));
const text = await renderCliDocs();
let current = '';
try {
  current = readFileSync(target, 'utf8');
} catch {
  // first run
}
if (process.argv.includes('--check')) {
  if (current !== text) {
    process.stderr.write('docs/cli.md is stale: run `npm run docs:cli`\n');
    process.exitCode = 1;
  }
} else if (current !== text) {
  writeFileSync(`${target}.tmp`, text);
  renameSync(`${target}.tmp`, target);
  process.stdout.write('wrote docs/cli.md\n');
} else {
  process.stdout.write('docs/cli.md is up to date\n');
}
