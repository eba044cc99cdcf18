/**
 * The AOT step as a pass: each row of an image is compiled by its output's back end
 * (`aotCompilerFor`: keep the IR, llvm-spirv, llc, or one a contributor plugs in). Rows filtered
 * out for their target, and images that define nothing, are never compiled: they become empty
 * images that keep their entries and properties.
 */
import { WrapperError, keepIrCompiler, type AotCompiler, type AotResult } from '@syclkit/offload-wrapper';
import { enclosingImageSet, ImageSet, ImageUnit, imageKind, Slot, type ImageOutput } from '@syclkit/post-link';
import type { Module } from '@syclkit/ir';
import { definePass, PreservedAnalyses, type DiagnosticCatalog, type DiagnosticInput } from '@syclkit/pass-manager';

/** The back end of each output of a set, by output index (undefined: keep the device IR). */
export const AOT_COMPILERS = new Slot<readonly (AotCompiler | undefined)[]>('AOT compilers');

/**
 * Images whose asynchronous compilations (llvm-spirv, llc: tools in processes) may run at once in
 * a set (default 1: each image's are awaited before the next image). With more, `aot` starts an
 * image's compilations and goes on; `wrap` writes the images in order as their compilations end,
 * waiting only when this many images are in flight (the set's finish waits for the last ones).
 */
export const AOT_JOBS = new Slot<number>('AOT jobs');

/** What `aot` made of each row: the image, `empty` (nothing to compile), or undefined (row dropped). */
export const COMPILED = new Slot<readonly (AotResult | 'empty' | undefined)[]>('compiled rows');

/** Set while an image's asynchronous compilations run (`AOT_JOBS` > 1): settles once `COMPILED` is complete. */
export const COMPILING = new Slot<Promise<void>>('compilations in flight');

/** The diagnostic of a failed AOT back end (`aot-tool-failed`), or undefined for another error. */
export function aotFailure(error: unknown): DiagnosticInput | undefined {
  if (!(error instanceof WrapperError)) return undefined;
  return { code: 'aot-tool-failed', message: error.reason, ...(error.file === undefined ? {} : { location: { file: error.file } }) };
}

export const AOT_DIAGNOSTICS = {
  'aot-tool-failed': { severity: 'error', summary: 'An AOT back end (llvm-spirv, llc, ...) failed or is not installed.' },
} as const satisfies DiagnosticCatalog;

/**
 * The name of an image in an output, as sycl-post-link names its files there:
 * `<prefix>[_esimd]_<id>` with the output's prefix (`APP_IMAGE_PREFIXES`, else the output name).
 */
export const IMAGE_PREFIXES = new Slot<readonly string[]>('image name prefixes');

export function imageName(set: ImageSet, image: ImageUnit, output: number): string {
  const prefix = set.get(IMAGE_PREFIXES)?.[output] ?? set.outputs[output]!.name;
  return `${prefix}${image.esimd ? '_esimd' : ''}_${image.id}`;
}

/** An image module that defines no function, variable, alias or ifunc (sycl-post-link's filtered rows look so). */
export function definesNothing(module: Module): boolean {
  return (
    module.functions.every((f) => f.isDeclaration) &&
    module.globals.every((g) => g.isDeclaration) &&
    module.aliases.length === 0 &&
    module.ifuncs.length === 0
  );
}

const keepIr = keepIrCompiler();

function bundleTarget(output: ImageOutput): string {
  return output.target ?? output.name;
}

export const aotPass = definePass({
  name: 'aot',
  unit: imageKind,
  summary: "The AOT step: compiles each row of an image with its output's back end (default: the device IR is the image); filtered rows and images that define nothing stay empty.",
  preserves: 'all',
  diagnostics: AOT_DIAGNOSTICS,
  create: () => (image: ImageUnit, ctx) => {
    const set = enclosingImageSet(ctx);
    if (image.code === undefined) throw new TypeError('aot needs the image code: run emit-ir before it');
    const compilers = set.get(AOT_COMPILERS) ?? [];
    const nothing = definesNothing(image.module);
    const results: (AotResult | 'empty' | undefined)[] = [];
    const pending: Promise<void>[] = [];
    set.outputs.forEach((output, i) => {
      const row = image.rows[i];
      if (row === undefined) return;
      if (row.empty || nothing) {
        results[i] = 'empty';
        return;
      }
      const compiler = compilers[i] ?? keepIr;
      const name = imageName(set, image, i);
      const request = { input: image.code!, inputPath: name, target: bundleTarget(output), name };
      if (compiler.compileSync !== undefined) results[i] = compiler.compileSync(request);
      else pending.push(compiler.compile(request).then((result) => void (results[i] = result)));
    });
    image.set(COMPILED, results);
    if (pending.length === 0) return PreservedAnalyses.all();
    const all = Promise.all(pending).then(() => undefined);
    if ((set.get(AOT_JOBS) ?? 1) > 1) {
      // wrap waits for them, in image order; a failure is reported there.
      all.catch(() => undefined);
      image.set(COMPILING, all);
      return PreservedAnalyses.all();
    }
    return all.then(
      () => PreservedAnalyses.all(),
      (error: unknown) => {
        const failure = aotFailure(error);
        if (failure === undefined) throw error;
        return ctx.fail(failure);
      },
    );
  },
});


