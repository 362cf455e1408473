/**
 * SIGINT and SIGTERM that come while the command line loads (a few hundred milliseconds of modules before `Main.main`
 * can listen). Without a listener Node dies of them at once, so a `--json` run stopped then printed no document and
 * no word. Imported first by the executable: from then on such a signal is remembered, and the run ends with it as
 * soon as it can say so, before anything is done.
 */
export type Signal = "SIGINT" | "SIGTERM"

let first: Signal | undefined

const remember = (signal: Signal) => () => void (first ??= signal)
const listeners = { SIGINT: remember("SIGINT"), SIGTERM: remember("SIGTERM") } as const
process.on("SIGINT", listeners.SIGINT)
process.on("SIGTERM", listeners.SIGTERM)

/** The first signal that came while loading, if one did. */
export const received = (): Signal | undefined => first

/** Stops listening: the command line listens itself from now on (`Main.main`, or the server's launcher). */
export const release = (): void => {
  process.off("SIGINT", listeners.SIGINT)
  process.off("SIGTERM", listeners.SIGTERM)
}
