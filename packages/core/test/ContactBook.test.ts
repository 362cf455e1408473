import { Fixtures } from "@smsbook/testing"
import { Effect, Result } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Contact from "../src/Contact.ts"
import * as ContactBook from "../src/ContactBook.ts"
import { ContactStore } from "../src/ContactStore.ts"
import * as MemoryStore from "../src/MemoryStore.ts"
import * as Msisdn from "../src/Msisdn.ts"

const number = Result.getOrThrow(Msisdn.parse("447400000001"))
const name = fc.string({ unit: fc.constantFrom("a", "B", " ", "\u00e9"), maxLength: 5 })
const tags = fc.array(fc.constantFrom("news", "NEWS", " vip ", "", "Sport"), { maxLength: 4 })

const stored: fc.Arbitrary<Contact.Contact> = fc.record({
  first_name: name.map((s) => s.trim()),
  last_name: name.map((s) => s.trim()),
  status: fc.constantFrom(...Contact.statuses),
  added_from: fc.constantFrom("WEB_FORM", "API", "FILE_UPLOAD", "SMS", "SUBSCRIPTION_REQUEST" as const),
  tags: tags.map(Contact.normalizeTags),
  monitoring: fc.boolean(),
  profile_uid: fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 1, maxLength: 32 })
}).map((fields) => ({
  msisdn: number,
  phone_number: "7400000001",
  country_code: "44",
  full_name: Contact.fullName(fields.first_name, fields.last_name),
  ...fields
}))

const row: fc.Arbitrary<ContactBook.Candidate> = fc.record({
  first_name: name.map((s) => s.trim()),
  last_name: name.map((s) => s.trim()),
  tags
}).map((fields) => ({ msisdn: number, country_code: "44", phone_number: "7400000001", ...fields }))

const options = fc.record({ blankErases: fc.boolean() })

describe("ContactBook.merge (the import rule)", () => {
  it("law: only names, full_name and tags change — status (CANCELLED stays CANCELLED), keys and flags are kept", () => {
    fc.assert(fc.property(stored, row, options, (s, r, o) => {
      const merged = ContactBook.merge(s, r, o)
      const { first_name: _f, full_name: _n, last_name: _l, tags: _t, ...kept } = merged
      const { first_name: _f2, full_name: _n2, last_name: _l2, tags: _t2, ...before } = s
      expect(kept).toEqual(before)
    }))
  })

  it("law: a name from the row replaces the stored one; a blank keeps it unless blankErases; full_name follows", () => {
    fc.assert(fc.property(stored, row, options, (s, r, o) => {
      const merged = ContactBook.merge(s, r, o)
      expect(merged.first_name).toBe(r.first_name !== "" || o.blankErases ? r.first_name : s.first_name)
      expect(merged.last_name).toBe(r.last_name !== "" || o.blankErases ? r.last_name : s.last_name)
      expect(merged.full_name).toBe([merged.first_name, merged.last_name].filter((n) => n !== "").join(" "))
    }))
  })

  it("law: tags are added, never removed: the stored ones first, then the row's new ones, each once in any case", () => {
    fc.assert(fc.property(stored, row, options, (s, r, o) => {
      const merged = ContactBook.merge(s, r, o)
      expect(merged.tags.slice(0, s.tags.length)).toEqual(s.tags)
      const lower = merged.tags.map((t) => t.toLowerCase())
      expect(new Set(lower).size).toBe(lower.length)
      for (const tag of r.tags.map((t) => t.trim()).filter((t) => t !== "")) expect(lower).toContain(tag.toLowerCase())
    }))
  })

  it("law: merging the same row again changes nothing (a re-run import is all unchanged)", () => {
    fc.assert(fc.property(stored, row, options, (s, r, o) => {
      const once = ContactBook.merge(s, r, o)
      expect(Contact.equals(ContactBook.merge(once, r, o), once)).toBe(true)
    }))
  })
})

describe("Contact.transition (the status machine)", () => {
  const expected: Record<Contact.Move, Partial<Record<Contact.Status, Contact.Status>>> = {
    "confirm": { INVITED: "CONFIRMED" },
    "subscribe": { CONFIRMED: "SUBSCRIBED" },
    "opt-out": { SUBSCRIBED: "CANCELLED", INVITED: "CANCELLED", CONFIRMED: "CANCELLED", CANCELLED: "CANCELLED" },
    "resubscribe": { CANCELLED: "SUBSCRIBED", SUBSCRIBED: "SUBSCRIBED" }
  }

  it("every (status, move) pair: the allowed ones land where DESIGN.md says, the rest are IllegalTransition", () => {
    for (const from of Contact.statuses) {
      for (const move of ["confirm", "subscribe", "opt-out", "resubscribe"] as const) {
        const to = expected[move][from]
        const result = Contact.transition(from, move)
        if (to === undefined) expect(Result.isFailure(result) && result.failure._tag).toBe("IllegalTransition")
        else expect(result).toEqual(Result.succeed(to))
      }
    }
  })

  it("only an explicit resubscribe leaves CANCELLED", () => {
    for (const move of ["confirm", "subscribe", "opt-out"] as const) {
      const result = Contact.transition("CANCELLED", move)
      expect(Result.isSuccess(result) ? result.success : "CANCELLED").toBe("CANCELLED")
    }
  })
})

describe("Contact.fullName", () => {
  it("law: the trimmed names that are not blank, first then last, joined by one space: never a leading or trailing space", () => {
    fc.assert(fc.property(name, name, (first, last) => {
      const full = Contact.fullName(first, last)
      expect(full).toBe(full.trim())
      expect(full.includes("  ") && !`${first.trim()}${last.trim()}`.includes("  ")).toBe(false)
      expect(full.startsWith(first.trim())).toBe(true)
      expect(full.endsWith(last.trim())).toBe(true)
      expect(full.length).toBe(first.trim().length + last.trim().length + (first.trim() !== "" && last.trim() !== "" ? 1 : 0))
    }))
  })

  it("examples: the interface's sample, and blanks", () => {
    expect(Contact.fullName("Anne", "Smith")).toBe("Anne Smith")
    expect(Contact.fullName(" Anne ", "  ")).toBe("Anne")
    expect(Contact.fullName("", " Smith")).toBe("Smith")
    expect(Contact.fullName(" ", "")).toBe("")
  })
})

describe("Contact.normalizeTags", () => {
  it("law: tags come out well-formed, trimmed, non-blank and distinct in any case, in first-seen order", () => {
    fc.assert(fc.property(fc.array(fc.string({ unit: "binary", maxLength: 6 }), { maxLength: 8 }), (raw) => {
      const tags = Contact.normalizeTags(raw)
      for (const tag of tags) expect([tag, tag.isWellFormed(), tag === tag.trim(), tag !== ""]).toEqual([tag, true, true, true])
      expect(new Set(tags.map((tag) => tag.toLowerCase())).size).toBe(tags.length)
      expect(tags).toEqual(Contact.normalizeTags(tags))
    }))
    // A lone surrogate is kept as U+FFFD, as every store keeps it.
    expect(Contact.normalizeTags(["a\ud800", " news "])).toEqual(["a\ufffd", "news"])
  })
})

describe("Contact's bounds (names, tags)", () => {
  const isFailure = (result: Result.Result<void, unknown>) => Result.isFailure(result)

  it("law: a name is refused exactly when it is longer than maxNameLength once trimmed, unless it is the one kept", () => {
    const around = fc.integer({ min: Contact.maxNameLength - 2, max: Contact.maxNameLength + 2 })
    fc.assert(fc.property(around, fc.nat({ max: 3 }), fc.constantFrom("first_name", "last_name"), fc.boolean(), (length, pad, field, kept) => {
      const name = " ".repeat(pad) + "é".repeat(length) + " ".repeat(pad)
      const stored = { first_name: "", last_name: "", [field]: kept ? name : "" }
      const refused = Contact.checkNames({ [field]: name }, stored)
      expect(isFailure(refused)).toBe(length > Contact.maxNameLength && !kept)
      if (Result.isFailure(refused)) expect(refused.failure).toMatchObject({ field, value: name })
    }))
  })

  it("law: tags are refused exactly when more than maxTags are distinct, unless as many are kept already", () => {
    fc.assert(fc.property(
      fc.integer({ min: Contact.maxTags - 2, max: Contact.maxTags + 2 }),
      fc.nat({ max: 5 }),
      fc.integer({ min: 0, max: Contact.maxTags + 3 }),
      (distinct, repeats, kept) => {
        // Repeats in another case are one tag: only distinct tags count.
        const tags = [...Array.from({ length: distinct }, (_, i) => `t${i}`), ...Array.from({ length: repeats }, (_, i) => `T${i}`)]
        const refused = Contact.checkTags(tags, Array.from({ length: kept }, (_, i) => `k${i}`))
        expect(isFailure(refused)).toBe(distinct > Math.max(Contact.maxTags, kept))
        if (Result.isFailure(refused)) expect(refused.failure).toMatchObject({ field: "tags", value: `${distinct} tags` })
      }
    ))
  })

  it("law: a new tag or name that an export and an import would not give back (a separator of tags, a control character) is refused", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "B", " ", "é", ",", ";", "|", "\t", "\n", "\u001b", "\u0085", "\u009b", "*", ":"), minLength: 1, maxLength: 8 })
    fc.assert(fc.property(text, fc.boolean(), (value, kept) => {
      const moves = !/[,;|\u0000-\u001f\u007f-\u009f]/.test(value.trim())
      const tags = Contact.checkTags([value], kept ? [value] : [])
      expect(isFailure(tags)).toBe(!moves && !kept)
      if (Result.isFailure(tags)) expect(tags.failure).toMatchObject({ field: "tags.0", value })
      const names = Contact.checkNames({ first_name: value }, { first_name: kept ? value : "", last_name: "" })
      expect(isFailure(names)).toBe(/[\u0000-\u001f\u007f-\u009f]/.test(value) && !kept)
    }))
  })
})

describe("Contact.applyEdit", () => {
  it("law: only the edited fields change; full_name is recomputed; tags are normalised", () => {
    const edit = fc.record({
      first_name: name,
      last_name: name,
      tags,
      monitoring: fc.boolean()
    }, { requiredKeys: [] })
    fc.assert(fc.property(stored, edit, (s, e) => {
      const edited = Contact.applyEdit(s, e)
      expect(edited).toEqual({
        ...s,
        first_name: e.first_name?.trim() ?? s.first_name,
        last_name: e.last_name?.trim() ?? s.last_name,
        full_name: Contact.fullName(e.first_name ?? s.first_name, e.last_name ?? s.last_name),
        tags: e.tags === undefined ? s.tags : Contact.normalizeTags(e.tags),
        monitoring: e.monitoring ?? s.monitoring
      })
      expect(edited.full_name).toBe(edited.full_name.trim())
    }))
  })

  it("law: an edited name is stored trimmed, as a create or an import stores it (blanks alone are the empty name)", () => {
    fc.assert(fc.property(stored, name, name, (s, first, last) => {
      const edited = Contact.applyEdit(s, { first_name: first, last_name: last })
      expect([edited.first_name, edited.last_name]).toEqual([first.trim(), last.trim()])
    }))
  })

  it("example: the sample edit (4.7) with stray blanks stores the names as the create did", () => {
    const created = Contact.applyEdit({ ...Fixtures.contact(1), first_name: "Ann", last_name: "Lee", full_name: "Ann Lee" }, {
      first_name: " Anne ",
      last_name: "Leigh  "
    })
    expect([created.first_name, created.last_name, created.full_name]).toEqual(["Anne", "Leigh", "Anne Leigh"])
  })
})

describe("ContactBook.nextTags", () => {
  const given = fc.array(fc.constantFrom("news", "NEWS", " vip ", "VIP", "", " ", "Sport", "trial "), { maxLength: 5 })
  const change = fc.record({ set: fc.option(given, { nil: undefined }), added: given, removed: given })

  it("law: a removed tag is gone, in any case and whatever blanks surround it; every other kept or added tag stays, once and trimmed", () => {
    fc.assert(fc.property(given.map(Contact.normalizeTags), change, (current, c) => {
      const next = ContactBook.nextTags(current, c)
      const keys = next.map((tag) => tag.toLowerCase())
      const removed = new Set(c.removed.map((tag) => tag.trim().toLowerCase()))
      for (const key of removed) expect(keys).not.toContain(key)
      const kept = [...(c.set ?? current), ...c.added].map((tag) => tag.trim().toLowerCase()).filter((key) => key !== "" && !removed.has(key))
      expect(new Set(keys)).toEqual(new Set(kept))
      expect(new Set(keys).size).toBe(keys.length)
      for (const tag of next) expect(tag).toBe(tag.trim())
    }))
  })

  it("example: --remove-tags \" vip \" takes VIP away; an added tag is kept once", () => {
    expect(ContactBook.nextTags(["News", "VIP"], { added: [" trial ", "news"], removed: [" vip "] })).toEqual(["News", "trial"])
  })
})

describe("ContactBook status moves (DESIGN: INVITED → CONFIRMED → SUBSCRIBED)", () => {
  const statusAfter = (from: Contact.Status, moves: ReadonlyArray<(msisdn: string) => Effect.Effect<Contact.Contact, unknown, ContactStore>>) =>
    Effect.runPromise(Effect.gen(function*() {
      const store = yield* ContactStore
      yield* store.insert(Fixtures.contact(1, { status: from }))
      for (const move of moves) {
        const moved = yield* Effect.result(move(Fixtures.msisdn(1)))
        if (Result.isFailure(moved)) return "refused"
      }
      return (yield* ContactBook.getContact(Fixtures.msisdn(1))).status
    }).pipe(Effect.provide(MemoryStore.layer)))

  it("example: an invited contact is confirmed, then subscribed", async () => {
    expect(await statusAfter("INVITED", [ContactBook.confirm, ContactBook.subscribe])).toBe("SUBSCRIBED")
  })

  it("law: subscribe moves CONFIRMED only; a CANCELLED contact comes back only by resubscribe", async () => {
    for (const from of Contact.statuses) {
      expect([from, await statusAfter(from, [ContactBook.subscribe])]).toEqual([from, from === "CONFIRMED" ? "SUBSCRIBED" : "refused"])
    }
  })
})
