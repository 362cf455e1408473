import { Fixtures } from "@smsbook/testing"
import { Result } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Contact from "../src/Contact.ts"
import * as CreatedOn from "../src/CreatedOn.ts"
import * as Message from "../src/Message.ts"
import * as Messaging from "../src/Messaging.ts"
import * as Wire from "../src/Wire.ts"

const optOutKeywords = ["STOP", "STOPALL", "UNSUBSCRIBE", "END", "QUIT", "CANCEL", "OPTOUT"]
const resubscribeKeywords = ["START", "UNSTOP"]

/** `word` with random letter case. */
const anyCase = (word: string): fc.Arbitrary<string> =>
  fc.array(fc.boolean(), { minLength: word.length, maxLength: word.length }).map((upper) =>
    [...word].map((char, i) => upper[i] ? char.toUpperCase() : char.toLowerCase()).join("")
  )

const blank = fc.string({ unit: fc.constantFrom(" ", "\t", "\n", "\r"), maxLength: 3 })

describe("Messaging.keywordAction", () => {
  it("law: an opt-out keyword in any case, alone but for surrounding blanks, asks to opt out", () => {
    fc.assert(fc.property(fc.constantFrom(...optOutKeywords).chain(anyCase), blank, blank, (word, before, after) => {
      expect(Messaging.keywordAction(before + word + after)).toBe("opt-out")
    }))
  })

  it("law: START or UNSTOP in any case, alone, asks to resubscribe", () => {
    fc.assert(fc.property(fc.constantFrom(...resubscribeKeywords).chain(anyCase), blank, blank, (word, before, after) => {
      expect(Messaging.keywordAction(before + word + after)).toBe("resubscribe")
    }))
  })

  it("law: a keyword with anything else in the text is no keyword", () => {
    // Anything but blanks and punctuation alone, which may surround a keyword (the law below).
    const other = fc.string({ minLength: 1, maxLength: 8 }).filter((s) => /[\p{L}\p{N}\p{S}]/u.test(s))
    fc.assert(fc.property(
      fc.constantFrom(...optOutKeywords, ...resubscribeKeywords),
      other,
      fc.boolean(),
      (word, extra, first) => {
        const text = first ? `${word} ${extra}` : `${extra} ${word}`
        expect(Messaging.keywordAction(text)).toBeUndefined()
      }
    ))
  })

  it("law: invisible format characters around a keyword (a right-to-left keyboard's marks, a zero-width space) are blanks too", () => {
    const invisible = fc.string({ unit: fc.constantFrom(" ", "\u200b", "\u200e", "\u200f", "\u202b", "\u202c", "\u2060", "\ufeff"), maxLength: 3 })
    fc.assert(fc.property(fc.constantFrom(...optOutKeywords).chain(anyCase), invisible, invisible, (word, before, after) => {
      expect(Messaging.keywordAction(before + word + after)).toBe("opt-out")
    }))
    expect(Messaging.keywordAction("\u200fSTOP\u200f")).toBe("opt-out")
    expect(Messaging.keywordAction("Stop\u200b")).toBe("opt-out")
    expect(Messaging.keywordAction("\u200bUNSTOP")).toBe("resubscribe")
    expect(Messaging.keywordAction("ST\u200bOP")).toBeUndefined()
    // An astral format character (a tag character) and a long run of blanks, as a concatenated MO may carry.
    expect(Messaging.keywordAction("\u{E0020}STOP\u{E0020}")).toBe("opt-out")
    expect(Messaging.keywordAction(`STOP${" ".repeat(40_000)}`)).toBe("opt-out")
    expect(Messaging.keywordAction(`S${" ".repeat(40_000)}STOP`)).toBeUndefined()
  })

  it("law: punctuation around a keyword (a keyboard's full stop, quotes, an exclamation) keeps it a keyword", () => {
    const marks = fc.string({ unit: fc.constantFrom(".", "!", "?", ",", "'", "\"", "«", "»", "¡", "¿", "…", "-", " "), maxLength: 3 })
    fc.assert(fc.property(fc.constantFrom(...optOutKeywords).chain(anyCase), marks, marks, (word, before, after) => {
      expect(Messaging.keywordAction(before + word + after)).toBe("opt-out")
    }))
    for (const text of ["Stop.", "STOP!", "\"stop\"", "¡Stop!", "Unsubscribe!!", "stop. "]) expect(Messaging.keywordAction(text)).toBe("opt-out")
  })

  it("law: a keyword typed in full-width letters (a Japanese or Chinese keyboard's Latin) is the same keyword", () => {
    const fullWidth = (word: string): string => word.replace(/[!-~]/g, (char) => String.fromCharCode(char.charCodeAt(0) + 0xfee0))
    fc.assert(fc.property(fc.constantFrom(...optOutKeywords).chain(anyCase), (word) => {
      expect(Messaging.keywordAction(fullWidth(word))).toBe("opt-out")
      expect(Messaging.keywordAction(`${fullWidth(word)}\u3002`)).toBe("opt-out")
    }))
    fc.assert(fc.property(fc.constantFrom(...resubscribeKeywords).chain(anyCase), (word) => {
      expect(Messaging.keywordAction(fullWidth(word))).toBe("resubscribe")
    }))
    expect(Messaging.keywordAction("ＳＴＯＰ")).toBe("opt-out")
    expect(Messaging.keywordAction("ｓｔｏｐ！")).toBe("opt-out")
    expect(Messaging.keywordAction("ＳＴＯＰ ＳＴＯＰ")).toBeUndefined()
  })

  it("law: a resubscribe keyword counts only as the bare word: with punctuation around it, it asks rather than says", () => {
    const marks = fc.string({ unit: fc.constantFrom(".", "!", "?", "'", "\"", "¿"), minLength: 1, maxLength: 3 })
    fc.assert(fc.property(fc.constantFrom(...resubscribeKeywords).chain(anyCase), marks, fc.boolean(), (word, mark, after) => {
      expect(Messaging.keywordAction(after ? word + mark : mark + word)).toBeUndefined()
    }))
    expect(Messaging.keywordAction(" start ")).toBe("resubscribe")
  })

  it("examples: near misses are no keyword", () => {
    for (const text of ["", "  ", "...", "S T O P", "S.T.O.P", "stopp", "please stop", "STOP STOP", "STOP 🛑", "OPT OUT", "UN STOP"]) {
      expect(Messaging.keywordAction(text)).toBeUndefined()
    }
  })
})

const contact = fc.record({
  status: fc.constantFrom(...Contact.statuses),
  tags: fc.array(fc.constantFrom("news", "NEWS", "Sport", "other", "newsletter"), { maxLength: 3 }),
  monitoring: fc.boolean()
}).map(({ monitoring, status, tags }): Contact.Contact => ({
  msisdn: "447400000001",
  phone_number: "7400000001",
  country_code: "44",
  first_name: "",
  last_name: "",
  full_name: "",
  added_from: "API",
  status,
  tags,
  profile_uid: "00",
  monitoring
}))

const wanted: fc.Arbitrary<ReadonlyArray<string>> = fc.uniqueArray(fc.constantFrom("news", "sport", "other"), { minLength: 1 })

describe("Message.checkText", () => {
  it("law: a text of blanks alone (any Unicode white space, invisible format characters) is refused, naming the field", () => {
    const space = fc.constantFrom(" ", "\t", "\n", "\r", "\u00a0", "\u2003", "\u3000", "\ufeff", "\u200b", "\u200e", "\u200f", "\u2060")
    fc.assert(fc.property(fc.string({ unit: space, maxLength: 6 }), fc.constantFrom("message", "--message"), (text, field) => {
      const checked = Message.checkText(text, field)
      expect(Result.isFailure(checked) && checked.failure.field).toBe(field)
    }))
  })

  it("law: well-formed text with something to say is kept as it is; a lone surrogate or U+FFFD anywhere is refused", () => {
    fc.assert(fc.property(fc.string({ unit: "grapheme", minLength: 1 }).filter((text) => !/^[\s\p{Cf}]*$/u.test(text) && !text.includes("\ufffd")), fc.nat(), (text, at) => {
      expect(Message.checkText(text)).toEqual(Result.succeed(text))
      const cut = at % (text.length + 1)
      for (const bad of ["\ud83d", "\ude00", "\ufffd"]) {
        expect(Result.isFailure(Message.checkText(text.slice(0, cut) + bad + text.slice(cut)))).toBe(true)
      }
    }))
  })
})

describe("Message.checkText control characters", () => {
  it("law: a C0 control other than tab, LF, CR or FF (GSM-7's own), or DEL, anywhere in the text, is refused; those four are kept", () => {
    const controls = [...Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)), "\u007f"].filter((c) => !"\t\n\r\f".includes(c))
    fc.assert(fc.property(fc.constantFrom(...controls), fc.nat(), (control, at) => {
      const text = "Doors open\tat 9\r\nSee you\f"
      const cut = at % (text.length + 1)
      const checked = Message.checkText(text.slice(0, cut) + control + text.slice(cut))
      expect(Result.isFailure(checked) && checked.failure.reason).toMatch(/control character U\+00[0-9A-F]{2}/)
      expect(Message.checkText(text)).toEqual(Result.succeed(text))
    }))
  })
})

describe("Messaging.roleOf", () => {
  it("law: only SUBSCRIBED or CONFIRMED contacts are reached; a CANCELLED or INVITED one never is", () => {
    fc.assert(fc.property(wanted, contact, (tags, c) => {
      const role = Messaging.roleOf(new Set(tags))(c)
      if (c.status === "CANCELLED" || c.status === "INVITED") expect(role).toBeUndefined()
    }))
  })

  it("law: a receiving contact is a recipient iff it carries a wanted tag (any case), else a monitor iff monitoring", () => {
    fc.assert(fc.property(wanted, contact.filter((c) => Contact.receivesGroupMessages(c.status)), (tags, c) => {
      const carries = c.tags.some((tag) => tags.includes(tag.toLowerCase()))
      const expected = carries ? "recipient" : c.monitoring ? "monitor" : undefined
      expect(Messaging.roleOf(new Set(tags))(c)).toBe(expected)
    }))
  })

  it("a monitor who is also a recipient is a recipient (counted once); an INVITED monitor gets nothing", () => {
    fc.assert(fc.property(contact, (c) => {
      expect(Messaging.roleOf(new Set(["news"]))({ ...c, status: "CONFIRMED", monitoring: true, tags: ["News"] })).toBe("recipient")
      expect(Messaging.roleOf(new Set(["news"]))({ ...c, status: "INVITED", monitoring: true })).toBeUndefined()
    }))
  })
})

describe("Message.transition", () => {
  const flows: Record<Message.Type, ReadonlyArray<Message.Status>> = {
    1: ["READY", "SENT"],
    2: ["PENDING", "PROCESSING", "READY", "SENT"]
  }

  it("law: a message moves only one step forward along its type's flow; everything else is IllegalTransition", () => {
    fc.assert(fc.property(
      fc.constantFrom(Message.INDIVIDUAL, Message.GROUP),
      fc.constantFrom(...Message.statuses),
      fc.constantFrom(...Message.statuses),
      (type, from, to) => {
        const flow = flows[type]
        const allowed = flow.includes(from) && flow.indexOf(to) === flow.indexOf(from) + 1
        const result = Message.transition(type, from, to)
        if (allowed) expect(result).toEqual(Result.succeed(to))
        else expect(Result.isFailure(result) && result.failure._tag === "IllegalTransition").toBe(true)
      }
    ))
  })

  it("an individual message starts READY, a group message PENDING", () => {
    expect(Message.initialStatus(Message.INDIVIDUAL)).toBe("READY")
    expect(Message.initialStatus(Message.GROUP)).toBe("PENDING")
  })
})

describe("Message.sameNumber", () => {
  /** One number as people write it: bare digits, with its `+`, grouped with spaces or dashes. */
  const written = (n: number) =>
    fc.constantFrom("", "+").chain((plus) =>
      fc.constantFrom("", " ", "-").map((sep) => {
        const digits = Fixtures.msisdn(n)
        return plus + [digits.slice(0, 2), digits.slice(2, 6), digits.slice(6)].join(sep)
      })
    )

  it("law: two writings of one number agree, in either order; writings of two numbers do not", () => {
    const pair = fc.tuple(fc.nat(999_999), fc.nat(999_999), fc.boolean())
      .chain(([n, m, same]) => fc.tuple(fc.constant(n === (same ? n : m)), written(n), written(same ? n : m)))
    fc.assert(fc.property(pair, ([one, a, b]) => {
      expect(Message.sameNumber(a, b)).toBe(one)
      expect(Message.sameNumber(b, a)).toBe(one)
    }))
  })

  it("examples: a text that is no number agrees only with itself", () => {
    expect(Message.sameNumber("not a number", "not a number")).toBe(true)
    expect(Message.sameNumber("not a number", "not  a number")).toBe(false)
    expect(Message.sameNumber("+44 7400 123456", "447400123456")).toBe(true)
  })
})

describe("Messaging.toWire", () => {
  // A PENDING group message of short code 60777, created 999 ms past a whole second.
  const stored: Message.Stored = Fixtures.groupMessage("0001", ["news"], {
    message: "Hi",
    created_at: Date.UTC(2026, 10, 21, 10, 15, 0, 999)
  })

  it("optional fields are absent, never undefined or null; created_on is in the zone, to the second", () => {
    const wire = Messaging.toWire(stored, CreatedOn.utc)
    expect(Object.keys(wire).sort()).toEqual([
      "created_on",
      "direction",
      "error_count",
      "is_billable",
      "is_scheduled",
      "message",
      "message_id",
      "sent_count",
      "short_code",
      "status",
      "total_monitors",
      "total_recipients",
      "type"
    ])
    expect(wire.created_on).toBe("2026-11-21 10:15:00")
    expect(Messaging.toWire(stored, Result.getOrThrow(CreatedOn.zone("Asia/Tokyo"))).created_on).toBe("2026-11-21 19:15:00")
  })

  it("law: the wire shape of any stored message reads back unchanged with the interface's Message schema", () => {
    const decode = Wire.decoder(Message.Message)
    fc.assert(fc.property(
      fc.record({
        id: fc.option(fc.string({ maxLength: 40 }), { nil: undefined }),
        msisdn: fc.option(fc.constantFrom("447400000001", "12125550123"), { nil: undefined }),
        status: fc.constantFrom(...Message.statuses),
        direction: fc.constantFrom("MT" as const, "MO" as const),
        type: fc.constantFrom(Message.INDIVIDUAL, Message.GROUP),
        is_billable: fc.boolean(),
        created_at: fc.integer({ min: 0, max: 4_000_000_000_000 })
      }),
      ({ id, msisdn, ...fields }) => {
        const wire = Messaging.toWire({
          ...stored,
          ...fields,
          ...(id === undefined ? {} : { id }),
          ...(msisdn === undefined ? {} : { msisdn, country: msisdn.startsWith("44") ? "44" : "1", created_by: "first" })
        }, CreatedOn.utc)
        expect(Object.values(wire)).not.toContain(undefined)
        expect(decode(wire)).toEqual(Result.succeed(wire))
      }
    ))
  })
})
