import { describe, expect, it } from 'vitest';
import { selectArchiveMembers } from './member-selection.js';

const member = (name: string, defines: string[], needs: string[] = []) => ({ name, defines, needs });

describe('archive member selection', () => {
  it('pulls only members that define something needed, and what they need in turn, across archives', () => {
    const libA = [member('a1', ['f'], ['g']), member('a2', ['unused'])];
    const libB = [member('b1', ['g'], ['h']), member('b2', ['h'])];
    const chosen = selectArchiveMembers([{ defines: ['main'], needs: ['f'] }], [libA, libB]);
    expect(chosen.map((c) => [c.member.name, c.because])).toEqual([
      ['a1', 'f'],
      ['b1', 'g'],
      ['b2', 'h'],
    ]);
  });

  it('searches an earlier archive again for what a later one needs (as --start-group)', () => {
    const chosen = selectArchiveMembers([{ defines: [], needs: ['late'] }], [[member('early', ['e'])], [member('late', ['late'], ['e'])]]);
    expect(chosen.map((c) => c.member.name)).toEqual(['late', 'early']);
  });

  it('pulls nothing for symbols the linked inputs define themselves', () => {
    expect(selectArchiveMembers([{ defines: ['f'], needs: ['f'] }], [[member('m', ['f'])]])).toEqual([]);
  });
});
