/**
 * How bin/syclkit.js starts the CLI (see the README's "How the CLI starts"):
 * - bin/syclkit.js and bin/load-bundle.js are CommonJS (bin/package.json);
 * - it runs the bundle, dist/syclkit.bundle.cjs, with the V8 code cache the build made for it,
 *   and no module of dist/;
 * - the bundle writes what dist/main.js writes, byte for byte: help, version, compile and
 *   post-link at -j 1 and -j 2 (worker threads start from the bundle), a YAML device file (yaml
 *   required from the bundle's location);
 * - a code cache made for other bytes (even of the same length, which V8 alone would take) or
 *   damaged is not given to V8, and the bundle still runs;
 * - a command line that loads user code (--load-pass, in every spelling the option parser takes)
 *   runs dist/main.js, and the plugin's passes work; run from the bundle they would not (the
 *   bundle has its own copies of the @syclkit classes the plugin imports);
 * - SYCLKIT_NO_BUNDLE, a missing bundle and a bundle older than a later tsc -b run dist/main.js;
 * - built-in modules few runs need (child_process, crypto, os, worker_threads) are loaded when a
 *   run first uses them: `opt -S` loads none of them;
 * - scripts/bundle.mjs makes the same bundle bytes each time, ASCII, with no path of the checkout in
 *   them, and a code cache; it removes an older build's chunks, and --clean removes what it made.
 */
import { isAscii } from 'node:buffer';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kernelsProgram, scratchDir } from './testing.js';

const CLI = resolve(fileURLToPath(new URL('..', import.meta.url)));
const ROOT = resolve(CLI, '../..');
const BIN = join(CLI, 'bin/syclkit.js');
const BUNDLE = join(CLI, 'dist/syclkit.bundle.cjs');
const PLUGIN = join(ROOT, 'docs/examples/count-kernels-pass.mjs');
const built = existsSync(join(CLI, 'dist/main.js')) && existsSync(BUNDLE);

describe.runIf(built)('bin/syclkit.js', () => {
  let dir = '';
  let remove = (): void => undefined;
  let hooks = '';
  beforeAll(() => {
    ({ dir, remove } = scratchDir('syclkit-bin-'));
    // A resolve hook that names every module Node loads (dist/main.js and its modules) in the file
    // RESOLVE_LOG names (not on stderr: a full pipe would fail the write, EAGAIN), and a vm.Script
    // that names the script it compiles (the bundle) and what became of its code cache.
    const hookFile = join(dir, 'hooks.mjs');
    writeFileSync(hookFile, `import { appendFileSync } from 'node:fs';\nexport async function resolve(s, c, next) { const r = await next(s, c); appendFileSync(process.env.RESOLVE_LOG, 'resolved ' + r.url + '\\n'); return r; }\n`);
    hooks = join(dir, 'register.mjs');
    writeFileSync(
      hooks,
      [
        `import { appendFileSync } from 'node:fs';`,
        `import { register } from 'node:module';`,
        `import { pathToFileURL } from 'node:url';`,
        `import vm from 'node:vm';`,
        `register(${JSON.stringify(pathToFileURL(hookFile).href)});`,
        `const Script = vm.Script;`,
        `vm.Script = class extends Script { constructor(source, options) { super(source, options); const cache = options?.cachedData === undefined ? 'none' : this.cachedDataRejected ? 'rejected' : 'used'; appendFileSync(process.env.RESOLVE_LOG, 'resolved ' + pathToFileURL(options.filename).href + '\\ncache ' + cache + '\\n'); } };`,
        '',
      ].join('\n'),
    );
    writeFileSync(join(dir, 'p.ll'), kernelsProgram(45));
    writeFileSync(join(dir, 'dev.yaml'), 'name: fp64-only-gpu\ndevice-type: gpu\nbackend: opencl\naspects: [fp64]\nsub-group-sizes: [8, 16]\nmax-work-group-size: 512\n');
  });
  afterAll(() => remove());

  let runs = 0;
  /** Runs a bin; `resolved` lists the URLs the resolve hook saw. */
  const run = (bin: string, argv: readonly string[], env: Record<string, string> = {}, cwd = dir): SpawnSyncReturns<string> & { resolved: string[]; cache: string[] } => {
    const log = join(dir, `resolved-${runs++}.log`);
    writeFileSync(log, '');
    // without NODE_OPTIONS: V8 flags there would make V8 reject the code cache (made without them)
    const { NODE_OPTIONS: _, ...inherited } = process.env;
    const r = spawnSync(process.execPath, ['--import', hooks, bin, ...argv], { encoding: 'utf8', cwd, env: { ...inherited, ...env, RESOLVE_LOG: log } });
    const lines = readFileSync(log, 'utf8').split('\n');
    const after = (prefix: string): string[] => lines.filter((l) => l.startsWith(prefix)).map((l) => l.slice(prefix.length));
    return { ...r, resolved: after('resolved '), cache: after('cache ') };
  };
  /**
   * What a run loaded: 'bundle' (dist/syclkit.bundle.cjs), 'main' (dist/main.js), 'modules' (any
   * other module of a package's dist/).
   */
  const loaded = (r: { resolved: string[] }): string[] => {
    const urls = r.resolved.filter((url) => url.startsWith('file:')).map((url) => url.replaceAll('\\', '/'));
    const kinds = new Set<string | undefined>(urls.map((url) => (/\/dist\/syclkit\.bundle\.cjs$/.test(url) ? 'bundle' : /\/dist\/main\.js$/.test(url) ? 'main' : /\/dist\//.test(url) ? 'modules' : undefined)));
    return ['bundle', 'main', 'modules'].filter((k) => kinds.has(k));
  };

  /** Runs argv in a fresh folder under `dir`, through the bundle or not; the files written and the streams. */
  const outputOf = (name: string, argv: readonly string[], bundle: boolean): { files: Map<string, string>; stdout: string; stderr: string; status: number | null; loaded: string[]; cache: string[] } => {
    const out = join(dir, name);
    mkdirSync(out);
    const r = run(BIN, argv.map((a) => a.replaceAll('{out}', out)), bundle ? {} : { SYCLKIT_NO_BUNDLE: '1' });
    const files = new Map(readdirSync(out).map((f) => [f, readFileSync(join(out, f), 'latin1').replaceAll(out, '{out}')]));
    return { files, stdout: r.stdout.replaceAll(out, '{out}'), stderr: r.stderr.replaceAll(out, '{out}'), status: r.status, loaded: loaded(r), cache: r.cache };
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
        expect(bundled.cache, name).toEqual(['used']);
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

  it('loads the built-in modules few runs need only when a run uses them: not for opt -S, worker_threads and os for compile -j 2', () => {
    // not through `run`: its resolve hook runs on a worker thread (module.register), which loads worker_threads
    const listing = join(dir, 'builtins.mjs');
    writeFileSync(listing, `process.on('exit', () => process.stderr.write('builtins: ' + process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)).join(' ') + '\\n'));\n`);
    const { NODE_OPTIONS: _, ...env } = process.env;
    const withBuiltins = (argv: readonly string[]): { status: number | null; stdout: string; builtins: string[] } => {
      const r = spawnSync(process.execPath, ['--import', listing, BIN, ...argv], { encoding: 'utf8', cwd: dir, env });
      const line = /^builtins: (.*)$/m.exec(r.stderr);
      expect(line, r.stderr).not.toBeNull();
      return { status: r.status, stdout: r.stdout, builtins: line![1]!.split(' ') };
    };
    const p = join(dir, 'p.ll');
    const rare = ['child_process', 'crypto', 'os', 'worker_threads'];
    const opt = withBuiltins(['opt', '-S', p, '-o', join(dir, 'lazy.ll')]);
    expect(opt.status).toBe(0);
    expect(opt.builtins).toContain('fs');
    expect(opt.builtins.filter((m) => rare.includes(m))).toEqual([]);
    expect(readFileSync(join(dir, 'lazy.ll'), 'utf8')).toBe(run(BIN, ['opt', '-S', p, '-o', '-'], { SYCLKIT_NO_BUNDLE: '1' }).stdout);
    // the stand-ins load the real modules when first used, and their functions work
    const compile = withBuiltins(['compile', p, '-fsycl-targets=spir64', '-fsycl-device-obj=llvmir', '-o', join(dir, 'lazy.fatbin'), '-j', '2', '-v']);
    expect(compile.status).toBe(0);
    expect(compile.stdout).toMatch(/^images built by 2 threads: \d+, \d+$/m);
    expect(compile.builtins).toEqual(expect.arrayContaining(['os', 'worker_threads']));
  }, 120_000);

  it('is CommonJS (no ESM loader at start-up): bin/load-bundle.js loads through require, and bin/syclkit.js runs the bundle', () => {
    expect((JSON.parse(readFileSync(join(CLI, 'bin/package.json'), 'utf8')) as { type?: string }).type).toBe('commonjs');
    const loader = createRequire(import.meta.url)(join(CLI, 'bin/load-bundle.js')) as { loadBundle: unknown; imageWorkerMain: unknown; CLI_V8_FLAGS: unknown };
    expect([typeof loader.loadBundle, typeof loader.imageWorkerMain, typeof loader.CLI_V8_FLAGS]).toEqual(['function', 'function', 'string']);
    const { NODE_OPTIONS: _, ...env } = process.env;
    const r = spawnSync(process.execPath, [BIN, '--version'], { encoding: 'utf8', env });
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(/^syclkit \S+\n$/);
  });

  it("gives V8 the code cache only for the bundle's own bytes: one byte changed (same length) or a damaged cache runs without it", () => {
    // A copy of the package's bin and dist beside node_modules that resolve the bundle's dependencies.
    const copy = join(dir, 'cache-copy');
    mkdirSync(copy);
    cpSync(join(CLI, 'bin'), join(copy, 'bin'), { recursive: true });
    mkdirSync(join(copy, 'dist'));
    for (const f of ['syclkit.bundle.cjs', 'syclkit.bundle.cache']) cpSync(join(CLI, 'dist', f), join(copy, 'dist', f));
    cpSync(join(CLI, 'package.json'), join(copy, 'package.json'));
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
    const copyBin = join(copy, 'bin/syclkit.js');
    const argv = ['opt', '-S', join(dir, 'p.ll'), '-o', '-'];
    const reference = run(copyBin, argv);
    expect(reference.status, reference.stderr).toBe(0);
    expect([loaded(reference), reference.cache]).toEqual([['bundle'], ['used']]);
    // the bundle with one letter of a message changed: V8 alone would take the cache (same length)
    // and run the old message's code
    const bundlePath = join(copy, 'dist/syclkit.bundle.cjs');
    const original = readFileSync(bundlePath, 'latin1');
    const at = original.indexOf("`syclkit: error: unknown command '");
    expect(at).toBeGreaterThan(0);
    writeFileSync(bundlePath, original.slice(0, at + 1) + 'S' + original.slice(at + 2), 'latin1');
    const edited = run(copyBin, argv);
    expect([edited.status, edited.stdout, loaded(edited), edited.cache]).toEqual([0, reference.stdout, ['bundle'], ['none']]);
    const unknown = run(copyBin, ['frobnicate']);
    expect([unknown.status, unknown.cache]).toEqual([1, ['none']]);
    expect(unknown.stderr).toMatch(/^Syclkit: error: unknown command 'frobnicate'/);
    // a bundle that is not ASCII (the build makes ASCII, read as Latin-1) is read as UTF-8
    writeFileSync(bundlePath, Buffer.from(original.slice(0, at + 1) + '\u015E' + original.slice(at + 2), 'utf8'));
    const nonAscii = run(copyBin, ['frobnicate']);
    expect([nonAscii.status, nonAscii.cache]).toEqual([1, ['none']]);
    expect(nonAscii.stderr).toMatch(/^\u015Eyclkit: error: unknown command 'frobnicate'/);
    writeFileSync(bundlePath, original, 'latin1');
    expect(run(copyBin, argv).cache).toEqual(['used']);
    // a damaged cache: one bit of its data flipped
    const cachePath = join(copy, 'dist/syclkit.bundle.cache');
    const cache = readFileSync(cachePath);
    cache[cache.length >> 1]! ^= 1;
    writeFileSync(cachePath, cache);
    const damaged = run(copyBin, argv);
    expect([damaged.status, damaged.stdout, damaged.cache]).toEqual([0, reference.stdout, ['none']]);
    // no cache at all
    rmSync(cachePath);
    const none = run(copyBin, argv);
    expect([none.status, none.stdout, none.cache]).toEqual([0, reference.stdout, ['none']]);
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
    rmSync(join(copy, 'dist/syclkit.bundle.cjs'));
    expect(loaded(run(copyBin, ['--version']))).toEqual(['main', 'modules']);
  });

  it('scripts/bundle.mjs makes the same bundle each time, with no path of the checkout in it, and its code cache', () => {
    const make = (name: string): Buffer => {
      const out = join(dir, name);
      const r = spawnSync(process.execPath, [join(CLI, 'scripts/bundle.mjs'), '--out', out], { encoding: 'utf8', cwd: dir });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      expect(statSync(join(out, 'syclkit.bundle.cache')).size).toBeGreaterThan(100_000);
      return readFileSync(join(out, 'syclkit.bundle.cjs'));
    };
    const first = make('one');
    expect(first.equals(make('two'))).toBe(true);
    // ASCII: bin/load-bundle.js reads it as one-byte text (a non-ASCII character in a regular
    // expression or String.raw template of the sources would end that: write it escaped)
    expect(isAscii(first)).toBe(true);
    expect(first.includes(ROOT)).toBe(false);
    // a rebuild into the same folder removes an older build's entry and chunks and leaves no temporary file
    const again = join(dir, 'one');
    mkdirSync(join(again, 'bundle-chunks'));
    writeFileSync(join(again, 'bundle-chunks', 'chunk-OLD.js'), '');
    writeFileSync(join(again, 'syclkit.bundle.js'), '');
    expect(spawnSync(process.execPath, [join(CLI, 'scripts/bundle.mjs'), '--out', again]).status).toBe(0);
    expect(readdirSync(again).sort()).toEqual(['syclkit.bundle.cache', 'syclkit.bundle.cjs', 'syclkit.bundle.stamp.json']);
    // --clean (npm run clean) removes it all
    writeFileSync(join(again, 'other.js'), '');
    expect(spawnSync(process.execPath, [join(CLI, 'scripts/bundle.mjs'), '--clean', '--out', again]).status).toBe(0);
    expect(readdirSync(again)).toEqual(['other.js']);
  }, 120_000);
});
