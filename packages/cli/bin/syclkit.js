#!/usr/bin/env node
// Committed (not built) so npm links a real, executable file at install time.
import { main } from '../dist/main.js';

process.exitCode = await main(process.argv.slice(2));
