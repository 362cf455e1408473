/**
 * Child script: csv-stringify alone writing the report's N rows (same columns, same options, same
 * bytes) from an in-memory generator to a file, with the stream API or in synchronous chunks.
 * Usage: node scripts/bench/StringifyBaseline.ts OUT COUNT stream|sync — prints `{"rows":N,"seconds":S,
 * "buildingSeconds":B,"buildingCpuSeconds":C}`: the wall and CPU time spent building the rows (the harness, not the library).
 */
import { stringify } from "csv-stringify"
import { stringify as stringifySync } from "csv-stringify/sync"
import { once } from "node:events"
import * as fs from "node:fs"
import { pipeline } from "node:stream/promises"
import type { Message } from "@smsbook/core"
import * as MessagesData from "./MessagesData.ts"

/** The report's columns (interface order, `sent_from` left out); a run compares the two files byte for byte. */
export const columns = [
  "message_id", "id", "short_code", "country", "msisdn", "direction", "status", "message", "total_recipients",
  "sent_count", "error_count", "total_monitors", "is_scheduled", "is_billable", "created_on", "created_by", "type"
]

const formulaStart = /^[=+\-@\t\r]/

/** The casts the report needs for the same bytes: spreadsheet-safe text, `true`/`false`, plain numbers. */
const cast = {
  string: (cell: string) => formulaStart.test(cell) ? `'${cell}` : cell,
  boolean: (value: boolean) => value ? "true" : "false",
  number: (value: number) => String(value)
}

const options = { header: true, columns, cast, record_delimiter: "unix" } as const

const batchRows = 2000

/** Time spent building rows: wall (ms) and CPU (µs). */
interface Clock {
  building: number
  buildingCpu: number
}

/**
 * The rows in batches of 2,000 built in memory; the time spent building them is added to `building`,
 * so the job can report csv-stringify's time without the harness's.
 */
const batches = function*(count: number, clock: Clock): Generator<ReadonlyArray<Message.Message>> {
  const messages = MessagesData.stored(count)
  let done = false
  while (!done) {
    const started = performance.now()
    const cpu = process.cpuUsage()
    const batch: Array<Message.Message> = []
    while (batch.length < batchRows) {
      const next = messages.next()
      if (next.done === true) {
        done = true
        break
      }
      batch.push(MessagesData.wire(next.value))
    }
    clock.building += performance.now() - started
    const used = process.cpuUsage(cpu)
    clock.buildingCpu += used.user + used.system
    if (batch.length > 0) yield batch
  }
}

/** The stream API: each batch written into the `stringify` transform, piped into the file, with back-pressure. */
const viaStream = async (out: string, count: number, clock: Clock): Promise<void> => {
  const stringifier = stringify(options)
  const done = pipeline(stringifier, fs.createWriteStream(out))
  for (const batch of batches(count, clock)) {
    let room = true
    for (const row of batch) room = stringifier.write(row)
    if (!room) await once(stringifier, "drain")
  }
  stringifier.end()
  await done
}

/** `csv-stringify/sync` on each batch (as the report does), each text written with back-pressure. */
const viaSync = async (out: string, count: number, clock: Clock): Promise<void> => {
  const file = fs.createWriteStream(out)
  const closed = once(file, "close")
  let first = true
  for (const batch of batches(count, clock)) {
    const text = stringifySync([...batch], { ...options, header: first })
    first = false
    if (!file.write(text)) await once(file, "drain")
  }
  if (first) file.write(stringifySync([], options))
  file.end()
  await closed
}

const [out, countText, mode] = process.argv.slice(2)
if (out === undefined || countText === undefined || (mode !== "stream" && mode !== "sync")) {
  console.error("usage: StringifyBaseline.ts OUT COUNT stream|sync")
  process.exit(2)
}
const count = Number(countText)
const clock: Clock = { building: 0, buildingCpu: 0 }
const started = performance.now()
await (mode === "stream" ? viaStream(out, count, clock) : viaSync(out, count, clock))
console.log(JSON.stringify({ rows: count, seconds: (performance.now() - started) / 1000, buildingSeconds: clock.building / 1000, buildingCpuSeconds: clock.buildingCpu / 1e6 }))
