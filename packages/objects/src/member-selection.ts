/**
 * Which archive members a link pulls in, as a linker does: a member is linked when it defines a
 * symbol that something already linked needs and nothing linked defines; its own needs then count
 * too, and the archives are searched again until nothing changes (as if all archives were in one
 * `--start-group`). Symbols are opaque strings: the device link passes device symbols, host
 * symbols and the kernels the host refers to, each kept apart by a prefix.
 */

export interface LinkInput {
  /** Symbols it defines. */
  readonly defines: readonly string[];
  /** Symbols it needs from elsewhere. */
  readonly needs: readonly string[];
}

export interface MemberChoice<M> {
  readonly member: M;
  /** The symbol that pulled it in. */
  readonly because: string;
}

/**
 * Members of `archives` (each an array of members, in archive order) that `linked` pulls in,
 * directly or through other members, in the order they were pulled.
 */
export function selectArchiveMembers<M extends LinkInput>(linked: readonly LinkInput[], archives: readonly (readonly M[])[]): MemberChoice<M>[] {
  const defined = new Set<string>();
  const needed = new Set<string>();
  const add = (input: LinkInput): void => {
    for (const symbol of input.defines) {
      defined.add(symbol);
      needed.delete(symbol);
    }
    for (const symbol of input.needs) if (!defined.has(symbol)) needed.add(symbol);
  };
  for (const input of linked) add(input);
  const chosen: MemberChoice<M>[] = [];
  const taken = new Set<M>();
  for (let changed = true; changed && needed.size > 0; ) {
    changed = false;
    for (const archive of archives) {
      for (const member of archive) {
        if (taken.has(member)) continue;
        const because = member.defines.find((symbol) => needed.has(symbol));
        if (because === undefined) continue;
        taken.add(member);
        chosen.push({ member, because });
        add(member);
        changed = true;
      }
    }
  }
  return chosen;
}
