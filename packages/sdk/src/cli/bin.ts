#!/usr/bin/env node
import { nodeIo } from './io';
import { runCli } from './main';

process.exitCode = await runCli(process.argv.slice(2), nodeIo());
