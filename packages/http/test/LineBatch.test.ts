/**
 * The access log's batch: every line written once, whole, in order, in fewer writes than lines;
 * nothing waits past a turn of the event loop, nor at all once the batch is closed.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as LineBatch from "../src/internal/lineBatch.ts"

const turn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** Lines without newlines (each write must end on a line's end). */
const lines = fc.array(fc.string({ unit: "grapheme" }).map((text) => text.replace(/\n/g, " ")), { maxLength: 60 })

describe("LineBatch", () => {
  it("writes every line once, in order, each chunk ending on a newline, within a turn", async () => {
    await fc.assert(fc.asyncProperty(lines, fc.integer({ min: 1, max: 200 }), async (sent, limit) => {
      const chunks: Array<string> = []
      const batch = LineBatch.make((chunk) => void chunks.push(chunk), limit)
      for (const line of sent) batch.line(line)
      await turn()
      expect(chunks.join("")).toBe(sent.map((line) => line + "\n").join(""))
      for (const chunk of chunks) expect(chunk.endsWith("\n")).toBe(true)
      expect(chunks.length).toBeLessThanOrEqual(sent.length)
    }))
  })

  it("gathers the lines of one turn into one write", async () => {
    const chunks: Array<string> = []
    const batch = LineBatch.make((chunk) => void chunks.push(chunk))
    batch.line("a")
    batch.line("b")
    expect(chunks).toEqual([])
    await turn()
    expect(chunks).toEqual(["a\nb\n"])
  })

  it("writes at once past its limit, and after close", () => {
    const chunks: Array<string> = []
    const batch = LineBatch.make((chunk) => void chunks.push(chunk), 4)
    batch.line("ab")
    expect(chunks).toEqual([])
    batch.line("cd")
    expect(chunks).toEqual(["ab\ncd\n"])
    batch.line("e")
    batch.close()
    expect(chunks).toEqual(["ab\ncd\n", "e\n"])
    batch.line("f")
    expect(chunks).toEqual(["ab\ncd\n", "e\n", "f\n"])
  })
})
