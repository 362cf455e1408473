/**
 * The octets of an SMS as SMPP carries them: core's parts encoded in GSM-7 (unpacked or packed) or
 * UCS-2 with an 8-bit-reference concatenation UDH, and inbound short messages decoded (data_coding 0, 1, 3, 8 and their GSM 03.38 schemes).
 */
import { Sms } from "@smsbook/core"

/** GSM-7 on the SMPP link: one septet per octet (the SMPP norm) or packed 8 septets in 7 octets. */
export type Packing = "unpacked" | "packed"

/** The data_coding values smsbook sends and reads. */
export const dataCoding = { smscDefault: 0x00, ia5: 0x01, latin1: 0x03, ucs2: 0x08 } as const

/** esm_class bit: the short message starts with a user data header. */
export const udhIndicator = 0x40

/** One submit_sm's message fields. */
export interface Encoded {
  readonly data_coding: number
  readonly esm_class: number
  readonly short_message: Uint8Array
}

/** The concatenation information element of a part: reference, total parts, 1-based sequence. */
export interface Concatenation {
  readonly reference: number
  readonly total: number
  readonly sequence: number
}

const ESCAPE = 0x1b

const basicSeptet: ReadonlyMap<string, number> = new Map(
  Sms.gsmBasicTable.flatMap((char, septet) => septet === ESCAPE ? [] : [[char, septet] as const])
)
const extensionSeptet: ReadonlyMap<string, number> = new Map(Sms.gsmExtensionTable.map(([septet, char]) => [char, septet]))
const extensionChar: ReadonlyMap<number, string> = new Map(Sms.gsmExtensionTable)

/** The septets of a GSM-7 text (an extension character is escape + value); undefined when a character is not GSM. */
export const septets = (text: string): Uint8Array | undefined => {
  const out: Array<number> = []
  for (const char of text) {
    const basic = basicSeptet.get(char)
    if (basic !== undefined) out.push(basic)
    else {
      const extension = extensionSeptet.get(char)
      if (extension === undefined) return undefined
      out.push(ESCAPE, extension)
    }
  }
  return Uint8Array.from(out)
}

/**
 * The text of septets. An escape followed by a value the extension table lacks shows the basic
 * character of that value (3GPP TS 23.038 6.2.1.1); a trailing escape is dropped.
 */
export const fromSeptets = (values: Uint8Array): string => {
  let text = ""
  for (let i = 0; i < values.length; i++) {
    const value = (values[i] ?? 0) & 0x7f
    if (value === ESCAPE) {
      const next = values[i + 1]
      if (next === undefined) break
      i++
      text += extensionChar.get(next & 0x7f) ?? Sms.gsmBasicTable[next & 0x7f] ?? ""
    } else text += Sms.gsmBasicTable[value] ?? ""
  }
  return text
}

/**
 * Packs septets 8 into 7 octets (3GPP TS 23.038 6.1.2.1.1), least significant bit first, after
 * `fillBits` zero bits (a UDH before them is padded to a septet boundary).
 */
export const pack = (values: Uint8Array, fillBits = 0): Uint8Array => {
  const bits = fillBits + values.length * 7
  const out = new Uint8Array(Math.ceil(bits / 8))
  let position = fillBits
  for (const value of values) {
    for (let bit = 0; bit < 7; bit++, position++) {
      if ((value >> bit) & 1) out[position >> 3] = (out[position >> 3] ?? 0) | (1 << (position & 7))
    }
  }
  return out
}

const CR = 0x0d

/** Octets of TP-User-Data in one SMS: UDH and text together. */
const userDataOctets = 140

/**
 * Packs a text's septets, with 3GPP TS 23.038 6.1.2.3.1's padding: when 7 bits would be left free
 * in the last octet (a receiver would read a phantom `@`), or a wanted final CR ends on an octet
 * boundary, a CR is added, which receivers drop. The second CR of the latter takes an octet more:
 * it is left out when the part would pass `maxOctets` (a full part ending in CR loses that CR, not the SMS).
 */
const packText = (values: Uint8Array, fillBits: number, maxOctets: number): Uint8Array => {
  const bits = fillBits + values.length * 7
  const padded = bits % 8 === 1 || (bits % 8 === 0 && values[values.length - 1] === CR && bits / 8 < maxOctets)
  return pack(padded ? Uint8Array.of(...values, CR) : values, fillBits)
}

/** Unpacks `count` septets from packed octets, skipping `fillBits` first. */
export const unpack = (octets: Uint8Array, count: number, fillBits = 0): Uint8Array => {
  const out = new Uint8Array(count)
  let position = fillBits
  for (let i = 0; i < count; i++) {
    let value = 0
    for (let bit = 0; bit < 7; bit++, position++) {
      if (((octets[position >> 3] ?? 0) >> (position & 7)) & 1) value |= 1 << bit
    }
    out[i] = value
  }
  return out
}

/** UCS-2 (UTF-16 big-endian) octets of a text: one 16-bit unit each, surrogate pairs as two. */
export const ucs2 = (text: string): Uint8Array => {
  const out = new Uint8Array(text.length * 2)
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    out[2 * i] = unit >> 8
    out[2 * i + 1] = unit & 0xff
  }
  return out
}

/** The text of UTF-16 big-endian octets; an odd trailing octet is dropped. */
export const fromUcs2 = (octets: Uint8Array): string => {
  let text = ""
  for (let i = 0; i + 1 < octets.length; i += 2) text += String.fromCharCode(((octets[i] ?? 0) << 8) | (octets[i + 1] ?? 0))
  return text
}

/** The 6-octet UDH of a concatenated part (IE 0x00: 8-bit reference). */
export const concatenationUdh = ({ reference, sequence, total }: Concatenation): Uint8Array =>
  Uint8Array.of(0x05, 0x00, 0x03, reference & 0xff, total, sequence)

/**
 * The reference of a message's parts to one number, from its ids: the same on every retry and
 * after a restart (parts sent before and after a crash reassemble), spread over 0–255 (FNV-1a).
 */
export const referenceOf = (messageId: string, msisdn: string): number => {
  let hash = 0x811c9dc5
  for (const char of `${messageId}/${msisdn}`) {
    hash ^= char.charCodeAt(0)
    hash = Math.imul(hash, 0x01000193)
  }
  return (hash ^ (hash >>> 8) ^ (hash >>> 16) ^ (hash >>> 24)) & 0xff
}

const concat = (head: Uint8Array, tail: Uint8Array): Uint8Array => {
  const out = new Uint8Array(head.length + tail.length)
  out.set(head, 0)
  out.set(tail, head.length)
  return out
}

/**
 * The submit_sm message fields of one part of a message: in the message's encoding (core decides
 * it for the whole text, so a part of a UCS-2 message stays UCS-2 even when its own characters are
 * GSM), with the concatenation UDH when the message has several parts. Packed GSM-7 pads the text
 * after the UDH to a septet boundary. A text that is not GSM is sent as UCS-2 whatever `encoding` says.
 */
export const encodePart = (
  text: string,
  options: {
    readonly encoding: Sms.Encoding
    readonly packing: Packing
    readonly reference: number
    readonly sequence: number
    readonly total: number
  }
): Encoded => {
  const udh = options.total > 1 ? concatenationUdh(options) : new Uint8Array(0)
  const esm_class = udh.length > 0 ? udhIndicator : 0
  const gsm = options.encoding === "GSM-7" ? septets(text) : undefined
  if (gsm === undefined) return { data_coding: dataCoding.ucs2, esm_class, short_message: concat(udh, ucs2(text)) }
  const body = options.packing === "packed" ? packText(gsm, (7 - ((udh.length * 8) % 7)) % 7, userDataOctets - udh.length) : gsm
  return { data_coding: dataCoding.smscDefault, esm_class, short_message: concat(udh, body) }
}

/**
 * The submit_sm message fields of every part of one message, in order: exactly core's parts (a
 * part is never re-cut here), in the encoding core chose for their whole text.
 */
export const encodeParts = (
  parts: ReadonlyArray<string>,
  options: { readonly packing: Packing; readonly reference: number }
): ReadonlyArray<Encoded> => {
  const encoding = Sms.analyze(parts.join("")).encoding
  return parts.map((text, index) => encodePart(text, { ...options, encoding, sequence: index + 1, total: parts.length }))
}

/** An inbound short message split into its concatenation information (if any) and the text octets. */
export interface UserData {
  readonly concatenation?: Concatenation
  readonly udhLength: number
  readonly body: Uint8Array
}

/**
 * Splits the UDH off when esm_class says there is one, and reads a concatenation IE: 0x00 (8-bit
 * reference) or 0x08 (16-bit reference). Other IEs are skipped; a UDH longer than the message is ignored.
 */
export const userData = (octets: Uint8Array, esmClass: number): UserData => {
  if ((esmClass & udhIndicator) === 0 || octets.length === 0) return { udhLength: 0, body: octets }
  const headerLength = (octets[0] ?? 0) + 1
  if (headerLength > octets.length) return { udhLength: 0, body: octets }
  let concatenation: Concatenation | undefined
  for (let i = 1; i + 1 < headerLength;) {
    const id = octets[i] ?? 0
    const length = octets[i + 1] ?? 0
    const at = i + 2
    if (id === 0x00 && length === 3) {
      concatenation = { reference: octets[at] ?? 0, total: octets[at + 1] ?? 0, sequence: octets[at + 2] ?? 0 }
    } else if (id === 0x08 && length === 4) {
      concatenation = {
        reference: ((octets[at] ?? 0) << 8) | (octets[at + 1] ?? 0),
        total: octets[at + 2] ?? 0,
        sequence: octets[at + 3] ?? 0
      }
    }
    i = at + length
  }
  const body = octets.subarray(headerLength)
  return concatenation === undefined || concatenation.total === 0 || concatenation.sequence === 0
    ? { udhLength: headerLength, body }
    : { concatenation, udhLength: headerLength, body }
}

/** A data_coding smsbook cannot read. */
export class UnsupportedDataCoding extends Error {
  readonly dataCoding: number
  constructor(dataCoding: number) {
    super(`data_coding ${dataCoding} is not supported (0, 1, 3 and 8 are)`)
    this.dataCoding = dataCoding
  }
}

/**
 * The SMPP coding a GSM 03.38 data coding scheme an SMSC passes through stands for, by its alphabet:
 * the message class group 0xF0 (GSM-7 or 8-bit data), the general group with a class 0x10–0x1F
 * (GSM-7, 8-bit data or UCS-2; 11 is reserved), the message waiting groups 0xC0–0xDF (GSM-7) and
 * 0xE0–0xEF (UCS-2). 8-bit data is read as Latin-1. SMPP 3.4 reserves these values for exactly this.
 */
const codingOf = (data_coding: number): number => {
  const group = data_coding & 0xf0
  if (group === 0xf0) return (data_coding & 0x04) === 0 ? dataCoding.smscDefault : dataCoding.latin1
  if (group === 0x10) {
    const alphabet = (data_coding >> 2) & 0x03
    return alphabet === 0 ? dataCoding.smscDefault : alphabet === 1 ? dataCoding.latin1 : alphabet === 2 ? dataCoding.ucs2 : data_coding
  }
  if (group === 0xc0 || group === 0xd0) return dataCoding.smscDefault
  if (group === 0xe0) return dataCoding.ucs2
  return data_coding
}

/**
 * The text of an inbound short message body: data_coding 0 as GSM-7 (unpacked, or packed by
 * configuration, with the UDH's fill bits), 1 as IA5/ASCII, 3 as Latin-1, 8 as UCS-2, and the GSM
 * 03.38 schemes of those alphabets (`codingOf`).
 */
export const decodeText = (
  body: Uint8Array,
  data_coding: number,
  options: { readonly packing: Packing; readonly udhLength: number }
): string | UnsupportedDataCoding => {
  switch (codingOf(data_coding)) {
    case dataCoding.smscDefault: {
      if (options.packing === "unpacked") return fromSeptets(body)
      const fill = options.udhLength === 0 ? 0 : (7 - ((options.udhLength * 8) % 7)) % 7
      const bits = body.length * 8 - fill
      const values = unpack(body, Math.floor(bits / 7), fill)
      // A CR that ends exactly on the last octet is padding (see packText).
      const padding = bits % 7 === 0 && values[values.length - 1] === CR ? 1 : 0
      return fromSeptets(values.subarray(0, values.length - padding))
    }
    case dataCoding.ia5: {
      let text = ""
      for (const octet of body) text += String.fromCharCode(octet & 0x7f)
      return text
    }
    case dataCoding.latin1: {
      let text = ""
      for (const octet of body) text += String.fromCharCode(octet)
      return text
    }
    case dataCoding.ucs2:
      return fromUcs2(body)
    default:
      return new UnsupportedDataCoding(data_coding)
  }
}
