/** An input read whole, at once: a broadcast's plan or message file, small enough to hold (`-`: standard input). */
import * as fs from "node:fs"

/**
 * The whole of `path` as bytes, standard input's for `-` (`--plan -`, `--message-file -`); a directory is refused as
 * reading it would be (EISDIR), not read as nothing.
 */
export const read = (path: string): Buffer => {
  if (path === "-") return fs.readFileSync(0)
  if (fs.statSync(path).isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" })
  return fs.readFileSync(path)
}
