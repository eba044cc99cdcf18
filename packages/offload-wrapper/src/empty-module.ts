import { execFileSync } from 'node:child_process';
import { parseModule } from '@syclkit/ir';
import { findTool, type ToolSearch } from './aot.js';
import { detectImageFormat, ImageFormat } from './descriptor.js';

/** What `classifyDeviceCode` found. */
export interface DeviceCodeKind {
  /** True for a zero-byte file or an IR module that defines no function and no global variable. */
  readonly empty: boolean;
  /** Why the answer may be wrong (a bitcode file that could not be disassembled). */
  readonly warning?: string;
}

const DEFINE = /^[ \t]*define\b/m;

function textModuleIsEmpty(text: string, fileName: string): boolean {
  if (DEFINE.test(text)) return false;
  const module = parseModule(text, { filename: fileName });
  return module.functions.every((f) => f.isDeclaration) && module.globals.every((g) => g.isDeclaration) && module.aliases.length === 0 && module.ifuncs.length === 0;
}

/**
 * Whether a row's Code file is an empty (filtered) module, as sycl-post-link writes for rows whose
 * features a target lacks. Text IR (a `.ll` name, or text starting as LLVM prints a module) is
 * parsed (a syntax error is an `IrSyntaxError` located at `file:line:col`); bitcode is disassembled with `llvm-dis` when it is installed, otherwise it is
 * taken as code and `warning` says so; SPIR-V and other formats are code.
 */
export function classifyDeviceCode(bytes: Uint8Array, fileName: string, search: ToolSearch = {}): DeviceCodeKind {
  if (bytes.length === 0) return { empty: true };
  const format = detectImageFormat(bytes);
  if (format === ImageFormat.SPIRV) return { empty: false };
  if (format === ImageFormat.LLVMIR_BITCODE) {
    const dis = findTool(['llvm-dis', 'llvm-dis-16', 'llvm-dis-19'], search);
    if (dis === undefined) {
      return { empty: false, warning: `${fileName}: cannot tell whether this bitcode is an empty module (llvm-dis is not installed); wrapping it as code` };
    }
    let text: string;
    try {
      text = execFileSync(dis, ['-o', '-', '-'], { input: bytes, maxBuffer: 1 << 30, stdio: ['pipe', 'pipe', 'pipe'] }).toString('latin1');
    } catch {
      return { empty: false, warning: `${fileName}: llvm-dis could not read this bitcode; wrapping it as code` };
    }
    if (DEFINE.test(text)) return { empty: false };
    try {
      return { empty: textModuleIsEmpty(text, fileName) };
    } catch {
      return { empty: false, warning: `${fileName}: the disassembled bitcode could not be parsed; wrapping it as code` };
    }
  }
  // Text IR (a `.ll` file, or text that starts like one) is parsed; other data (PTX, native code
  // from an earlier AOT step) is code.
  if (!looksLikeText(bytes)) return { empty: false };
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  if (!fileName.endsWith('.ll') && !IR_START.test(text)) return { empty: false };
  return { empty: textModuleIsEmpty(text, fileName) };
}

/** How LLVM's printer starts a module: a ModuleID comment, source_filename or target lines, or nothing at all. */
const IR_START = /^\s*(?:; ModuleID = |source_filename = |target (?:datalayout|triple) = |$)/;

function looksLikeText(bytes: Uint8Array): boolean {
  const limit = Math.min(bytes.length, 4096);
  for (let i = 0; i < limit; i++) {
    const b = bytes[i]!;
    if (b === 0 || (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d)) return false;
  }
  return true;
}
