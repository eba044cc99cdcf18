/** Entry point of the `syclkit` binary: dispatches to subcommands, returns the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const [command] = argv;
  if (command === undefined || command === '--help' || command === '-h') {
    process.stdout.write('usage: syclkit <command> [options]\n');
    return 0;
  }
  process.stderr.write(`syclkit: error: unknown command '${command}'\n`);
  return 1;
}
