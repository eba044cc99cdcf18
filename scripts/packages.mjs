// The publishable packages of the workspace: packages/* whose package.json is not private, in
// directory order (tools/* are private).
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));

export function publishablePackages() {
  const dir = join(root, 'packages');
  return readdirSync(dir)
    .sort()
    .map((name) => join(dir, name))
    .filter((path) => existsSync(join(path, 'package.json')))
    .map((path) => ({ path, manifest: JSON.parse(readFileSync(join(path, 'package.json'), 'utf8')) }))
    .filter(({ manifest }) => manifest.private !== true);
}

/** Exits with a message when the packages are not built (dist/index.js missing). */
export function requireBuilt(packages) {
  const missing = packages.filter(({ path }) => !existsSync(join(path, 'dist', 'index.js')));
  if (missing.length > 0) {
    process.stderr.write(`not built: ${missing.map((p) => p.manifest.name).join(', ')}; run npm run build first\n`);
    process.exit(1);
  }
}
