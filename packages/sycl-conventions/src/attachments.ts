/**
 * Reading metadata attachments and debug info without changing the module: kinds are looked up,
 * never registered (registering a kind changes the order in which the printer emits attachments).
 */
import type { Context, DINode, Metadata, MDNode } from '@syclkit/ir';

/** Anything with attachments: functions, global variables, instructions. */
export interface HasAttachments {
  readonly attachments: readonly { readonly kind: number; readonly node: MDNode }[] | null;
}

/** The node attached to `owner` under `kind`, or undefined (also when the kind was never registered). */
export function attachment(owner: HasAttachments, context: Context, kind: string): MDNode | undefined {
  const id = context.md.kinds.lookup(kind);
  if (id === undefined || owner.attachments === null) return undefined;
  for (const a of owner.attachments) if (a.kind === id) return a.node;
  return undefined;
}

/** LLVM's fixed kind id of `!dbg`. */
const DBG_KIND = 0;

export function isDINode(md: Metadata | null | undefined): md is DINode {
  return md != null && md.mk === 'di';
}

/** The `!dbg` attachment of a function (its DISubprogram) or an instruction (its DILocation). */
export function debugNodeOf(owner: HasAttachments): DINode | undefined {
  if (owner.attachments === null) return undefined;
  for (const a of owner.attachments) if (a.kind === DBG_KIND && isDINode(a.node)) return a.node;
  return undefined;
}

/** The file name of a debug-info scope: its own `file:` field, or the nearest enclosing scope's (lexical blocks, ...). */
export function fileOf(scope: DINode): string | undefined {
  let current: DINode | undefined = scope;
  for (let depth = 0; current !== undefined && depth < 64; depth++) {
    const file = current.className === 'DIFile' ? current : current.mdField('file');
    if (isDINode(file)) {
      const name = file.strField('filename');
      if (name !== undefined && name !== '') return name;
    }
    const parent = current.mdField('scope');
    current = isDINode(parent) ? parent : undefined;
  }
  return undefined;
}
