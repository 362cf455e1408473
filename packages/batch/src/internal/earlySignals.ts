/**
 * SIGINT, SIGTERM and SIGHUP that come while the command line loads (a few hundred milliseconds of modules before `Main.main`
 * can listen). Without a listener Node dies of them at once, so a `--json` run stopped then printed no document and
 * no word. Imported first by the executable: from then on such a signal is remembered, and the run ends with it as
 * soon as it can say so, before anything is done.
 */
export type Signal = "SIGINT" | "SIGTERM" | "SIGHUP"

let first: Signal | undefined

const remember = (signal: Signal) => () => void (first ??= signal)
/** The signals that stop a run (exit 128 + the signal's number: `Output.ExitCode`). */
export const stopping = ["SIGINT", "SIGTERM", "SIGHUP"] as const satisfies ReadonlyArray<Signal>

const listeners = { SIGINT: remember("SIGINT"), SIGTERM: remember("SIGTERM"), SIGHUP: remember("SIGHUP") } as const
for (const signal of stopping) process.on(signal, listeners[signal])

/** Set by `serve`'s launcher in the environment of the server it starts again (bin.ts). */
export const launchedMark = "SMSBOOK_SERVE_LAUNCHED"

/** The message a server started by the launcher sends once it listens for signals. */
export const listening = "smsbook:listening"

// Started by the launcher, the server says it listens: a signal passed on before would have killed it without a word,
// so the launcher holds them until now.
if (process.env[launchedMark] === "1") process.send?.(listening)

/** The first signal that came while loading, if one did. */
export const received = (): Signal | undefined => first

/** Stops listening: the command line listens itself from now on (`Main.main`, or the server's launcher). */
export const release = (): void => {
  for (const signal of stopping) process.off(signal, listeners[signal])
}
