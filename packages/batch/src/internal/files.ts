/**
 * Streamed text output to a file or stdout, with back-pressure: lines go out in chunks and memory
 * stays flat however many there are.
 */
import { Effect } from "effect"
import * as fs from "node:fs"
import { once } from "node:events"
import type { Writable } from "node:stream"
import { FileFailure } from "@smsbook/core"

const failure = (path: string) => (cause: unknown) =>
  new FileFailure({ path, reason: cause instanceof Error ? cause.message : String(cause) })

export interface Sink {
  readonly write: (text: string) => Effect.Effect<void, FileFailure>
}

/**
 * A sink writing to `path` (`-` for stdout), closed when the scope ends. A file is written under a
 * temporary name and renamed into place only on success, so a failed run never leaves half a file.
 */
export const open = (path: string) =>
  Effect.acquireRelease(
    Effect.try({
      try: () => {
        const temporary = path === "-" ? undefined : `${path}.${process.pid}.partial`
        const stream: Writable = temporary === undefined ? process.stdout : fs.createWriteStream(temporary)
        return { stream, temporary }
      },
      catch: failure(path)
    }),
    ({ stream, temporary }, exit) =>
      temporary === undefined ? Effect.void : Effect.promise(async () => {
        stream.end()
        await once(stream, "close").catch(() => undefined)
        if (exit._tag === "Success") fs.renameSync(temporary, path)
        else fs.rmSync(temporary, { force: true })
      })
  ).pipe(
    Effect.map(({ stream }): Sink => ({
      write: (text) =>
        Effect.tryPromise({
          try: async () => {
            if (!stream.write(text)) await once(stream, "drain")
          },
          catch: failure(path)
        })
    }))
  )
