#!/usr/bin/env node
/**
 * The `smsbook` executable: runs the command line; Ctrl-C interrupts it, so finalizers run
 * (transactions roll back, partial files are removed) before the process exits.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Exit } from "effect"
import { program } from "./Main.ts"
import * as Output from "./Output.ts"

NodeRuntime.runMain(program(process.argv.slice(2)), {
  disableErrorReporting: true,
  teardown: (exit, onExit) => onExit(Exit.isSuccess(exit) && typeof exit.value === "number" ? exit.value : Output.ExitCode.failed)
})
