/**
 * Vitest global setup of the cli project: remakes the CLI bundle when a `tsc -b` since the last
 * bundle made it stale (`npx tsc -b packages/cli && npx vitest run --project cli`), so the tests
 * that run bin/syclkit.js run the code just built through the bundle, as users do. (bin would
 * fall back to dist/main.js on its own; test/bin.test.ts wants the bundle.)
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  if (!existsSync(fileURLToPath(new URL('../dist/bundle.js', import.meta.url)))) return; // not built
  const r = spawnSync(process.execPath, [fileURLToPath(new URL('../scripts/bundle.mjs', import.meta.url)), '--if-stale'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`scripts/bundle.mjs failed:\n${r.stderr}`);
}
