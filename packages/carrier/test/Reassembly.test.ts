/**
 * Reassembly of concatenated inbound SMS, as laws: parts in any order and repeated give the text once, in sequence
 * order, when the last missing part arrives; messages of other senders, references or totals stay apart; a part
 * numbered outside its message never completes it; a partial message is handed on at its timeout, not before.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Reassembly from "../src/Reassembly.ts"

/** A message cut into 1–6 parts, and an order of arrival of them with some sent twice. */
const arrivals = fc.array(fc.string({ minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 6 }).chain((texts) =>
  fc.tuple(
    fc.constant(texts),
    fc.shuffledSubarray(texts.map((_, i) => i + 1), { minLength: texts.length, maxLength: texts.length }),
    fc.array(fc.nat(), { maxLength: 3 })
  )
)

const fragment = (from: string, reference: number, texts: ReadonlyArray<string>, sequence: number, token: number) =>
  ({ from, reference, total: texts.length, sequence, text: texts[sequence - 1] ?? "", token })

describe("Reassembly", () => {
  it("law: parts in any order, some twice, give the text once in sequence order when the last missing one arrives", () => {
    fc.assert(fc.property(arrivals, ([texts, order, picks]) => {
      const reassembler = Reassembly.make<number>(60_000)
      // Repeats of parts that came already, before the last new one (a repeat after completion starts another message).
      const before = order.slice(0, -1)
      const repeats = before.length === 0 ? [] : picks.map((pick) => before[pick % before.length] ?? 1)
      const sequence = [...before, ...repeats, ...order.slice(-1)]
      const results = sequence.map((part, token) => reassembler.add(fragment("447400123456", 7, texts, part, token), 0))
      expect(results.slice(0, -1).every((result) => result === undefined)).toBe(true)
      expect(results.at(-1)).toEqual({ from: "447400123456", text: texts.join(""), complete: true, missing: [], tokens: sequence.map((_, token) => token) })
      expect(reassembler.pending()).toBe(0)
    }))
  })

  it("law: messages of another sender, another reference or another total are kept apart", () => {
    fc.assert(fc.property(arrivals, ([texts, order]) => {
      fc.pre(texts.length >= 2)
      const reassembler = Reassembly.make<number>(60_000)
      const others = [
        fragment("447400999999", 7, texts, 1, -1),
        fragment("447400123456", 8, texts, 1, -2),
        { ...fragment("447400123456", 7, [...texts, "x"], 1, -3) }
      ]
      for (const other of others) expect(reassembler.add(other, 0)).toBeUndefined()
      const results = order.map((part, token) => reassembler.add(fragment("447400123456", 7, texts, part, token), 0))
      expect(results.at(-1)).toMatchObject({ text: texts.join(""), complete: true, tokens: order.map((_, token) => token) })
      expect(reassembler.pending()).toBe(others.length)
    }))
  })

  it("law: a part numbered outside its message (0, or past its total) never completes it", () => {
    fc.assert(fc.property(arrivals, fc.integer({ min: 0, max: 3 }), ([texts, order], past) => {
      const reassembler = Reassembly.make<number>(60_000)
      // An SMSC's SAR TLVs are not checked on the way in: sar_segment_seqnum 0 reaches the reassembler.
      const outside = past === 0 ? 0 : texts.length + past
      expect(reassembler.add(fragment("447400123456", 7, texts, outside, -1), 0)).toBeUndefined()
      const results = order.map((part, token) => reassembler.add(fragment("447400123456", 7, texts, part, token), 0))
      expect(results.slice(0, -1).every((result) => result === undefined)).toBe(true)
      expect(results.at(-1)).toMatchObject({ text: texts.join(""), complete: true, missing: [] })
    }))
  })

  it("hands on a partial message exactly when its timeout has passed since its first part, with the parts it lacks", () => {
    const reassembler = Reassembly.make<string>(1000)
    expect(reassembler.add({ from: "447400123456", reference: 1, total: 3, sequence: 2, text: "b", token: "t2" }, 100)).toBeUndefined()
    expect(reassembler.add({ from: "447400123456", reference: 1, total: 3, sequence: 3, text: "c", token: "t3" }, 600)).toBeUndefined()
    expect(reassembler.expire(1099)).toEqual([])
    expect(reassembler.expire(1100)).toEqual([{ from: "447400123456", text: "bc", complete: false, missing: [1], tokens: ["t2", "t3"] }])
    expect(reassembler.pending()).toBe(0)
  })
})
