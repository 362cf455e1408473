#!/usr/bin/env node
/**
 * The `smsbook` executable: runs the command line and exits with its code.
 */
import { run } from "./Main.ts"

process.exitCode = await run(process.argv.slice(2))
