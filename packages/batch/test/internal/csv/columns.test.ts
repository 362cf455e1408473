/**
 * Which column of a contact file holds which field: headers matched by their spellings in any case, spacing,
 * punctuation or accents, else by their whole words (a country's, a phone number's, not its companions'); a spelling
 * before words, a mobile before other phone columns; the columns not read listed once.
 */
import { Result } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Columns from "../../../src/internal/csv/columns.ts"

/** The message `Columns.match` refuses `header` with; a header it reads fails the test. */
const refusal = (header: ReadonlyArray<string>): string => {
  const matched = Columns.match(header)
  if (Result.isSuccess(matched)) throw new Error(`read as columns: ${JSON.stringify(header).slice(0, 80)}`)
  return matched.failure.message
}

describe("header matching", () => {
  it("a header name matches its field in any case, spacing, punctuation or accents", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(
          ["Mobile Number", "msisdn"],
          ["Phone 1 - Value", "msisdn"],
          ["Business Phone", "msisdn"],
          ["first_name", "first_name"],
          ["PRÉNOM", "first_name"],
          ["Family-Name", "last_name"],
          ["Country Code", "country"],
          ["Country/Region", "country"],
          ["Country Name", "country"],
          ["country_iso2", "country"],
          ["Nation", "country"],
          ["Groups", "tags"],
          ["Full Name", "name"]
        ),
        fc.constantFrom("", " ", "_", "-", "."),
        ([name, field], noise) => {
          expect(Columns.fieldOf(name.replaceAll(" ", noise))).toBe(field)
          expect(Columns.fieldOf(name.toLowerCase())).toBe(field)
        }
      )
    )
  })

  it("headers no spelling names whole are read by their words: a country's, a phone number's (not its companions')", () => {
    const expected: ReadonlyArray<readonly [string, Columns.Field | undefined]> = [
      ["Mailing Country", "country"], ["Country ISO Code", "country"], ["ISO Country", "country"], ["Country of residence", "country"],
      ["Country/Territory", "country"], ["Billing Country", "country"], ["Paese", "country"], ["Страна", "country"], ["国家", "country"],
      ["Ülke", "country"], ["Kraj", "country"], ["Negara", "country"],
      ["Phone 1", "msisdn"], ["Mobile 1", "msisdn"], ["Mobile Phone 1", "msisdn"], ["Primary Phone Number", "msisdn"],
      ["Contact No.", "msisdn"], ["Phone Number (Mobile)", "msisdn"], ["WhatsApp", "msisdn"], ["Celular", "msisdn"], ["Móvil", "msisdn"],
      ["Telefone", "msisdn"], ["Telemóvel", "msisdn"], ["Telefonnummer", "msisdn"], ["Mobilnummer", "msisdn"], ["Handynummer", "msisdn"],
      ["Mobiel", "msisdn"], ["Телефон", "msisdn"], ["Cellulare", "msisdn"], ["Numéro de téléphone", "msisdn"], ["E.164", "msisdn"],
      ["Tel. domicile", "msisdn"],
      ["Groupes", "tags"], ["Gruppen", "tags"], ["Grupos", "tags"], ["Group Membership", "tags"],
      ["Nome", "first_name"], ["Cognome", "last_name"], ["Имя", "first_name"], ["Фамилия", "last_name"], ["Voornaam", "first_name"], ["Achternaam", "last_name"],
      // A phone number's companions are not the number; nor is a messenger's handle; words are whole words.
      ["Phone 1 - Type", undefined], ["Phone Extension", undefined], ["Mobile Phone Label", undefined], ["Telegram", undefined],
      ["Email", undefined], ["Cancellation Date", undefined], ["Cancelled", undefined], ["Data cancellazione", undefined],
      ["Phonetic First Name", undefined], ["Cell ID", undefined], ["Mobile Operator", undefined], ["Mobile Network", undefined],
      ["Phone Verified", undefined], ["Telephone Type", undefined], ["Cell Phone Carrier", undefined], ["Mobile Opt-in", "sms_consent"],
      ["Accepts SMS Marketing", "sms_consent"],
      // A country word beside another than an address's, a code's or a name's word, or a phone word, is no country
      // column: a destination, an origin, an IP address's country are not the phone's.
      ["Country Manager", undefined], ["Mobile Country Code", undefined], ["Countryside", undefined], ["Destination Country", undefined],
      ["Country of Origin", undefined], ["Birth Country", undefined], ["IP Country", undefined], ["Land/Region privat", "country"],
      // Numbers that are not the contact's own to text, and a header that only ends with a number.
      ["Assistant's Phone", undefined], ["Emergency Contact Phone", undefined], ["TTY/TDD Phone", undefined], ["Company Main Phone", undefined],
      ["Last 4", undefined], ["Telefoon", "msisdn"], ["Mobiele telefoon", "msisdn"], ["Mobiltelefon", "msisdn"],
      // Run together in capitals (Salesforce's Data Loader); a company's switchboard in Outlook's other languages; a
      // region is no country (Mailchimp's `REGION` holds US states: `IN`, `CO`, `DE`).
      ["MAILINGCOUNTRY", "country"], ["MAILINGCOUNTRYCODE", "country"], ["ASSISTANTPHONE", undefined], ["IPCOUNTRY", undefined],
      ["LANDLINE", undefined], ["Téléphone société", undefined], ["Teléfono de la compañía", undefined], ["Telefoon bedrijf", undefined],
      ["Tél. mobile société", "msisdn"], ["Teléfono del automóvil", undefined], ["REGION", undefined], ["CC", "country"], ["iPhone", "msisdn"],
      ["Particular", "msisdn"], ["Kategorien", "tags"], ["Categorías", "tags"], ["Categorieën", "tags"],
      ["Mobiltelefonnummer", "msisdn"], ["Handy-Nr.", "msisdn"], ["TEL;TYPE=CELL", "msisdn"], ["TEL;TYPE=HOME", "msisdn"],
      // Someone else's number is not the contact's; a company mobile is; a trailing number keeps any field's spelling.
      ["Spouse Mobile", undefined], ["Parent Cell Phone", undefined], ["Mother's Cell", undefined], ["Company Mobile", "msisdn"],
      ["Tag 1", "tags"], ["First Name 1", "first_name"], ["Country 1", "country"], ["Lead Country", "country"], ["Delivery Country", "country"],
      ["Residence Country", "country"], ["Land Line", undefined]
    ]
    expect(expected.map(([name]) => [name, Columns.fieldOf(name)])).toEqual(expected)
    // The mobile one of several is the number's: WhatsApp and Celular say mobile.
    for (const header of [["Telefone", "Celular"], ["Tel. domicile", "WhatsApp"], ["TEL;TYPE=HOME", "TEL;TYPE=CELL"], ["Home Phone", "iPhone"]]) {
      expect(Result.getOrThrow(Columns.match(header)).index.msisdn).toBe(1)
    }
    // A column a spelling names comes before one matched by its words (Shopify's export; an IP's country).
    const shopify = Result.getOrThrow(Columns.match(["First Name", "Default Address Country Code", "Default Address Phone", "Phone", "Accepts SMS Marketing"]))
    expect(shopify).toMatchObject({ index: { msisdn: 3, country: 1 }, fallbacks: [2] })
    const located = Result.getOrThrow(Columns.match(["Name", "Phone", "Mailing Country", "Country/Region"]))
    expect(located).toMatchObject({ index: { country: 3 }, countryFallbacks: [2] })
    // A mobile column is the number's, however it is named; then a spelling before words.
    for (const header of [["Phone Number", "SMS Phone Number"], ["Телефон", "Мобильный телефон"], ["Phone", "Cell Phone Number"], ["Telefoon", "Mobiel"]]) {
      expect([header, Result.getOrThrow(Columns.match(header)).index.msisdn]).toEqual([header, 1])
    }
    expect(Result.getOrThrow(Columns.match(["Phone", "Country 1", "Country 2"]))).toMatchObject({ index: { country: 1 }, countryFallbacks: [2] })
    expect(Result.getOrThrow(Columns.match(["Name", "Phone", "Spouse Mobile"]))).toMatchObject({ index: { msisdn: 1 } })
    // A mapping names a field by its spelling only.
    expect(Result.isFailure(Columns.match(["Phone", "Notes"], ["Notes=countryside"]))).toBe(true)
  })

  it("the first column of a field takes it; later ones and unknown ones are listed once, in file order", () => {
    const matched = Columns.match(["Phone", "Email", "Email", "Name", "First Name", "First"])
    expect(Result.isSuccess(matched) && matched.success.index).toEqual({ msisdn: 0, first_name: 4 })
    expect(Result.isSuccess(matched) && matched.success.unknown).toEqual(["Email", "Name", "First"])
  })

  it("the mobile column is the number's, other phone columns its fallbacks in file order; a --map choice is kept", () => {
    const matched = Result.getOrThrow(Columns.match(["Phone", "Telephone", "Mobile Phone", "Name"]))
    expect(matched.index).toEqual({ msisdn: 2, name: 3 })
    expect(matched.fallbacks).toEqual([0, 1])
    expect(matched.unknown).toEqual([])
    for (const header of [["GSM", "Phone"], ["Phone", "Cell"], ["Telephone", "MSISDN"]]) {
      const columns = Result.getOrThrow(Columns.match(header))
      expect(header[columns.index.msisdn ?? -1]).toMatch(/GSM|Cell|MSISDN/)
    }
    const mapped = Result.getOrThrow(Columns.match(["Phone", "Mobile"], ["Phone=msisdn"]))
    expect(mapped).toMatchObject({ index: { msisdn: 0 }, fallbacks: [], unknown: ["Mobile"] })
  })

  it("one source of names: first and last name columns before a full name's, unless --map names the full name's", () => {
    expect(Result.getOrThrow(Columns.match(["Phone", "Full Name", "First Name", "Last Name"])))
      .toMatchObject({ index: { msisdn: 0, first_name: 2, last_name: 3 }, unknown: ["Full Name"] })
    // The user's choice: the mapped full name is read, the name parts found by their headers are listed unread.
    expect(Result.getOrThrow(Columns.match(["Phone", "Full", "First Name", "Last Name"], ["Full=name"])))
      .toMatchObject({ index: { msisdn: 0, name: 1 }, unknown: ["First Name", "Last Name"] })
    const twice = Columns.match(["Phone", "Full", "First Name"], ["Full=name", "First Name=first_name"])
    expect(Result.isFailure(twice) && twice.failure).toMatchObject({ _tag: "InvalidParameter", parameter: "--map" })
    expect(Result.isFailure(twice) && twice.failure.message).toContain("the name is mapped twice")
  })

  it("address books' headers in other languages and scripts name their fields", () => {
    const read = (header: ReadonlyArray<string>) => {
      const { index } = Result.getOrThrow(Columns.match(header))
      return Object.fromEntries(Object.entries(index).map(([field, at]) => [field, header[at ?? -1]]))
    }
    expect(read(["氏名", "携帯電話", "メールアドレス"])).toEqual({ name: "氏名", msisdn: "携帯電話" })
    expect(read(["姓", "名", "電話番号"])).toEqual({ last_name: "姓", first_name: "名", msisdn: "電話番号" })
    expect(read(["姓名", "手机号码"])).toEqual({ name: "姓名", msisdn: "手机号码" })
    expect(read(["성", "이름", "휴대폰"])).toEqual({ last_name: "성", first_name: "이름", msisdn: "휴대폰" })
    expect(read(["الاسم", "رقم الجوال"])).toEqual({ name: "الاسم", msisdn: "رقم الجوال" })
    expect(read(["Имя", "Фамилия", "Мобильный телефон"])).toEqual({ first_name: "Имя", last_name: "Фамилия", msisdn: "Мобильный телефон" })
    expect(read(["Nombre", "Número de teléfono"])).toEqual({ first_name: "Nombre", msisdn: "Número de teléfono" })
    expect(read(["氏名", "携帯電話番号"])).toEqual({ name: "氏名", msisdn: "携帯電話番号" })
    expect(read(["성명", "휴대폰"])).toEqual({ name: "성명", msisdn: "휴대폰" })
    expect(read(["ФИО", "Телефон"])).toEqual({ name: "ФИО", msisdn: "Телефон" })
    expect(read(["الاسم الأول", "اسم العائلة", "جوال"])).toEqual({ first_name: "الاسم الأول", last_name: "اسم العائلة", msisdn: "جوال" })
  })

  it("a mobile column in other scripts is the number's before a bare phone column, often a landline's (携帯電話 before 電話)", () => {
    const headers = [
      ["氏名", "電話", "携帯電話"], ["氏名", "電話番号", "携帯"], ["姓名", "电话", "手机号码"], ["姓名", "電話", "手機"], ["姓名", "电话号码", "移动电话"],
      ["이름", "전화", "휴대폰"], ["이름", "전화번호", "핸드폰"], ["الاسم", "هاتف", "رقم الجوال"], ["الاسم", "رقم الهاتف", "موبايل"]
    ]
    // Korean as a Mac writes file names and some exports write text: NFD, one jamo a code point.
    for (const header of [...headers, headers[5]!.map((name) => name.normalize("NFD"))]) {
      expect([header, Result.getOrThrow(Columns.match(header))]).toMatchObject([header, { index: { msisdn: 2 }, fallbacks: [1] }])
    }
  })

  it("a rejects file's own columns are ignored on re-import", () => {
    const matched = Columns.match(["line", "reason", "message", "phone"])
    expect(Result.isSuccess(matched) && matched.success.unknown).toEqual([])
  })

  it("a header without a phone column is named in a bounded message: a file read in the wrong encoding is one huge 'column'", () => {
    // A UTF-8 file read as UTF-16 (--encoding utf-16): its whole first megabyte is one header cell of CJK-looking text.
    const garbage = Buffer.from("First Name,Last Name,Mobile\n".repeat(40_000), "utf8").toString("utf16le")
    for (const header of [[garbage], Array.from({ length: 500 }, (_, i) => `Column ${i}`)]) {
      const message = refusal(header)
      expect(message.length).toBeLessThan(1500)
      expect(message).toContain("--map")
    }
    expect(refusal([garbage])).toContain("--encoding")
    // Bytes that are no text at all (a program, an unknown binary format): NULs and control characters in the header.
    expect(refusal(["ELF\u0002\u0001\u0001\u0000\u0000\u0000\u0000>\u0000"])).toContain("not CSV at all")
    expect(refusal(Array.from({ length: 500 }, (_, i) => `Column ${i}`))).toContain("and 480 more")
    // A plain header is named whole, as before.
    expect(refusal(["Name", "Notes"])).toContain(`(columns: "Name", "Notes")`)
  })
})
