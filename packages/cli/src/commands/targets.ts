import { CliError, type Command } from '../command.js';

export const command: Command = {
  name: 'targets',
  summary: 'not implemented yet',
  async run() {
    throw new CliError('syclkit targets is not implemented yet');
  },
};
