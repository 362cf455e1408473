/**
 * The worker thread of a large import: it parses the bytes the main thread reads for it and reads every record into
 * a candidate or a reject, then sends the rows back packed, in file order, while the main thread writes the last ones.
 * When the main thread is about to run out of rows, a batch goes back unread instead, for it to read while this
 * thread parses on: the reading is shared as the two threads' loads allow.
 */
import { parentPort, workerData } from "node:worker_threads"
import type * as ContactRowsTypes from "./contactRows.ts"
import type * as ColumnsTypes from "./csv/columns.ts"
import * as PhoneRegexCache from "./phoneRegexCache.ts"
import type * as RowBatchesTypes from "./rowBatches.ts"

/**
 * Input chunks asked for ahead (64 KiB each from a file: 8 MiB). The main thread reads them only between its own
 * writes; with one asked for at a time, this thread parsed a chunk, then waited for the next.
 */
const chunksAhead = 128

const port = parentPort
if (port === null) throw new Error("readWorker.ts runs as a worker thread only")

const field = (value: unknown, key: string): unknown =>
  typeof value === "object" && value !== null && key in value ? Reflect.get(value, key) : undefined

// The main thread's swap of libphonenumber-js's regex helper, installed here too before the library loads.
if (field(workerData, "phoneRegexCache") === true) PhoneRegexCache.register()
const [Columns, CsvRecords, RowBatches] = await Promise.all([
  import("./csv/columns.ts"),
  import("./csv/records.ts"),
  import("./rowBatches.ts")
])

// Messages from the main thread, waited for one kind at a time: input chunks, then the columns.
const chunks: Array<Uint8Array | null> = []
let context: ContactRowsTypes.Context | undefined
// Two waits can be open at once (the parser's for input, the loop's for the columns): every message wakes them all.
let waiting: Array<() => void> = []
port.on("message", (message: unknown) => {
  const kind = field(message, "t")
  const bytes = field(message, "bytes")
  if (kind === "chunk" && bytes instanceof Uint8Array) chunks.push(bytes)
  else if (kind === "end") chunks.push(null)
  else if (kind === "context") context = readContext(field(message, "context"))
  const woken = waiting
  waiting = []
  for (const resolve of woken) resolve()
})
const until = async (ready: () => boolean): Promise<void> => {
  while (!ready()) await new Promise<void>((resolve) => waiting.push(resolve))
}

const isStrings = (value: unknown): value is ReadonlyArray<string> =>
  Array.isArray(value) && value.every((item) => typeof item === "string")

// The context as the main thread built it (structured clone keeps plain data): checked, not trusted blindly.
function readContext(value: unknown): ContactRowsTypes.Context {
  const columns = field(value, "columns")
  const index = field(columns, "index")
  const header = field(columns, "header")
  const fallbacks = field(columns, "fallbacks")
  const countryFallbacks = field(columns, "countryFallbacks")
  const unknown = field(columns, "unknown")
  const defaultCountry = field(value, "defaultCountry")
  const tags = field(value, "tags")
  if (
    typeof index !== "object" || index === null || !isStrings(header) || !Array.isArray(fallbacks) ||
    !fallbacks.every((at) => typeof at === "number") || !Array.isArray(countryFallbacks) ||
    !countryFallbacks.every((at) => typeof at === "number") || !isStrings(unknown) || !isStrings(tags) ||
    (defaultCountry !== undefined && typeof defaultCountry !== "string")
  ) {
    throw new Error("the import's worker was given no columns")
  }
  const columnIndex: { [F in ColumnsTypes.Field]?: number } = {}
  for (const name of Columns.fields) {
    const at = field(index, name)
    if (typeof at === "number") columnIndex[name] = at
  }
  return { columns: { index: columnIndex, header, fallbacks, countryFallbacks, unknown }, defaultCountry, tags }
}

/** Bytes of input handed to the parser so far: how far into the file the batches sent come from (progress). */
let consumed = 0

// Each chunk taken is asked for again, so {@link chunksAhead} stay on their way.
async function* input(): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < chunksAhead; i++) port?.postMessage({ t: "pull" })
  for (;;) {
    await until(() => chunks.length > 0)
    const chunk = chunks.shift()
    if (chunk === null || chunk === undefined) return
    port?.postMessage({ t: "pull" })
    consumed += chunk.byteLength
    yield chunk
  }
}

/**
 * Batches sent, and how many of them the main thread has taken (a counter in shared memory: read here as it is, where
 * a message would wait for this thread to look at its messages, which it does only when it waits for input).
 */
let sent = 0
const waitingBatches = (taken: Int32Array): number => sent - Atomics.load(taken, 0)

/** Resolves once fewer than `window` batches wait for the main thread. */
const room = async (taken: Int32Array, window: number): Promise<void> => {
  for (;;) {
    const seen = Atomics.load(taken, 0)
    if (sent - seen < window) return
    const wait = Atomics.waitAsync(taken, 0, seen)
    if (wait.async) await wait.value
  }
}

const run = async (start: RowBatchesTypes.Start): Promise<void> => {
  const reader = await CsvRecords.open(input(), { encoding: start.encoding, batchSize: start.batchSize })
  let records = await reader.next()
  port.postMessage({ t: "header", fields: records[0]?.fields ?? null, delimiter: reader.delimiter, encoding: reader.encoding() })
  if (records.length === 0) return
  await until(() => context !== undefined)
  records = records.slice(1)
  for (;;) {
    if (context === undefined) return
    await room(start.taken, start.window)
    // Under `shareBelow`, the main thread is about to wait for rows: it reads these records itself, and this thread
    // parses on.
    const share = waitingBatches(start.taken) < start.shareBelow
    const rows = share ? [] : RowBatches.read(records, context)
    if (share || rows.length > 0) {
      sent++
      const bytes = share ? RowBatches.encodeRecords(records) : RowBatches.encode(rows)
      // Handed over when the bytes own their buffer (V8's serialiser gives them one), copied otherwise.
      const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
      port.postMessage({ t: share ? "records" : "rows", bytes, consumed }, owned && bytes.buffer instanceof ArrayBuffer ? [bytes.buffer] : [])
    }
    records = await reader.next()
    if (records.length === 0) break
  }
  port.postMessage({ t: "end", encoding: reader.encoding() })
}

function readTaken(value: unknown): Int32Array {
  if (value instanceof Int32Array && value.buffer instanceof SharedArrayBuffer && value.length === 1) return value
  throw new Error("the import's worker was given no shared counter of the batches taken")
}

/** A whole number of batches, at least `least`, given by the main thread as `what`. */
function readBatches(value: unknown, least: number, what: string): number {
  if (typeof value === "number" && Number.isInteger(value) && value >= least) return value
  throw new Error(`the import's worker was given no ${what}`)
}

const start: RowBatchesTypes.Start = {
  encoding: typeof field(workerData, "encoding") === "string" ? String(field(workerData, "encoding")) : undefined,
  batchSize: typeof field(workerData, "batchSize") === "number" ? Number(field(workerData, "batchSize")) : 1000,
  phoneRegexCache: field(workerData, "phoneRegexCache") === true,
  shareBelow: readBatches(field(workerData, "shareBelow"), 0, "number of batches under which to share the reading"),
  window: readBatches(field(workerData, "window"), 1, "window of batches in flight"),
  taken: readTaken(field(workerData, "taken"))
}

// The main thread ends the worker when it is done with it: the last message is `end`, `malformed` or `error`.
run(start).catch((error: unknown) => {
  port.postMessage(
    error instanceof CsvRecords.Malformed
      ? { t: "malformed", code: error.code, line: error.line, reason: error.reason }
      : { t: "error", message: error instanceof Error ? error.message : String(error) }
  )
})
