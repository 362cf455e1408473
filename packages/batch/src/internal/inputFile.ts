/**
 * The input of a job: FILE's bytes, or standard input for `-`, closed with the scope. A file that
 * cannot be opened is bad input (exit 2), named by the reason the system gave.
 */
import { InvalidParameter } from "@smsbook/core"
import { Effect } from "effect"
import * as fs from "node:fs"

const fileError = (file: string, error: unknown) => {
  const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : ""
  const reason = code === "ENOENT"
    ? "no such file"
    : code === "EISDIR"
    ? "is a directory"
    : code === "EACCES"
    ? "permission denied"
    : error instanceof Error
    ? error.message
    : String(error)
  return new InvalidParameter({ parameter: "FILE", value: file, reason })
}

/** The bytes of FILE (`-`: standard input), in 64 KiB chunks. */
export const open = (file: string) =>
  file === "-" ? Effect.succeed<AsyncIterable<Uint8Array>>(process.stdin) : Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const handle = await fs.promises.open(file, "r")
        const stat = await handle.stat()
        if (stat.isDirectory()) {
          await handle.close()
          throw Object.assign(new Error("is a directory"), { code: "EISDIR" })
        }
        return handle.createReadStream({ highWaterMark: 1 << 16 })
      },
      catch: (error) => fileError(file, error)
    }),
    (stream) => Effect.sync(() => stream.destroy())
  )
