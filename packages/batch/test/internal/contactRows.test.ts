/**
 * A file of the interface's own shape (`msisdn` and `country_code`, as both exports write it) reads an MSISDN as the
 * interface means it, however a spreadsheet wrote the digits; any other file, and a number that makes no valid MSISDN,
 * keeps the reading policy.
 */
import * as Msisdn from "@smsbook/core/Msisdn"
import { Result } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as ContactRows from "../../src/internal/contactRows.ts"
import * as PhoneCells from "../../src/internal/phoneCells.ts"
import * as Columns from "../../src/internal/csv/columns.ts"
import { validNumbers } from "../validNumbers.ts"

/** What a row of a file with `header` reads as: the stored number, or the refusal's reason. */
const reader = (header: ReadonlyArray<string>) => {
  const matched = Columns.match(header)
  if (Result.isFailure(matched)) throw new Error(String(matched.failure))
  const context: ContactRows.Context = { columns: matched.success, defaultCountry: undefined, tags: [] }
  return (number: string, country: string): string => {
    const read = ContactRows.read([number, country], context)
    return read._tag === "Candidate" ? read.candidate.msisdn : read._tag === "Reject" ? read.reason : "blank"
  }
}

const interfaceShaped = reader(["msisdn", "country_code"])
const anyOther = reader(["Phone", "Country"])

describe("a file of the interface's shape", () => {
  const numbers = validNumbers()

  it("law: every valid MSISDN reads as itself beside its calling code: bare, spaced, or in a spreadsheet's text form", () => {
    fc.assert(fc.property(fc.constantFrom(...numbers), fc.constantFrom("bare", "spaced", "formula", "apostrophe"), (msisdn, form) => {
      const { country_code, phone_number } = Msisdn.split(msisdn)
      const written = form === "bare" ? msisdn : form === "spaced" ? `${country_code} ${phone_number}` : form === "formula" ? `="${msisdn}"` : `'${msisdn}`
      expect(interfaceShaped(written, country_code)).toBe(msisdn)
    }), { numRuns: 2000 })
  })

  it("law: digits that make no valid MSISDN with the row's calling code are read by the policy, as in any other file", () => {
    fc.assert(fc.property(fc.constantFrom(...numbers), (msisdn) => {
      const { country_code, phone_number } = Msisdn.split(msisdn)
      // The national number beside its calling code: an MSISDN only where the digits happen to begin with the code.
      const asMsisdn = Msisdn.reading(`+${phone_number}`, {})
      fc.pre(!phone_number.startsWith(country_code) || typeof asMsisdn === "string")
      expect(interfaceShaped(phone_number, country_code)).toBe(anyOther(phone_number, country_code))
    }), { numRuns: 2000 })
  })

  it("examples: the Italian landline an export writes, and the same digits in a file of other headers", () => {
    expect(interfaceShaped("3903005679", "39")).toBe("3903005679")
    expect(interfaceShaped("39 0300 5679", "+39")).toBe("3903005679")
    // Written nationally beside a country, the same digits are the mobile (the policy's choice between two readings).
    expect(anyOther("3903005679", "39")).toBe("393903005679")
    // A national mobile under `msisdn`: +39 21234567 is no number, so the policy reads it.
    expect(interfaceShaped("3921234567", "39")).toBe("393921234567")
  })
})

describe("a cell holding several numbers", () => {
  const numbers = validNumbers()
  const separators = [" ::: ", " / ", "; ", ", ", " | ", "\n", " or ", " "]

  it("law: of several valid numbers in one cell, the first is the row's, noted; never one made of their digits", () => {
    fc.assert(fc.property(fc.constantFrom(...numbers), fc.constantFrom(...numbers), fc.constantFrom(...separators), (first, second, separator) => {
      const read = ContactRows.read([`+${first}${separator}+${second}`, ""], { columns: Result.getOrThrow(Columns.match(["Phone", "Country"])), defaultCountry: undefined, tags: [] })
      expect(read).toMatchObject({ _tag: "Candidate", candidate: { msisdn: first } })
      expect(read._tag === "Candidate" && read.notes.includes("first-of-several")).toBe(true)
    }), { numRuns: 500 })
  })

  it("examples: the first that reads; a `/` or `,` of one number is not a list", () => {
    expect(PhoneCells.severalNumbers("030 1234 / 030 5678")).toEqual(["030 1234", "030 5678"])
    expect(PhoneCells.severalNumbers("not a number / 07400 123456")).toBeUndefined()
    for (const one of ["030/1234567", "0171/1234567", "020 7946 0018, ext. 123", "4,47E+11", "+49 (0)30 / 1234567", "07400 123456"]) {
      expect([one, PhoneCells.severalNumbers(one)]).toEqual([one, undefined])
    }
    const read = reader(["Phone", "Country"])
    expect(read("07400 12345 / 07400 123456", "GB")).toBe("447400123456")
    expect(read("07400 12345 / 07400 1234", "GB")).toBe("too-long")
    // A German mobile written with its area code apart reads whole: a later part that does not start afresh is no number.
    expect(read("015511/819377", "DE")).toBe("4915511819377")
    expect(read("030 1234 / 030 5678", "DE")).toBe("49301234")
  })
})

describe("tags of a cell", () => {
  it("quotes around a tag come off (Mailchimp's `\"VIP\",\"Customer\"`); Google's own groups are dropped", () => {
    expect(ContactRows.splitTags('"VIP","Customer"')).toEqual(["VIP", "Customer"])
    expect(ContactRows.splitTags('* myContacts ::: "Friends" ::: * starred')).toEqual(["Friends"])
    // In `contacts export`'s own file, `* starred` is a tag a book holds: it moves with the book.
    expect(ContactRows.splitTags("x,* starred", true)).toEqual(["x", "* starred"])
  })
})

describe("rows that are no contact", () => {
  it("the header repeated (exports joined one after the other) is skipped as a blank line is; a row like it is not", () => {
    const context: ContactRows.Context = { columns: Result.getOrThrow(Columns.match(["Name", "Mobile"])), defaultCountry: "GB", tags: [] }
    expect(ContactRows.read(["Name", "Mobile"], context)).toEqual({ _tag: "Blank" })
    expect(ContactRows.read([" Name ", "Mobile"], context)).toEqual({ _tag: "Blank" })
    expect(ContactRows.read(["Ann", "Mobile"], context)).toMatchObject({ _tag: "Reject", reason: "not-a-number" })
  })
})

describe("a phone column's label", () => {
  it("the phone its label says is a mobile is the row's number (Google Contacts' Phone N - Label), whatever its place", () => {
    const header = ["Name", "Phone 1 - Label", "Phone 1 - Value", "Phone 2 - Type", "Phone 2 - Value"]
    const context: ContactRows.Context = { columns: Result.getOrThrow(Columns.match(header)), defaultCountry: "GB", tags: [] }
    const number = (fields: ReadonlyArray<string>) => {
      const read = ContactRows.read(fields, context)
      return read._tag === "Candidate" ? [read.candidate.msisdn, read.notes] : read._tag
    }
    expect(number(["Bob", "Home", "020 7946 0018", "Mobile", "07400 222222"])).toEqual(["447400222222", []])
    expect(number(["Ann", "Mobile", "07400 111111", "Home", "020 7946 0018"])).toEqual(["447400111111", []])
    // No label says mobile, or the mobile's cell is empty: the columns' own order.
    expect(number(["Cy", "Home", "020 7946 0018", "Work", "07400 333333"])).toEqual(["442079460018", []])
    expect(number(["Di", "Home", "020 7946 0018", "Mobile", ""])).toEqual(["442079460018", []])
    // A mobile that does not read leaves the others as fallbacks.
    expect(number(["Ed", "Home", "020 7946 0018", "Mobile", "nope"])).toEqual(["442079460018", ["phone-from-fallback-column"]])
  })
})

describe("a label written with a number", () => {
  const read = (number: string, defaultCountry: string, context: Partial<ContactRows.Context> = {}) => {
    const result = ContactRows.read([number], { columns: Result.getOrThrow(Columns.match(["Phone"])), defaultCountry, tags: [], ...context })
    return result._tag === "Candidate" ? [result.candidate.msisdn, result.notes] : result._tag === "Reject" ? result.reason : "blank"
  }

  it("is left out and noted: before the number, or set apart after a whole one", () => {
    expect(read("Mob: 07400 123456", "GB")).toEqual(["447400123456", ["label-dropped"]])
    expect(read("M: 07400 123456", "GB")).toEqual(["447400123456", ["label-dropped"]])
    expect(read("0664 123456 home", "AT")).toEqual(["43664123456", ["label-dropped"]])
    expect(read("030 1234567 (privat)", "DE")).toEqual(["49301234567", ["label-dropped"]])
  })

  it("that names a country, another's number or is a look-alike is no label: the cell is refused, never read in the default country", () => {
    for (const [number, country] of [
      ["UK: 07400 123456", "DE"], ["(201) 555-0123 US", "GB"], ["Deutschland: 0171 1234567", "AT"], ["0664 123456 Austria", "DE"],
      ["Fax 020 7946 0018", "GB"], ["020 7946 0018 (fax)", "GB"], ["0664 123456 O", "AT"], ["O (964) 237-66-48", "RU"]
    ] as const) {
      expect([number, read(number, country)]).toEqual([number, expect.stringMatching(/^(?:not-a-number|letter-in-number)$/)])
    }
  })

  it("of several numbers in a cell, the one labelled mobile is the row's", () => {
    expect(read("Home: 020 7946 0019 / Mob: 07400 123458", "GB")).toEqual(["447400123458", ["label-dropped", "first-of-several"]])
    expect(read("Fax: 030 1234567 / Mobil: 0171 1234567", "DE")).toEqual(["491711234567", ["label-dropped", "first-of-several"]])
  })

  it("in a suppression list, a cell of several numbers is refused whole: an opt-out is never taken in part", () => {
    expect(read("07400 300001 / 07400 300002", "GB", { numbersOnly: true })).toBe("too-long")
  })
})
