/**
 * The input of `import` and `suppressions import`: a file another program is still writing (a nightly export not
 * finished, a copy under way) is refused once read to its end, before anything is kept, rather than imported cut short.
 */
import { InvalidParameter } from "@smsbook/core"
import { Effect } from "effect"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import * as InputFile from "../../src/internal/inputFile.ts"

const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-input-file-"))
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }))
let files = 0
const tempPath = (name: string) => path.join(temporary, `${++files}-${name}`)

/** A contact file of `rows` rows (several of the reader's 64 KiB chunks from a few thousand on). */
const contactFile = (rows: number): string => {
  const file = tempPath("contacts.csv")
  const lines = ["first_name,msisdn", ...Array.from({ length: rows }, (_, i) => `Ann ${i},07400 ${String(100000 + i)}`)]
  fs.writeFileSync(file, lines.join("\n") + "\n")
  return file
}

const drain = async (source: AsyncIterable<Uint8Array>): Promise<number> => {
  let bytes = 0
  for await (const chunk of source) bytes += chunk.length
  return bytes
}

/** How reading `file` whole fails when `write` changes it after the first chunk is read. */
const failureReading = (file: string, write: () => void): Promise<unknown> =>
  Effect.runPromise(Effect.flip(Effect.scoped(Effect.flatMap(InputFile.open(file), (source) =>
    Effect.tryPromise({
      try: async () => {
        const iterator = source[Symbol.asyncIterator]()
        await iterator.next()
        write()
        for (;;) if ((await iterator.next()).done === true) return
      },
      catch: (error) => error
    })))))

const rowsOptions = (file: string): InputFile.RowsOptions => ({
  source: file,
  nothing: "nothing was imported",
  columns: "msisdn…",
  encoding: undefined,
  batchSize: 100,
  worker: false
})

describe("InputFile.open", () => {
  it("gives every byte of a file nobody writes", async () => {
    const file = contactFile(5000)
    const bytes = await Effect.runPromise(Effect.scoped(Effect.flatMap(InputFile.open(file), (source) => Effect.promise(() => drain(source)))))
    expect(bytes).toBe(fs.statSync(file).size)
  })

  it("gives every byte of a FIFO named as FILE (/dev/stdin, a shell's <(…)), which cannot be read at a position", async () => {
    const fifo = tempPath("contacts.fifo")
    execFileSync("mkfifo", [fifo])
    const text = "first_name,msisdn\nAnn,07400 100000\n".repeat(5000)
    const writer = fs.promises.writeFile(fifo, text)
    const bytes = await Effect.runPromise(Effect.scoped(Effect.flatMap(InputFile.open(fifo), (source) => Effect.promise(() => drain(source)))))
    await writer
    expect(bytes).toBe(Buffer.byteLength(text))
  })

  it("fails at the end of a file that grew while it was read: its last rows were not all there", async () => {
    const file = contactFile(5000)
    expect(await failureReading(file, () => fs.appendFileSync(file, "Bob,07400 999999\n"))).toBeInstanceOf(InputFile.Changed)
  })

  it("fails at the end of a file appended to while it was read, whatever its modification time says", async () => {
    const file = contactFile(5000)
    // A file system whose times are whole seconds shows no change of time within the second.
    const second = new Date("2026-11-28T03:00:00Z")
    fs.utimesSync(file, second, second)
    const appended = () => {
      fs.appendFileSync(file, "Bob,07400 999999\n")
      fs.utimesSync(file, second, second)
    }
    expect(await failureReading(file, appended)).toBeInstanceOf(InputFile.Changed)
  })

  it("a FILE that cannot be opened is refused naming FILE, with the system's reason in words as every file error gives it", async () => {
    const loop = tempPath("loop.csv")
    fs.symlinkSync(loop, loop)
    for (const [file, reason] of [[tempPath("missing.csv"), "no such file"], [temporary, "is a directory"], [loop, "too many symbolic links"]] as const) {
      const error = await Effect.runPromise(Effect.flip(Effect.scoped(InputFile.open(file))))
      expect(error).toMatchObject({ parameter: "FILE", value: file, reason })
    }
  })

  it("a file that changed after it was opened is refused as bad input naming FILE, and says nothing was imported", async () => {
    const file = contactFile(3)
    const read = Effect.scoped(Effect.gen(function*() {
      const source = yield* InputFile.open(file)
      // Written to after the job opened it, before it read it: the bytes read may end mid-row.
      fs.appendFileSync(file, "Bob,07400 9")
      const { next } = yield* InputFile.rows(source, rowsOptions(file))
      for (;;) if ((yield* next).length === 0) return
    }))
    const error = await Effect.runPromise(Effect.flip(read))
    expect(error).toBeInstanceOf(InvalidParameter)
    expect(error).toMatchObject({ parameter: "FILE", value: file })
    expect(String(error)).toMatch(/changed while it was read/)
    expect(String(error)).toMatch(/nothing was imported/)
  })
})
