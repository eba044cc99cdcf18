/**
 * `--load-pass <module>`: a contributor's passes, from a JavaScript module that exports
 * `definePass(...)` results (named exports, a `passes` array, or a default export of either),
 * added to the registry with `registry.extend`.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PassEntry, PassRegistry } from '@syclkit/pass-manager';
import { CliError } from '../command.js';

/** Whether a value is a registry entry made by `definePass`. */
export function isPassEntry(value: unknown): value is PassEntry {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<PassEntry>;
  return (
    typeof v.name === 'string' &&
    typeof v.unit === 'object' &&
    v.unit !== null &&
    typeof v.unit.name === 'string' &&
    typeof v.instantiate === 'function' &&
    typeof v.parseOptions === 'function' &&
    typeof v.create === 'function'
  );
}

/** The pass entries a module exports, in export order, each once. */
export function passEntriesOf(exports: Record<string, unknown>): PassEntry[] {
  const out: PassEntry[] = [];
  const take = (value: unknown): void => {
    if (isPassEntry(value)) {
      if (!out.includes(value)) out.push(value);
    } else if (Array.isArray(value)) {
      for (const item of value) if (isPassEntry(item) && !out.includes(item)) out.push(item);
    }
  };
  for (const [key, value] of Object.entries(exports)) {
    if (key !== 'default') take(value);
  }
  take(exports['default']);
  return out;
}

/** Imports each module and returns the registry extended with their passes. */
export async function loadPassModules(paths: readonly string[], registry: PassRegistry): Promise<{ registry: PassRegistry; loaded: { path: string; passes: string[] }[] }> {
  let current = registry;
  const loaded: { path: string; passes: string[] }[] = [];
  for (const path of paths) {
    const absolute = resolve(path);
    if (!existsSync(absolute)) throw new CliError(`--load-pass: cannot load '${path}': no such file`);
    let exports: Record<string, unknown>;
    try {
      exports = (await import(pathToFileURL(absolute).href)) as Record<string, unknown>;
    } catch (error) {
      const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw new CliError(`--load-pass: cannot load '${path}': ${message}`);
    }
    const entries = passEntriesOf(exports);
    if (entries.length === 0) {
      throw new CliError(`--load-pass: '${path}' exports no passes (export definePass(...) results, or an array of them named 'passes')`);
    }
    try {
      current = current.extend({ passes: entries });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const hint = /two different unit kinds/.test(message)
        ? " (the module imports another copy of '@syclkit/ir'; put it where 'import \"@syclkit/ir\"' resolves to the copy syclkit uses)"
        : '';
      throw new CliError(`--load-pass: '${path}': ${message}${hint}`);
    }
    loaded.push({ path, passes: entries.map((e) => e.name) });
  }
  return { registry: current, loaded };
}
