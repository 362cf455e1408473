#!/usr/bin/env node
/**
 * The `smsbook` executable. It installs the phone-number regex cache first, then loads the
 * command line: nothing may load libphonenumber-js before the swap is in place.
 */
// First: a signal from here on is remembered until the command line listens itself.
import * as EarlySignals from "./internal/earlySignals.ts"
import type { ChildProcess } from "node:child_process"
import * as ServeHeap from "@smsbook/http/ServeHeap"
import * as PhoneRegexCache from "./internal/phoneRegexCache.ts"

const serving = process.argv[2] === "serve"

const { launchedMark } = EarlySignals

/**
 * Whether this process was started by npm through a shell that runs it alone (`npx smsbook serve`, an npm script
 * `smsbook serve …`): npm passes SIGTERM to that shell, which dies of it without passing it further. Read from /proc
 * (Linux); elsewhere, and under a script that runs more than the server (`smsbook serve & …`, `… && …`), no.
 */
const startedByNpmShell = async (): Promise<boolean> => {
  if (process.env["npm_command"] === undefined) return false
  const { readFileSync } = await import("node:fs")
  try {
    const [shell, flag, script] = readFileSync(`/proc/${process.ppid}/cmdline`, "utf8").split("\0")
    // A control operator (`&` that is no redirection, `;`, `|`, a line break) means the shell runs more than this.
    return /(^|\/)sh$/.test(shell ?? "") && flag === "-c" && script !== undefined && !/(?<![<>])&(?!>)|[;|\n]/.test(script)
  } catch {
    return false
  }
}

// Orphaned (its npm shell gone), the server (or the launcher below) stops as on SIGTERM instead of serving on alone. A
// server this launcher started is told by its channel instead.
if (serving && process.env[launchedMark] !== "1" && await startedByNpmShell()) {
  const parent = process.ppid
  const watch = setInterval(() => {
    if (process.ppid === parent) return
    clearInterval(watch)
    process.kill(process.pid, "SIGTERM")
  }, 250)
  watch.unref()
  // Stopping already: no second signal (harmless, but redundant).
  for (const signal of EarlySignals.stopping) process.once(signal, () => clearInterval(watch))
}

if (serving && !ServeHeap.capped()) {
  // V8 caps the old generation only when node starts (docs/benchmarks.md, HTTP): `serve` starts itself again with
  // the cap unless its launcher gave it, and passes signals on, so SIGTERM still drains the requests in flight.
  const { spawn } = await import("node:child_process")
  const { constants } = await import("node:os")
  // A signal that came while this thread was busy loading reaches the early listeners on the next turn of the loop.
  await new Promise<void>((resolve) => setImmediate(resolve))
  // Listening before the early listeners go, so that no signal falls between them. Signals are passed on once the
  // server says it listens (EarlySignals.listening): one passed on before would kill it without a word.
  let child: ChildProcess | undefined
  let listening = false
  let held: NodeJS.Signals | undefined
  const passOn = (signal: NodeJS.Signals) => {
    if (child !== undefined && listening) child.kill(signal)
    else held ??= signal
  }
  for (const signal of EarlySignals.stopping) process.on(signal, () => passOn(signal))
  EarlySignals.release()
  if (EarlySignals.received() === undefined) {
    // The IPC channel tells the server when this process is gone, even killed by a signal it cannot pass on.
    const server = spawn(process.execPath, [...process.execArgv, ...ServeHeap.flags(), ...process.argv.slice(1)], {
      stdio: ["inherit", "inherit", "inherit", "ipc"],
      env: { ...process.env, [launchedMark]: "1" }
    })
    child = server
    server.on("message", (message) => {
      if (message !== EarlySignals.listening || listening) return
      listening = true
      if (held !== undefined) server.kill(held)
    })
    server.on("exit", (code, signal) => {
      process.exitCode = code ?? (signal === null ? 1 : 128 + constants.signals[signal])
    })
  } else {
    // Stopped while loading: no server is started, and the command line says so as for any run stopped then.
    PhoneRegexCache.register()
    const { main } = await import("./Main.ts")
    main(process.argv.slice(2))
  }
} else {
  // `smsbook serve`: V8's young generation sized for serving before the command line loads and grows it.
  if (serving) ServeHeap.limit()
  // Started again by the launcher above (not by another parent with a channel of its own): when it is gone
  // (`kill -9` too), the server stops as on SIGTERM.
  if (serving && process.channel !== undefined && process.env[launchedMark] === "1") {
    process.channel.unref()
    process.once("disconnect", () => process.kill(process.pid, "SIGTERM"))
  }
  PhoneRegexCache.register()
  const { main } = await import("./Main.ts")
  main(process.argv.slice(2))
}
