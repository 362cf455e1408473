/**
 * The records of a contact file read into candidates and rejects, in file order: on this thread for a small file, on
 * a worker thread for a large one (parsing and number checks then run beside the store's writes, on another core).
 */
import { getCompileCacheDir } from "node:module"
import { Worker } from "node:worker_threads"
import * as ContactRows from "./contactRows.ts"
import * as CsvRecords from "./csv/records.ts"
import type * as Dialect from "./csv/dialect.ts"
import * as PhoneRegexCache from "./phoneRegexCache.ts"
import * as RowBatches from "./rowBatches.ts"

export interface Options {
  readonly encoding: string | undefined
  /** Records per batch. */
  readonly batchSize: number
  /** Parse and check on a worker thread. */
  readonly worker: boolean
  /** The worker's {@link RowBatches.Start.shareBelow} (default {@link shareBelow}). */
  readonly shareBelow?: number | undefined
  /** The worker's {@link RowBatches.Start.window} (default {@link window}). */
  readonly window?: number | undefined
}

export interface Opened {
  /** The first record's fields (the header); `undefined` when the file holds no record. */
  readonly header: ReadonlyArray<string> | undefined
  readonly delimiter: Dialect.Delimiter
  /** Starts reading the records after the header, with the columns it matched. */
  readonly start: (context: ContactRows.Context) => void
  /** The next rows (blank records left out); empty at the end. Rejects with a `CsvRecords.Malformed` or the source's error. */
  readonly next: () => Promise<ReadonlyArray<RowBatches.Row>>
  readonly encoding: () => Dialect.Encoding
  /**
   * Bytes of the input the rows returned so far were read from, where that differs from the bytes taken from the
   * source: a worker is handed megabytes ahead of its rows. `undefined` when reading on this thread.
   */
  readonly consumed: () => number | undefined
  /** Whether a worker thread reads the rows. */
  readonly inWorker: boolean
  /** Stops reading and releases the source (and the worker). */
  readonly close: () => void
}

/** Bytes of input past which a file is read on a worker: starting one loads the modules again (~0.5 s of CPU), worth it past ~100k rows. */
export const workerThreshold = 4 << 20

/**
 * Batches waiting for this thread under which the worker sends the next one's records unread, for this thread to
 * read: when the writer is about to wait for rows, it reads them itself, and the worker parses on. The writer waits
 * less, and the two threads share the reading as their loads allow.
 */
export const shareBelow = 2

/** Records per batch on the worker: fewer, larger messages (the import's own batches stay its own size). */
export const workerBatchSize = 1000

/**
 * Batches sent and not yet taken by this thread, at most: bounds the memory of a fast reader, slow writer (128
 * batches of 1000 rows, ~9 MB as bytes). Wide enough for the worker to keep reading through one of the writer's
 * merges (~1 s each at 1M rows); with 4, both threads waited on each other a third of the time, and with 64 the worker
 * still stopped in every merge (the profiles in docs/benchmarks.md).
 */
export const window = 128

/**
 * Caps of the worker's heap (MB): its batches in flight are bounded ({@link window}, as bytes), so it needs little;
 * a small young generation keeps its share of the process's memory small too.
 */
const resourceLimits = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 32 }

const inThread = async (source: AsyncIterable<Uint8Array>, options: Options): Promise<Opened> => {
  const reader = await CsvRecords.open(source, { encoding: options.encoding, batchSize: options.batchSize })
  const first = await reader.next()
  let pending = first.slice(1)
  let context: ContactRows.Context | undefined
  return {
    header: first[0]?.fields,
    delimiter: reader.delimiter,
    start: (given) => void (context = given),
    next: async () => {
      for (;;) {
        const records = pending.length > 0 ? pending : await reader.next()
        pending = []
        if (records.length === 0 || context === undefined) return []
        const rows = RowBatches.read(records, context)
        if (rows.length > 0) return rows
      }
    },
    encoding: reader.encoding,
    consumed: () => undefined,
    inWorker: false,
    close: reader.close
  }
}

const field = (value: unknown, key: string): unknown =>
  typeof value === "object" && value !== null && key in value ? Reflect.get(value, key) : undefined

// The worker module beside this one: a `.ts` source in a clone (workspace packages resolved to their sources, as the
// bin and the tests resolve them), the build's `.js` once installed.
const fromSource = import.meta.url.endsWith(".ts")
/**
 * From source, when this thread runs under the compile cache (the bin turns it on, where users' `NODE_COMPILE_CACHE`
 * leads), the worker starts from a two-line module that turns it on in its own thread as the bin does, then imports
 * the source: Node serves stripped TypeScript from the cache only to a thread that turned it on, and never for the
 * thread's entry module. Otherwise each import's worker loads the type stripper again (~17 MB resident, measured).
 */
const workerUrl = (): URL => {
  const source = new URL(fromSource ? "./readWorker.ts" : "./readWorker.js", import.meta.url)
  if (!fromSource || getCompileCacheDir() === undefined) return source
  const entry = `import { enableCompileCache } from "node:module"
enableCompileCache()
await import(${JSON.stringify(source.href)})`
  return new URL(`data:text/javascript,${encodeURIComponent(entry)}`)
}
// Given options replace the inherited ones, and V8's (heap sizes) are refused there: only the per-thread ones kept.
const execArgv = fromSource
  ? [...process.execArgv.filter((arg) => arg.startsWith("--cpu-prof")), "--conditions=@smsbook/source"]
  : undefined

const onWorker = (source: AsyncIterable<Uint8Array>, options: Options): Promise<Opened> => {
  const input = source[Symbol.asyncIterator]()
  const start: RowBatches.Start = {
    encoding: options.encoding,
    batchSize: workerBatchSize,
    phoneRegexCache: PhoneRegexCache.isRegistered(),
    shareBelow: options.shareBelow ?? shareBelow,
    window: options.window ?? window,
    taken: new Int32Array(new SharedArrayBuffer(4))
  }
  const worker = new Worker(workerUrl(), { workerData: start, execArgv, resourceLimits, stdout: false, stderr: false })
  // Batches as they came: read rows, or records this thread reads itself.
  const batches: Array<{ readonly bytes: Uint8Array; readonly unread: boolean; readonly consumed: number }> = []
  let consumed = 0
  let context: ContactRows.Context | undefined
  let ended = false
  let closed = false
  let failure: unknown = undefined
  let encoding: Dialect.Encoding = options.encoding ?? "utf-8"
  let wake: (() => void) | undefined
  const notify = () => {
    const resolve = wake
    wake = undefined
    resolve?.()
  }
  let opened: Opened | undefined
  let refuse: ((error: unknown) => void) | undefined
  const close = () => {
    closed = true
    void worker.terminate()
    void input.return?.()
  }
  // A failure before the header (a file that cannot be decoded…) fails the opening itself.
  const fail = (error: unknown) => {
    if (failure === undefined && !ended) failure = error
    if (opened === undefined && refuse !== undefined) {
      close()
      refuse(failure)
    }
    notify()
  }
  const pull = () => {
    input.next().then(
      (result) => {
        if (!closed) worker.postMessage(result.done === true ? { t: "end" } : { t: "chunk", bytes: result.value })
      },
      (error: unknown) => {
        fail(error)
        void worker.terminate()
      }
    )
  }
  const next = async (): Promise<ReadonlyArray<RowBatches.Row>> => {
    for (;;) {
      const batch = batches.shift()
      if (batch !== undefined) {
        consumed = batch.consumed
        Atomics.add(start.taken, 0, 1)
        Atomics.notify(start.taken, 0)
        if (!batch.unread) return RowBatches.decode(batch.bytes)
        if (context === undefined) throw new RowBatches.Corrupt("the import's worker sent records before it was started")
        const rows = RowBatches.read(RowBatches.decodeRecords(batch.bytes), context)
        if (rows.length > 0) return rows
        continue
      }
      if (failure !== undefined) throw failure
      if (ended) return []
      await new Promise<void>((resolve) => (wake = resolve))
    }
  }
  worker.on("message", (message: unknown) => {
    const kind = field(message, "t")
    if (kind === "pull") return pull()
    const said = field(message, "encoding")
    if (typeof said === "string") encoding = said
    if (kind === "rows" || kind === "records") {
      const bytes = field(message, "bytes")
      if (bytes instanceof Uint8Array) batches.push({ bytes, unread: kind === "records", consumed: Number(field(message, "consumed") ?? 0) })
      else fail(new RowBatches.Corrupt("the import's worker sent rows that are not bytes"))
    } else if (kind === "end") ended = true
    else if (kind === "malformed") {
      const [code, line, reason] = [field(message, "code"), field(message, "line"), field(message, "reason")]
      fail(new CsvRecords.Malformed({ code: String(code), line: Number(line), reason: String(reason) }))
    } else if (kind === "error") fail(new Error(String(field(message, "message"))))
    else if (kind === "header") {
      const fields = field(message, "fields")
      const delimiter = field(message, "delimiter")
      opened = {
        header: Array.isArray(fields) ? fields.map(String) : undefined,
        delimiter: delimiter === ";" || delimiter === "\t" || delimiter === "|" ? delimiter : ",",
        start: (given) => {
          context = given
          worker.postMessage({ t: "context", context: given })
        },
        next,
        encoding: () => encoding,
        consumed: () => consumed,
        inWorker: true,
        close
      }
    }
    notify()
  })
  worker.on("error", fail)
  worker.on("exit", () => {
    if (!ended && !closed) fail(new Error("the import's worker thread stopped before the end of the file"))
  })
  return new Promise<Opened>((resolve, reject) => {
    refuse = reject
    const waitHeader = () => {
      if (opened !== undefined) resolve(opened)
      else if (failure === undefined) wake = waitHeader
    }
    waitHeader()
  })
}

/** Opens the rows of a contact file, on a worker thread when `options.worker` says so. */
export const open = (source: AsyncIterable<Uint8Array>, options: Options): Promise<Opened> =>
  options.worker ? onWorker(source, options) : inThread(source, options)

/**
 * Whether a file of `bytes` is worth a worker: more than {@link workerThreshold}. Decided by the file's size, never
 * by reading ahead, so a pipe that is slow to fill is imported as its rows come (an unknown size: on this thread).
 */
export const worthAWorker = (bytes: number | undefined): boolean => bytes !== undefined && bytes > workerThreshold
