/**
 * A blank filter flag is refused (exit 2, `USAGE`, `field` naming the flag) on every command that filters: read as no
 * filter, `--group "$UNSET"` wrote every message, `--limit "" --start ""` listed everything. So is a blank setting
 * flag: read as not given, `--carrier ""` dispatched to SMSBOOK_CARRIER's carrier and `--user ""` recorded its user.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, expect, it } from "vitest"
import { bin, env } from "./cliProcess.ts"

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-blank-filters-"))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

/** Each command with one blank filter flag, and the flag the refusal must name. */
const cases: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [
  [["report", "--group", "", "--out", "g.csv"], "--group"],
  [["report", "--msisdn", " ", "--out", "g.csv"], "--msisdn"],
  [["report", "--from", "", "--out", "g.csv"], "--since"],
  [["messages", "list", "--group", "   "], "--group"],
  [["messages", "list", "--limit", ""], "--limit"],
  [["messages", "list", "--start", ""], "--start"],
  [["messages", "list", "--since", " "], "--since"],
  [["messages", "list", "--until", ""], "--until"],
  [["messages", "list", "--direction", ""], "--direction"],
  [["contacts", "list", "--query", ""], "--query"],
  [["contacts", "list", "--limit", " "], "--limit"],
  [["contacts", "list", "--start", ""], "--start"],
  [["contacts", "list", "--status", ""], "--status"],
  [["contacts", "export", "--tags", " , ", "--out", "c.csv"], "--tags"],
  [["contacts", "export", "--query", "\t"], "--query"],
  [["send", "--to", "07400123456", "--default-country", "GB", "--message", "hi", "--user", ""], "--user"],
  [["send", "--to", "07400123456", "--default-country", "GB", "--message", "hi", "--short-name", " "], "--short-name"],
  [["send", "--to", "07400123456", "--default-country", "GB", "--message", "hi", "--short-code", ""], "--short-code"],
  [["messages", "list", "--time-zone", ""], "--time-zone"],
  [["messages", "list", "--spam-period", ""], "--spam-period"],
  [["contacts", "list", "--wait", ""], "--wait"],
  [["dispatch", "--once", "--carrier", ""], "--carrier"]
]

it.each(cases)("%j is refused naming %s", (args, flag) => {
  const ran = spawnSync(process.execPath, [bin, ...args, "--store", path.join(dir, "book.db"), "--json"], {
    cwd: dir,
    env: env(),
    encoding: "utf8",
    timeout: 60_000
  })
  expect(ran.status, ran.stderr).toBe(2)
  expect(JSON.parse(ran.stdout)).toMatchObject({ error: { code: "USAGE", field: flag } })
  expect(fs.readdirSync(dir)).toEqual([])
})
