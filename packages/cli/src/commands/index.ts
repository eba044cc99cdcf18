import type { Command } from '../command.js';

/** The registry: one line per subcommand, loaded on demand so start-up stays cheap. */
export const commands: readonly { readonly name: string; readonly summary: string; readonly load: () => Promise<Command> }[] = [
  { name: 'demo', summary: 'End-to-end demo on an embedded 3-file DPC++ program: compile, images, compatibility matrix, explain, run', load: async () => (await import('./demo.js')).command },
  { name: 'compile', summary: 'Compile device IR of several translation units into a fat binary: link, device_if, aspects, split, AOT, wrap', load: async () => (await import('./compile.js')).command },
  { name: 'link', summary: 'Link fat objects and static libraries into an executable that registers its device images (or, with -fsycl-link, a device-linked fat object)', load: async () => (await import('./link.js')).command },
  { name: 'check', summary: "Kernel x device compatibility matrix of a fat binary, with the runtime's reason for every refusal (a CI gate)", load: async () => (await import('./check.js')).command },
  { name: 'explain', summary: 'Why a kernel needs an aspect: the call chain to the instruction that uses it, with source locations', load: async () => (await import('./explain.js')).command },
  { name: 'split-plan', summary: 'For each -fsycl-device-code-split mode: the images, copied functions, sizes, and a recommendation', load: async () => (await import('./split-plan.js')).command },
  { name: 'opt', summary: 'Run a pass pipeline over LLVM IR (drop-in for the opt of intel/llvm tests)', load: async () => (await import('./opt.js')).command },
  { name: 'llc', summary: "LLVM 16's llc after the SYCL passes intel/llvm's NVPTX/AMDGPU code generators run (drop-in for intel/llvm tests)", load: async () => (await import('./llc.js')).command },
  { name: 'targets', summary: 'List the known device targets (name, aliases, architecture, aspects, sub-group sizes)', load: async () => (await import('./targets.js')).command },
  { name: 'macros', summary: 'Print the -D flags a driver passes for a -fsycl-targets list', load: async () => (await import('./macros.js')).command },
  { name: 'post-link', summary: 'Split device code into images with symbols, properties and file tables (drop-in for sycl-post-link)', load: async () => (await import('./post-link.js')).command },
  { name: 'module-split', summary: 'Split a module into device images (drop-in for sycl-module-split)', load: async () => (await import('./module-split.js')).command },
  { name: 'llvm-split', summary: "Split a module by SYCL rules (drop-in for intel/llvm's llvm-split -sycl-split)", load: async () => (await import('./llvm-split.js')).command },
  { name: 'file-table-tform', summary: 'Transform file tables: extract, rename, replace columns or cells, merge (drop-in for file-table-tform)', load: async () => (await import('./file-table-tform.js')).command },
  { name: 'wrap', summary: 'Wrap post-link tables into a fat-binary container, one bundle per target (clang-offload-wrapper)', load: async () => (await import('./wrap.js')).command },
  { name: 'inspect', summary: 'Summarize a fat-binary container, or compare two builds with -diff', load: async () => (await import('./inspect.js')).command },
  { name: 'run', summary: 'Submit a kernel of a fat binary to a simulated device: bundle and image choice, requirement checks, JIT build', load: async () => (await import('./run.js')).command },
];
