/**
 * docs/cli.md, generated from the real `syclkit --help` and `syclkit <command> --help` output, so
 * the reference cannot say what the binary does not do. `docs/scripts/gen-cli-docs.mjs` writes it
 * (`npm run docs:cli`); a test fails when the file differs from what this renders.
 */
import type { CliIO } from '../io.js';
import { commands } from '../commands/index.js';
import { main } from '../main.js';

async function helpOf(argv: readonly string[]): Promise<string> {
  let out = '';
  const io: CliIO = {
    stdout: { write: (chunk: string | Uint8Array) => (out += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')) },
    stderr: { write: () => undefined },
    readStdin: async () => Buffer.alloc(0),
    stdoutIsTTY: false,
  };
  const code = await main(argv, io);
  if (code !== 0) throw new Error(`syclkit ${argv.join(' ')} exited with ${code}`);
  return out;
}

/** The whole of docs/cli.md. */
export async function renderCliDocs(): Promise<string> {
  const parts = [
    '# syclkit command-line reference',
    '',
    '<!-- Generated from `syclkit --help` and `syclkit <command> --help` by docs/scripts/gen-cli-docs.mjs',
    '     (npm run docs:cli). Do not edit: a test fails when this file is stale. -->',
    '',
    '```text',
    (await helpOf(['--help'])).trimEnd(),
    '```',
    '',
    '## Commands',
    '',
    ...commands.map((c) => `- [\`syclkit ${c.name}\`](#syclkit-${c.name}): ${c.summary}`),
  ];
  for (const c of commands) {
    parts.push('', `## syclkit ${c.name}`, '', c.summary + '.', '', '```text', (await helpOf([c.name, '--help'])).trimEnd(), '```');
  }
  return parts.join('\n') + '\n';
}
