import { CliError, type Command } from '../command.js';

export const command: Command = {
  name: 'macros',
  summary: 'not implemented yet',
  async run() {
    throw new CliError('syclkit macros is not implemented yet');
  },
};
