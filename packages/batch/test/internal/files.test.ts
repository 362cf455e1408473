/**
 * Output files written whole or not at all: what a run leaves at the path for every sequence of writes, success
 * or failure; unwritable places refused before any write, as typed failures; litter of killed runs cleared.
 */
import { Effect, Exit } from "effect"
import * as fc from "fast-check"
import { spawn, spawnSync } from "node:child_process"
import { once } from "node:events"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { FileFailure } from "../../src/CliErrors.ts"
import * as files from "../../src/internal/files.ts"

const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-files-test-"))
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }))
let count = 0
/** A fresh directory, so its listing shows exactly what a run left. */
const freshDirectory = () => {
  const directory = path.join(temporary, String(++count))
  fs.mkdirSync(directory)
  return directory
}

const contentOf = (file: string): string | undefined => fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined

class Stop extends Error {}

const text = fc.string({ unit: "grapheme", maxLength: 40 })

describe("files.open", () => {
  it("a run that succeeds leaves exactly its text at the path, and nothing else beside it", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(text, { maxLength: 8 }), fc.option(text, { nil: undefined }), fc.boolean(), async (chunks, earlier, close) => {
        const directory = freshDirectory()
        const target = path.join(directory, "out.txt")
        if (earlier !== undefined) fs.writeFileSync(target, earlier)
        await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
          const sink = yield* files.open(target)
          for (const chunk of chunks) yield* sink.write(chunk)
          if (close) yield* sink.close
        })))
        expect(contentOf(target)).toBe(chunks.join(""))
        expect(fs.readdirSync(directory)).toEqual(["out.txt"])
      }),
      { numRuns: 60 }
    )
  })

  it("a run that fails after any number of writes leaves the earlier file as it was, and nothing else", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(text, { maxLength: 8 }), fc.nat(), fc.option(text, { nil: undefined }), async (chunks, at, earlier) => {
        const directory = freshDirectory()
        const target = path.join(directory, "out.txt")
        if (earlier !== undefined) fs.writeFileSync(target, earlier)
        const stopAt = chunks.length === 0 ? 0 : at % (chunks.length + 1)
        const exit = await Effect.runPromiseExit(Effect.scoped(Effect.gen(function*() {
          const sink = yield* files.open(target)
          for (const [index, chunk] of chunks.entries()) {
            if (index === stopAt) return yield* Effect.fail(new Stop())
            yield* sink.write(chunk)
          }
          return yield* Effect.fail(new Stop())
        })))
        expect(Exit.isFailure(exit)).toBe(true)
        expect(contentOf(target)).toBe(earlier)
        expect(fs.readdirSync(directory)).toEqual(earlier === undefined ? [] : ["out.txt"])
      }),
      { numRuns: 60 }
    )
  })

  it("a place that cannot be written fails at open, before any work, as a FileFailure naming the path", async () => {
    const directory = freshDirectory()
    const cases = [
      { target: path.join(directory, "missing", "out.txt"), reason: "no such directory" },
      { target: directory, reason: "is a directory" },
      { target: path.join(directory, "file.txt", "out.txt"), reason: "not a directory" }
    ]
    fs.writeFileSync(path.join(directory, "file.txt"), "")
    for (const { reason, target } of cases) {
      let worked = false
      const error = await Effect.runPromise(Effect.flip(Effect.scoped(Effect.gen(function*() {
        yield* files.open(target)
        worked = true
      }))))
      expect(error).toBeInstanceOf(FileFailure)
      expect(error.path).toBe(target)
      expect(error.reason).toContain(reason)
      expect(worked).toBe(false)
    }
    expect(fs.readdirSync(directory)).toEqual(["file.txt"])
  })

  it.skipIf(!fs.existsSync("/dev/full"))("a write that fails is a FileFailure, and the file is never put in place after it", async () => {
    const directory = freshDirectory()
    const target = path.join(directory, "out.txt")
    fs.writeFileSync(target, "earlier")
    // The temporary file is a link to /dev/full, where every write fails (ENOSPC).
    fs.symlinkSync("/dev/full", files.partialPath(target))
    const [written, closed] = await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const sink = yield* files.open(target)
      const written = yield* Effect.flip(sink.write("some text"))
      return [written, yield* Effect.flip(sink.close)] as const
    })))
    expect(written).toBeInstanceOf(FileFailure)
    expect(written.reason).toContain("no space left")
    expect(closed.reason).toContain("an earlier write failed")
    expect(contentOf(target)).toBe("earlier")
    expect(fs.readdirSync(directory)).toEqual(["out.txt"])
  })

  it("a file that cannot be put in place is a FileFailure from close", async () => {
    const directory = freshDirectory()
    const target = path.join(directory, "out.txt")
    const error = await Effect.runPromise(Effect.flip(Effect.scoped(Effect.gen(function*() {
      const sink = yield* files.open(target)
      yield* sink.write("text")
      fs.mkdirSync(target)
      yield* sink.close
    }))))
    expect(error).toBeInstanceOf(FileFailure)
    expect(error.reason).toContain("cannot put the file in place")
    expect(fs.readdirSync(directory)).toEqual(["out.txt"])
    expect(fs.statSync(target).isDirectory()).toBe(true)
  })
})

describe("files.open through symbolic links", () => {
  it("a link (or a chain of them, relative or absolute) is written through: the links stay, the file they lead to holds the text", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(text, { maxLength: 4 }), fc.integer({ min: 1, max: 3 }), fc.boolean(), fc.boolean(), async (chunks, hops, exists, relative) => {
        const directory = freshDirectory()
        fs.mkdirSync(path.join(directory, "data"))
        const target = path.join(directory, "data", "report.csv")
        if (exists) fs.writeFileSync(target, "earlier")
        // link0 → link1 → … → data/report.csv
        const links = Array.from({ length: hops }, (_, i) => path.join(directory, `link${i}`))
        links.forEach((link, i) => {
          const next = links[i + 1] ?? target
          fs.symlinkSync(relative ? path.relative(directory, next) : next, link)
        })
        const given = links[0] ?? target
        await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
          const sink = yield* files.open(given)
          for (const chunk of chunks) yield* sink.write(chunk)
          yield* sink.close
        })))
        for (const link of links) expect(fs.lstatSync(link).isSymbolicLink()).toBe(true)
        expect(contentOf(target)).toBe(chunks.join(""))
        expect(fs.readdirSync(path.join(directory, "data"))).toEqual(["report.csv"])
      }),
      { numRuns: 40 }
    )
  })
})

describe("files.writtenFile: the file the system writes", () => {
  // A folder link (cl → a/b/c) and chains of file links with relative targets (`..` included, after the folder link
  // too) and absolute ones; the path given may climb out of the linked folder (cl/../c is a/b/c, not c).
  const target = fc.constantFrom("x.csv", "../x.csv", "../../x.csv", "sub/x.csv", "../sub/x.csv", "./x.csv", "../../cl/../sub/x.csv")
  const given = fc.constantFrom("cl", "a/b/c", "cl/../c", "a/b/c/../../b/c", "cl/../../b/c")
  it("is where writing the path lands, through linked folders, `..` after links, chains, and links to files not there yet", () => {
    fc.assert(fc.property(fc.array(target, { minLength: 1, maxLength: 3 }), given, fc.boolean(), (targets, folderGiven, absolute) => {
      const directory = freshDirectory()
      for (const folder of ["a/b/sub", "a/sub", "sub", "a/b/c"]) fs.mkdirSync(path.join(directory, folder), { recursive: true })
      fs.symlinkSync(path.join(directory, "a", "b", "c"), path.join(directory, "cl"))
      // link0 where the given folder really is → targets[0]; the next link sits where that leads, and so on. The given
      // path is joined as text, never normalised: `..` after `cl` must climb from a/b/c.
      const first = `${directory}/${folderGiven}/link0`
      let at = first
      for (const [i, text] of targets.entries()) {
        const to = i === targets.length - 1 ? text : text.replace("x.csv", `link${i + 1}`)
        const real = path.join(fs.realpathSync.native(path.dirname(at)), path.basename(at))
        if (fs.existsSync(real) || fs.lstatSync(real, { throwIfNoEntry: false }) !== undefined) return
        fs.symlinkSync(absolute ? `${path.dirname(real)}/${to}` : to, real)
        at = `${path.dirname(real)}/${to}`
        if (!fs.existsSync(path.dirname(at))) return
      }
      const predicted = files.writtenFile(first)
      // The system follows every link and creates the last target: where it did is where `writtenFile` said.
      fs.writeFileSync(first, "probe")
      expect(fs.realpathSync.native(first)).toBe(predicted)
    }), { numRuns: 200 })
  })

  it("a path that climbs out of a linked folder writes where the system would: the file of the same name beside the link (a FIFO here) is left alone", async () => {
    const directory = freshDirectory()
    fs.mkdirSync(path.join(directory, "deep", "a"), { recursive: true })
    fs.mkdirSync(path.join(directory, "w"))
    fs.symlinkSync(path.join(directory, "deep", "a"), path.join(directory, "w", "lnk"))
    expect(spawnSync("mkfifo", [path.join(directory, "w", "fifo")]).status).toBe(0)
    const given = `${directory}/w/lnk/../fifo`
    expect(files.writtenFile(given)).toBe(path.join(fs.realpathSync.native(directory), "deep", "fifo"))
    await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const sink = yield* files.open(given)
      yield* sink.write("rows")
      yield* sink.close
    })))
    expect(fs.statSync(path.join(directory, "w", "fifo")).isFIFO()).toBe(true)
    expect(fs.readFileSync(path.join(directory, "deep", "fifo"), "utf8")).toBe("rows")
  })

  it("a kept file is refused when the writing starts, where a link leads to it only by then; a link changed later does not move the file", async () => {
    const directory = freshDirectory()
    const book = path.join(directory, "book.db")
    fs.writeFileSync(book, "the book")
    files.keep([{ role: "the store", path: book }])
    // A link that leads to a kept file when the writing starts is refused, whatever it led to when the checks ran.
    fs.symlinkSync("book.db", path.join(directory, "out.csv"))
    const refused = await Effect.runPromiseExit(Effect.scoped(files.open(path.join(directory, "out.csv"))))
    expect(Exit.isFailure(refused) && String(refused.cause).includes("leads to the store")).toBe(true)
    // Pointed at the book while the writing goes on: the file is put where the path led when it started.
    fs.rmSync(path.join(directory, "out.csv"))
    fs.symlinkSync("elsewhere.csv", path.join(directory, "out.csv"))
    await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const sink = yield* files.open(path.join(directory, "out.csv"))
      yield* sink.write("rows")
      fs.rmSync(path.join(directory, "out.csv"))
      fs.symlinkSync("book.db", path.join(directory, "out.csv"))
      yield* sink.close
    })))
    expect(fs.readFileSync(book, "utf8")).toBe("the book")
    expect(fs.readFileSync(path.join(directory, "elsewhere.csv"), "utf8")).toBe("rows")
  })

  it.skipIf(!fs.existsSync("/proc/self/fd"))("a path through a descriptor of the process (/dev/fd/N, /proc/self/fd/N, a link to one) is refused, the file behind it untouched", async () => {
    const directory = freshDirectory()
    const book = path.join(directory, "held.db")
    fs.writeFileSync(book, "held open")
    const descriptor = fs.openSync(book, "r")
    fs.symlinkSync(`/proc/self/fd/${descriptor}`, path.join(directory, "via.csv"))
    try {
      for (const given of [`/proc/self/fd/${descriptor}`, `/dev/fd/${descriptor}`, path.join(directory, "via.csv")]) {
        expect(files.throughDescriptor(given)).toBe(true)
        const exit = await Effect.runPromiseExit(Effect.scoped(files.open(given)))
        expect([given, Exit.isFailure(exit) && String(exit.cause).includes("open descriptor")]).toEqual([given, true])
      }
    } finally {
      fs.closeSync(descriptor)
    }
    expect(fs.readFileSync(book, "utf8")).toBe("held open")
    expect(files.throughDescriptor(book)).toBe(false)
  })

  it("a path spelled as a folder (a trailing /, . or ..) or empty is refused, and the file, FIFO or link of that name is left as it was", async () => {
    const directory = freshDirectory()
    expect(spawnSync("mkfifo", [path.join(directory, "ff")]).status).toBe(0)
    fs.writeFileSync(path.join(directory, "log.txt"), "the log")
    fs.symlinkSync("log.txt", path.join(directory, "l"))
    for (const given of ["ff/", "log.txt/", "l/", "newname/", "log.txt/.", ".", "..", ""]) {
      expect([given, files.notAFileName(given) !== undefined]).toEqual([given, true])
      const exit = await Effect.runPromiseExit(Effect.scoped(files.open(given === "" ? "" : `${directory}/${given}`)))
      expect([given, Exit.isFailure(exit)]).toEqual([given, true])
    }
    expect(fs.statSync(path.join(directory, "ff")).isFIFO()).toBe(true)
    expect(fs.readFileSync(path.join(directory, "log.txt"), "utf8")).toBe("the log")
    expect(fs.lstatSync(path.join(directory, "l")).isSymbolicLink()).toBe(true)
    expect(fs.readdirSync(directory).sort()).toEqual(["ff", "l", "log.txt"])
    for (const name of ["out.csv", "./out.csv", "a/b.csv", "..x", ".hidden"]) expect([name, files.notAFileName(name)]).toEqual([name, undefined])
  })

  it("opening a FIFO waits for its reader, as a shell's > does, and an interruption ends that wait", async () => {
    const directory = freshDirectory()
    const fifo = path.join(directory, "ff")
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0)
    // Nobody reads: the wait is interrupted (as Ctrl-C interrupts a run), and the run ends.
    const waited = await Effect.runPromiseExit(Effect.timeout(Effect.scoped(files.open(fifo)), "300 millis"))
    expect(Exit.isFailure(waited)).toBe(true)
    // A reader comes: the output is written to it.
    const out = fs.openSync(`${fifo}.out`, "w")
    const reader = spawn("cat", [fifo], { stdio: ["ignore", out, "ignore"] })
    // Listened for now: cat may exit before the write below has returned, and an exit already past never comes again.
    const exited = once(reader, "exit")
    fs.closeSync(out)
    await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const sink = yield* files.open(fifo)
      yield* sink.write("rows")
      yield* sink.close
    })))
    await exited
    expect(fs.readFileSync(`${fifo}.out`, "utf8")).toBe("rows")
    expect(fs.statSync(fifo).isFIFO()).toBe(true)
  })

  it("a loop of links throws, and an output named by one is refused as a FileFailure, the links left as they were", async () => {
    const directory = freshDirectory()
    fs.symlinkSync("b.csv", path.join(directory, "a.csv"))
    fs.symlinkSync("a.csv", path.join(directory, "b.csv"))
    expect(() => files.writtenFile(path.join(directory, "a.csv"))).toThrow(/symbolic links/)
    const exit = await Effect.runPromiseExit(Effect.scoped(files.open(path.join(directory, "a.csv"))))
    expect(Exit.isFailure(exit) && exit.cause.toString().includes("FileFailure")).toBe(true)
    expect(fs.readlinkSync(path.join(directory, "a.csv"))).toBe("b.csv")
    expect(fs.readdirSync(directory).sort()).toEqual(["a.csv", "b.csv"])
  })
})

describe("files.temporary", () => {
  it("partial files of killed runs beside it are removed when a run starts; uncommitted, nothing is put in place", async () => {
    const directory = freshDirectory()
    const target = path.join(directory, "out.txt")
    const dead = spawnSync(process.execPath, ["-e", ""]).pid
    const deadLeftover = `${target}.${dead}.partial`
    const liveLeftover = `${target}.${process.ppid}.partial`
    fs.writeFileSync(deadLeftover, "killed")
    fs.writeFileSync(liveLeftover, "running")
    await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const file = yield* files.temporary(target)
      yield* file.write("dropped")
    })))
    expect(fs.readdirSync(directory).sort()).toEqual([path.basename(liveLeftover)])
    await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const file = yield* files.temporary(target)
      yield* file.write("kept")
      yield* file.commit
      yield* file.commit
    })))
    expect(contentOf(target)).toBe("kept")
    expect(fs.readdirSync(directory).sort()).toEqual(["out.txt", path.basename(liveLeftover)].sort())
  })
})

describe("files.open on devices", () => {
  it("a device is written in place, never replaced by a file: /dev/null stays a character device", async () => {
    await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const sink = yield* files.open("/dev/null")
      yield* sink.write("anything")
      yield* sink.close
    })))
    expect(fs.statSync("/dev/null").isCharacterDevice()).toBe(true)
    expect(fs.readdirSync("/dev").filter((name) => name.startsWith("null."))).toEqual([])
  })

  it.skipIf(!fs.existsSync("/dev/full"))("a device that is full fails with the reason in words, and the problem (a full disk)", async () => {
    const exit = await Effect.runPromiseExit(Effect.scoped(Effect.gen(function*() {
      const sink = yield* files.open("/dev/full")
      yield* sink.write("x".repeat(1 << 16))
      yield* sink.close
    })))
    expect(exit).toStrictEqual(Exit.fail(new FileFailure({ path: "/dev/full", reason: "cannot write: no space left on the device", problem: "disk-full" })))
  })
})
