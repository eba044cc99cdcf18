#!/usr/bin/env node
// Entry point: `node tools/bench/dist/cli.js <command> ...` (see main.ts for the commands).
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2));
