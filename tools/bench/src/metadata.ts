/**
 * Numbered metadata and attribute groups. Functions are printed before the metadata section,
 * so nodes get their numbers as they are first referenced and are printed at the end; uniqued
 * nodes are interned by their text so the module stays as compact as clang's output.
 */
export class MetadataTable {
  private readonly nodes: string[] = [];
  private readonly interned = new Map<string, number>();

  /** A uniqued node (`!{...}`, `!DILocation(...)`); the same text gives the same number. */
  node(text: string): number {
    let id = this.interned.get(text);
    if (id === undefined) {
      id = this.nodes.length;
      this.nodes.push(text);
      this.interned.set(text, id);
    }
    return id;
  }

  /** A `distinct` node: always a new number. */
  distinct(text: string): number {
    this.nodes.push(`distinct ${text}`);
    return this.nodes.length - 1;
  }

  /** A number whose text is filled in later with `define` (for nodes that refer to themselves). */
  reserve(): number {
    this.nodes.push('');
    return this.nodes.length - 1;
  }

  define(id: number, text: string): void {
    this.nodes[id] = text;
  }

  /** `!{!"a", i32 1}`-style tuple from already rendered operands. */
  tuple(operands: readonly string[]): number {
    return this.node(`!{${operands.join(', ')}}`);
  }

  /** `!{i32 a, i32 b}`. */
  i32s(values: readonly number[]): number {
    return this.tuple(values.map((v) => `i32 ${v}`));
  }

  get size(): number {
    return this.nodes.length;
  }

  render(): string {
    let out = '';
    for (let i = 0; i < this.nodes.length; i++) out += `!${i} = ${this.nodes[i]}\n`;
    return out;
  }
}

export class AttributeGroups {
  private readonly groups: string[] = [];
  private readonly interned = new Map<string, number>();

  /** `#N` for an attribute list such as `convergent nounwind "sycl-module-id"="tu1.cpp"`. */
  ref(attributes: string): string {
    let id = this.interned.get(attributes);
    if (id === undefined) {
      id = this.groups.length;
      this.groups.push(attributes);
      this.interned.set(attributes, id);
    }
    return `#${id}`;
  }

  render(): string {
    let out = '';
    for (let i = 0; i < this.groups.length; i++) out += `attributes #${i} = { ${this.groups[i]} }\n`;
    return out;
  }
}

/** `c"..."` contents: printable ASCII stays, everything else (and `"` and `\`) becomes `\XX`. */
export function cString(text: string): { literal: string; length: number } {
  let literal = '';
  let length = 0;
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    length++;
    if (code >= 0x20 && code < 0x7f && ch !== '"' && ch !== '\\') literal += ch;
    else literal += `\\${code.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return { literal: `${literal}\\00`, length: length + 1 };
}

/** `!"text"` with LLVM's escaping of metadata strings. */
export function mdString(text: string): string {
  return `!${diString(text)}`;
}

/** `"text"` as a string field of a specialized node (`name: "..."` in `!DISubprogram`). */
export function diString(text: string): string {
  return `"${cString(text).literal.slice(0, -3)}"`;
}
