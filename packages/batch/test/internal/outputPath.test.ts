/**
 * Outputs that cannot destroy data: an output that is an input or the store's file, by any spelling, symbolic
 * link or hard link, is refused naming both paths; other paths, devices and standard output pass.
 */
import { Effect, Exit } from "effect"
import * as fc from "fast-check"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import * as OutputPath from "../../src/internal/outputPath.ts"

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-outputpath-test-")))
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }))

const input = path.join(temporary, "in.csv")
fs.writeFileSync(input, "msisdn\n")
fs.mkdirSync(path.join(temporary, "sub"))
fs.symlinkSync(input, path.join(temporary, "link.csv"))
fs.linkSync(input, path.join(temporary, "hard.csv"))

const refused = (output: string, kept: ReadonlyArray<OutputPath.Kept>) =>
  Exit.isFailure(Effect.runSyncExit(OutputPath.ensureDistinct("--out", output, kept)))

describe("OutputPath.ensureDistinct", () => {
  it("refuses every spelling of an input: relative, with .., through a symbolic link, a hard link", () => {
    const kept = [{ role: "the input FILE", path: input }]
    for (const output of [input, path.relative(process.cwd(), input), path.join(temporary, "sub", "..", "in.csv"), path.join(temporary, "link.csv"), path.join(temporary, "hard.csv")]) {
      expect([output, refused(output, kept)]).toStrictEqual([output, true])
    }
  })

  it("the error names the flag, the output and the file it would destroy", () => {
    const exit = Effect.runSyncExit(OutputPath.ensureDistinct("--rejects", input, [{ role: "the input FILE", path: input }]))
    expect(Exit.isFailure(exit)).toBe(true)
    if (Exit.isFailure(exit)) {
      const text = JSON.stringify(exit.cause)
      expect(text).toContain("--rejects")
      expect(text).toContain("the input FILE")
    }
  })

  it("counts the store's -wal, -shm and -journal files as the store, existing or not", () => {
    const book = path.join(temporary, "book.db")
    const kept = OutputPath.storeFiles(`sqlite:${book}`)
    for (const suffix of ["", "-wal", "-shm", "-journal"]) expect(refused(`${book}${suffix}`, kept)).toBe(true)
    expect(refused(`${book}.csv`, kept)).toBe(false)
    expect(OutputPath.storeFiles("memory:")).toEqual([])
    expect(OutputPath.storeFiles("postgres://u@127.0.0.1/db")).toEqual([])
  })

  it("refuses a symbolic link to a store file not there yet (a -wal the book's connection makes later), and a linked folder's `..` link to the book", () => {
    const book = path.join(temporary, "linked.db")
    fs.writeFileSync(book, "")
    const kept = OutputPath.storeFiles(`sqlite:${book}`)
    fs.symlinkSync(`${book}-wal`, path.join(temporary, "to-wal.csv"))
    expect(refused(path.join(temporary, "to-wal.csv"), kept)).toBe(true)
    // reports → deep/reports; deep/reports/up.csv → ../../linked.db: through the folder link, `..` climbs from deep/reports.
    fs.mkdirSync(path.join(temporary, "deep", "reports"), { recursive: true })
    fs.symlinkSync(path.join(temporary, "deep", "reports"), path.join(temporary, "reports"))
    fs.symlinkSync("../../linked.db", path.join(temporary, "deep", "reports", "up.csv"))
    expect(refused(path.join(temporary, "reports", "up.csv"), kept)).toBe(true)
  })

  it("a book given through a link keeps its -wal, -shm and -journal beside the real file too (SQLite names them so)", () => {
    fs.mkdirSync(path.join(temporary, "real"))
    fs.writeFileSync(path.join(temporary, "real", "b2.db"), "")
    fs.symlinkSync(path.join(temporary, "real", "b2.db"), path.join(temporary, "blink.db"))
    const kept = OutputPath.storeFiles(`sqlite:${path.join(temporary, "blink.db")}`)
    for (const suffix of ["-wal", "-shm", "-journal"]) expect(refused(path.join(temporary, "real", `b2.db${suffix}`), kept)).toBe(true)
  })

  it("passes standard output, devices, and any other path", () => {
    fc.assert(fc.property(fc.stringMatching(/^[a-z]{1,8}\.(csv|json)$/), (name) => {
      fc.pre(name !== "in.csv" && name !== "link.csv" && name !== "hard.csv")
      expect(refused(path.join(temporary, name), [{ role: "the input FILE", path: input }])).toBe(false)
    }))
    expect(refused("-", [{ role: "the input FILE", path: "-" }])).toBe(false)
    expect(refused("/dev/null", [{ role: "the input FILE", path: "/dev/null" }])).toBe(false)
  })
})

describe("OutputPath.isStandardOutput", () => {
  it("is - and what descriptor 1 is; never a file of another name, nor a device that is no terminal", () => {
    expect(OutputPath.isStandardOutput("-")).toBe(true)
    expect(OutputPath.isStandardOutput(input)).toBe(false)
    expect(OutputPath.isStandardOutput(path.join(temporary, "missing.csv"))).toBe(false)
    expect(OutputPath.isStandardOutput("/dev/null")).toBe(false)
  })
})
