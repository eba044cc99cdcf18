/**
 * How bin/syclkit.js starts the CLI (see the README's "How the CLI starts"):
 * - it runs the bundle, dist/syclkit.bundle.js, and no module of dist/;
 * - the bundle writes what dist/main.js writes, byte for byte: help, version, compile and
 *   post-link at -j 1 and -j 2 (worker threads start from the bundle), a YAML device file (yaml
 *   required from the bundle's location);
 * - it loads a command's chunks when the command runs: an opt round trip loads no pass package;
 * - a command line that loads user code (--load-pass, in every spelling the option parser takes)
 *   runs dist/main.js, and the plugin's passes work; run from the bundle they would not (the
 *   bundle has its own copies of the @syclkit classes the plugin imports);
 * - SYCLKIT_NO_BUNDLE, a missing bundle and a bundle older than a later tsc -b run dist/main.js;
 * - scripts/bundle.mjs makes the same bytes each time, with no path of the checkout in them, and
 *   --clean removes what it made.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kernelsProgram, scratchDir } from './testing.js';

const CLI = resolve(fileURLToPath(new URL('..', import.meta.url)));
const ROOT = resolve(CLI, '../..');
const BIN = join(CLI, 'bin/syclkit.js');
const BUNDLE = join(CLI, 'dist/syclkit.bundle.js');
const PLUGIN = join(ROOT, 'docs/examples/count-kernels-pass.mjs');
const built = existsSync(join(CLI, 'dist/main.js')) && existsSync(BUNDLE);

describe.runIf(built)('bin/syclkit.js', () => {
  let dir = '';
  let remove = (): void => undefined;
  let hooks = '';
  beforeAll(() => {
    ({ dir, remove } = scratchDir('syclkit-bin-'));
    // A resolve hook that names every module Node loads (the bundle or dist/main.js) in the file
    // RESOLVE_LOG names (not on stderr: a full pipe would fail the write, EAGAIN).
    const hookFile = join(dir, 'hooks.mjs');
    writeFileSync(hookFile, `import { appendFileSync } from 'node:fs';\nexport async function resolve(s, c, next) { const r = await next(s, c); appendFileSync(process.env.RESOLVE_LOG, 'resolved ' + r.url + '\\n'); return r; }\n`);
    hooks = join(dir, 'register.mjs');
    writeFileSync(hooks, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hookFile).href)});\n`);
    writeFileSync(join(dir, 'p.ll'), kernelsProgram(45));
    writeFileSync(join(dir, 'dev.yaml'), 'name: fp64-only-gpu\ndevice-type: gpu\nbackend: opencl\naspects: [fp64]\nsub-group-sizes: [8, 16]\nmax-work-group-size: 512\n');
  });
  afterAll(() => remove());

  let runs = 0;
  /** Runs a bin; `resolved` lists the URLs the resolve hook saw. */
  const run = (bin: string, argv: readonly string[], env: Record<string, string> = {}, cwd = dir): SpawnSyncReturns<string> & { resolved: string[] } => {
    const log = join(dir, `resolved-${runs++}.log`);
    writeFileSync(log, '');
    const r = spawnSync(process.execPath, ['--import', hooks, bin, ...argv], { encoding: 'utf8', cwd, env: { ...process.env, ...env, RESOLVE_LOG: log } });
    return { ...r, resolved: readFileSync(log, 'utf8').split('\n').filter((l) => l.startsWith('resolved ')).map((l) => l.slice('resolved '.length)) };
  };
  /**
   * What a run loaded: 'bundle' (the entry), 'main' (dist/main.js), 'modules' (any other module
   * of a package's dist/ but the bundle's chunks).
   */
  const loaded = (r: { resolved: string[] }): string[] => {
    const urls = r.resolved.filter((url) => url.startsWith('file:')).map((url) => url.replaceAll('\\', '/'));
    const kinds = new Set<string | undefined>(urls.map((url) => (/\/dist\/syclkit\.bundle\.js$/.test(url) ? 'bundle' : /\/dist\/main\.js$/.test(url) ? 'main' : /\/dist\/(?!bundle-chunks\/)/.test(url) ? 'modules' : undefined)));
    return ['bundle', 'main', 'modules'].filter((k) => kinds.has(k));
  };

  /** Runs argv in a fresh folder under `dir`, through the bundle or not; the files written and the streams. */
  const outputOf = (name: string, argv: readonly string[], bundle: boolean): { files: Map<string, string>; stdout: string; stderr: string; status: number | null; loaded: string[] } => {
    const out = join(dir, name);
    mkdirSync(out);
    const r = run(BIN, argv.map((a) => a.replaceAll('{out}', out)), bundle ? {} : { SYCLKIT_NO_BUNDLE: '1' });
    const files = new Map(readdirSync(out).map((f) => [f, readFileSync(join(out, f), 'latin1').replaceAll(out, '{out}')]));
    return { files, stdout: r.stdout.replaceAll(out, '{out}'), stderr: r.stderr.replaceAll(out, '{out}'), status: r.status, loaded: loaded(r) };
  };

  it('runs the bundle, and it writes what dist/main.js writes: help, version, compile and post-link at -j 1 and -j 2, a YAML device file', () => {
    const p = join(dir, 'p.ll');
    const commands: { name: string; argv: string[]; jobs?: boolean }[] = [
      { name: 'help', argv: ['--help'] },
      { name: 'version', argv: ['--version'] },
      { name: 'compile-help', argv: ['compile', '--help'] },
      { name: 'unknown', argv: ['frobnicate'] },
      { name: 'compile', argv: ['compile', p, '-fsycl-targets=spir64,intel_gpu_pvc,nvidia_gpu_sm_80', '-fsycl-device-code-split=per_kernel', '-fsycl-device-obj=llvmir', '-aot', 'nvidia_gpu_sm_80=ir', '-o', '{out}/app.fatbin', '-v'], jobs: true },
      { name: 'post-link', argv: ['post-link', '-split=kernel', '-symbols', '-properties', '-S', '-bundling=design', p, '-o', '{out}/out.table', '-o', 'intel_gpu_tgllp,{out}/tg.table'], jobs: true },
    ];
    for (const { name, argv, jobs } of commands) {
      const variants = jobs ? [['-j', '1'], ['-j', '2']] : [[]];
      const reference = outputOf(`${name}-main`, [...argv, ...(variants[0] ?? [])], false);
      expect(reference.loaded, name).toEqual(['main', 'modules']);
      for (const [i, extra] of variants.entries()) {
        const bundled = outputOf(`${name}-bundle-${i}`, [...argv, ...extra], true);
        expect(bundled.loaded, name).toEqual(['bundle']);
        expect(bundled.status, `${name} ${extra.join(' ')}: ${bundled.stderr}`).toBe(reference.status);
        // -v says how many threads built the images: the only line that differs with -j
        const stdout = extra[1] === '2' ? bundled.stdout.replace(/^images built by 2 threads: \d+, \d+\n/m, '') : bundled.stdout;
        if (extra[1] === '2' && name === 'compile') expect(bundled.stdout).toMatch(/^images built by 2 threads: \d+, \d+$/m);
        expect(stdout, `${name} ${extra.join(' ')}`).toBe(reference.stdout);
        expect(bundled.stderr, `${name} ${extra.join(' ')}`).toBe(reference.stderr);
        expect([...bundled.files.keys()].sort()).toEqual([...reference.files.keys()].sort());
        for (const [file, content] of reference.files) expect(bundled.files.get(file) === content, `${name} ${extra.join(' ')}: ${file}`).toBe(true);
      }
    }
    const version = outputOf('version-check', ['--version'], true);
    expect(version.stdout).toBe(`syclkit ${(JSON.parse(readFileSync(join(CLI, 'package.json'), 'utf8')) as { version: string }).version}\n`);

    // check with a device description file: yaml is required from the bundle's location
    const compiled = join(dir, 'compile-main', 'app.fatbin');
    const reference = outputOf('check-main', ['check', compiled, '-device-file', join(dir, 'dev.yaml')], false);
    const bundled = outputOf('check-bundle', ['check', compiled, '-device-file', join(dir, 'dev.yaml')], true);
    expect(bundled.loaded).toEqual(['bundle']);
    expect(reference.stdout).toContain('fp64-only-gpu');
    expect([bundled.status, bundled.stdout, bundled.stderr]).toEqual([reference.status, reference.stdout, reference.stderr]);
  }, 300_000);

  it('loads the chunks of the pass packages only when the command line needs them (opt round trip)', () => {
    // as dist/main.js does its modules (opt.test.ts): the bundle's chunks name their modules in comments
    const chunksOf = (argv: string[]): string[] => {
      const r = run(BIN, ['opt', '-S', join(dir, 'p.ll'), '-o', join(dir, 'round-trip.ll'), ...argv]);
      expect(r.status, r.stderr).toBe(0);
      expect(loaded(r)).toEqual(['bundle']);
      const chunks = r.resolved.filter((url) => /^file:.*\/bundle-chunks\//.test(url)).map((url) => fileURLToPath(url));
      return [...new Set(chunks)];
    };
    const passPackages = /^\/\/ \.\.\/(aspect-propagation|device-if)\/dist\//m;
    const roundTrip = chunksOf([]);
    expect(roundTrip.some((chunk) => /^\/\/ \.\.\/ir\/dist\//m.test(readFileSync(chunk, 'utf8')))).toBe(true);
    expect(roundTrip.filter((chunk) => passPackages.test(readFileSync(chunk, 'utf8')))).toEqual([]);
    expect(chunksOf(['-passes=sycl-propagate-aspects-usage']).filter((chunk) => passPackages.test(readFileSync(chunk, 'utf8'))).length).toBeGreaterThan(0);
  });

  it('runs dist/main.js when the command line loads user code: --load-pass works in every spelling', () => {
    const sample = join(dir, 'sample');
    mkdirSync(sample);
    expect(run(BIN, ['demo', '--write-sample', sample]).status).toBe(0);
    const units = readdirSync(sample).filter((f) => f.endsWith('.ll')).sort().map((f) => join(sample, f));
    const spellings = [['--load-pass', PLUGIN], ['-load-pass', PLUGIN], [`--load-pass=${PLUGIN}`], [`-load-pass=${PLUGIN}`]];
    for (const spelling of spellings) {
      for (const jobs of ['1', '2']) {
        const r = run(BIN, ['compile', '-fsycl-device-obj=llvmir', ...units, '-o', join(dir, 'plugin.fatbin'), ...spelling, '-passes=globaldce,count-kernels<list>', '-Wno-sycl-aspect-mismatch', '-j', jobs]);
        expect(r.status, `${spelling.join(' ')}: ${r.stderr}`).toBe(0);
        expect(loaded(r), spelling.join(' ')).toEqual(['main', 'modules']);
        expect(r.stderr).toMatch(/remark: llvm-link defines 6 kernels: _ZTS/);
      }
    }
    // Why: the bundle's own @syclkit classes are not the ones the plugin imports from node_modules.
    const direct = join(dir, 'direct.mjs');
    writeFileSync(direct, `const { main } = await import(${JSON.stringify(pathToFileURL(BUNDLE).href)});\nprocess.exitCode = await main(process.argv.slice(2));\n`);
    const bundled = run(direct, ['compile', '-fsycl-device-obj=llvmir', ...units, '-o', join(dir, 'plugin.fatbin'), '--load-pass', PLUGIN, '-passes=globaldce,count-kernels<list>']);
    expect(bundled.status).toBe(1);
    expect(bundled.stderr).toContain('--load-pass:');
  }, 120_000);

  it('runs dist/main.js with SYCLKIT_NO_BUNDLE, without a bundle, and with a bundle older than a later tsc -b', () => {
    expect(loaded(run(BIN, ['--version'], { SYCLKIT_NO_BUNDLE: '1' }))).toEqual(['main', 'modules']);
    // A copy of the package: bin and dist (bundle and stamp) beside node_modules that resolve @syclkit/*.
    const copy = join(dir, 'copy');
    mkdirSync(copy);
    cpSync(join(CLI, 'bin'), join(copy, 'bin'), { recursive: true });
    cpSync(join(CLI, 'dist'), join(copy, 'dist'), { recursive: true, filter: (src) => !/\.(map|d\.ts)$/.test(src) });
    cpSync(join(CLI, 'package.json'), join(copy, 'package.json'));
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
    const copyBin = join(copy, 'bin/syclkit.js');
    const stamp = join(copy, 'dist/syclkit.bundle.stamp.json');
    const inputs = (JSON.parse(readFileSync(stamp, 'utf8')) as { inputs: Record<string, number> }).inputs;
    // the stamp's paths lead out of the copy: point the ones inside the cli package at the copy
    const own = Object.fromEntries(Object.entries(inputs).filter(([path]) => !path.startsWith('../')));
    expect(Object.keys(own)).toEqual(['.tsbuildinfo']);
    writeFileSync(stamp, JSON.stringify({ inputs: { '.tsbuildinfo': statSync(join(copy, 'dist/.tsbuildinfo')).mtimeMs } }));
    expect(loaded(run(copyBin, ['--version']))).toEqual(['bundle']);
    // tsc -b rewrites the .tsbuildinfo of what it builds: the bundle is older
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(copy, 'dist/.tsbuildinfo'), later, later);
    const stale = run(copyBin, ['--version']);
    expect([stale.status, stale.stdout]).toEqual([0, `syclkit ${(JSON.parse(readFileSync(join(CLI, 'package.json'), 'utf8')) as { version: string }).version}\n`]);
    expect(loaded(stale)).toEqual(['main', 'modules']);
    // installed: no stamp (it is not published), so the bundle runs; no bundle: dist/main.js
    rmSync(stamp);
    expect(loaded(run(copyBin, ['--version']))).toEqual(['bundle']);
    rmSync(join(copy, 'dist/syclkit.bundle.js'));
    expect(loaded(run(copyBin, ['--version']))).toEqual(['main', 'modules']);
  });

  it('scripts/bundle.mjs makes the same files each time, with no path of the checkout in them', () => {
    /** The entry and its chunks, by path under the output folder. */
    const make = (name: string): Map<string, Buffer> => {
      const out = join(dir, name);
      const r = spawnSync(process.execPath, [join(CLI, 'scripts/bundle.mjs'), '--out', out], { encoding: 'utf8', cwd: dir });
      expect(r.status, r.stderr).toBe(0);
      const files = ['syclkit.bundle.js', ...readdirSync(join(out, 'bundle-chunks')).map((f) => `bundle-chunks/${f}`)];
      return new Map(files.map((f) => [f, readFileSync(join(out, f))]));
    };
    const first = make('one');
    const second = make('two');
    expect([...second.keys()]).toEqual([...first.keys()]);
    expect(first.size).toBeGreaterThan(10);
    for (const [file, bytes] of first) {
      expect(bytes.equals(second.get(file)!), file).toBe(true);
      expect(bytes.includes(ROOT), file).toBe(false);
    }
    // a rebuild into the same folder leaves no chunk of the one before and no temporary folder
    const again = join(dir, 'one');
    writeFileSync(join(again, 'bundle-chunks', 'chunk-OLD.js'), '');
    expect(spawnSync(process.execPath, [join(CLI, 'scripts/bundle.mjs'), '--out', again]).status).toBe(0);
    expect(readdirSync(join(again, 'bundle-chunks')).sort()).toEqual([...first.keys()].filter((f) => f.startsWith('bundle-chunks/')).map((f) => f.slice('bundle-chunks/'.length)).sort());
    expect(readdirSync(again).sort()).toEqual(['bundle-chunks', 'syclkit.bundle.js', 'syclkit.bundle.stamp.json']);
    // --clean (npm run clean) removes it all
    writeFileSync(join(again, 'other.js'), '');
    expect(spawnSync(process.execPath, [join(CLI, 'scripts/bundle.mjs'), '--clean', '--out', again]).status).toBe(0);
    expect(readdirSync(again)).toEqual(['other.js']);
  }, 60_000);
});
