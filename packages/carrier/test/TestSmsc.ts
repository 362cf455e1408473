/**
 * A scriptable SMSC for tests, on the `smpp` package's server side on 127.0.0.1: accepts binds (or
 * refuses them), throttles every Nth submit, drops the link mid-window, sends receipts and inbound SMS.
 * And SMSCs that are not there: a port nothing listens on, a server that takes connections and never answers.
 * Over 400 lines as one module: every script acts on the same sessions and counts, which the tests read.
 */
import * as net from "node:net"
import smpp, { type Pdu, type Session } from "smpp"
import * as Raw from "../src/internal/raw.ts"
import * as SmppConfig from "../src/SmppConfig.ts"

/** A submit_sm the SMSC accepted, read with its own decoders (not the carrier's). */
export interface Accepted {
  readonly messageId: string
  readonly systemId: string
  readonly source: string
  readonly destination: string
  readonly dataCoding: number
  readonly esmClass: number
  readonly registeredDelivery: number
  readonly concatenation?: { readonly reference: number; readonly total: number; readonly sequence: number }
  readonly text: string
}

export type Stat = "DELIVRD" | "UNDELIV" | "EXPIRED" | "REJECTD" | "DELETED"

export interface Script {
  /** Status to refuse the nth bind with (1-based), or 0 to accept. */
  readonly bindStatus?: (attempt: number, systemId: string, password: string) => number
  /** Answer every Nth submit_sm (counted over the SMSC's life) with this status instead (ESME_RTHROTTLED 0x58 by default). */
  readonly throttleEvery?: number
  readonly throttleStatus?: number
  /** Answer the nth submit_sm (1-based, over the SMSC's life) with the throttle status when this says so. */
  readonly throttle?: (n: number) => boolean
  /** Drop the connection, unanswered, when the nth submit_sm arrives (each listed n once). */
  readonly dropAtSubmit?: ReadonlyArray<number>
  /** Delay before answering a submit_sm, so several are outstanding. */
  readonly respondDelayMs?: number
  /** The receipt of an accepted part: its stat, delay, and whether it goes before the submit_sm_resp. */
  readonly receipt?: (part: Accepted, index: number) => { readonly stat: Stat; readonly delayMs: number; readonly beforeResponse?: boolean; readonly duplicate?: boolean; readonly form?: "text" | "tlv" } | undefined
  /** GSM-7 on this link is packed. */
  readonly packed?: boolean
  /**
   * When the ESME closes its side (a killed process) with submit_sm read but not yet answered:
   * `true` takes them all the same (as an SMSC that stores a PDU before answering), `false` (the
   * default) drops them unanswered. Asked at each close. An SMSC-side drop never takes them.
   */
  readonly acceptOnClose?: () => boolean
  /** Whether enquire_link is answered (the default); `false` is an SMSC that keeps the connection and stops answering. */
  readonly answerEnquireLink?: boolean
}

export interface TestSmsc {
  readonly port: number
  readonly accepted: Array<Accepted>
  /** submit_sm that arrived but were dropped with the link, never answered. */
  readonly unanswered: Array<Accepted>
  /** The stat of the scripted receipt of each accepted part, by SMSC id. */
  readonly receipts: Map<string, Stat>
  readonly binds: () => number
  readonly submits: () => number
  /** The most submit_sm awaiting an answer at once on one session. */
  readonly maxOutstanding: () => number
  readonly enquireLinks: () => number
  /** Texts per (destination, reference): concatenated parts put together in sequence order. */
  readonly reassembled: () => ReadonlyArray<{ readonly destination: string; readonly text: string; readonly parts: number }>
  /** Sends a receipt for an id on the bound session. */
  readonly sendReceipt: (messageId: string, stat: Stat, form?: "text" | "tlv") => Promise<number>
  /** Sends a deliver_sm as is; resolves with the status the ESME answered. */
  readonly deliver: (fields: Record<string, unknown>) => Promise<number>
  /**
   * Writes a request on the bound session as is (a PDU, or raw octets for a command the package does
   * not know); resolves with the ESME's answer of the same sequence_number.
   */
  readonly request: (pdu: Pdu | Buffer) => Promise<Pdu>
  /** Sends an inbound text, split in `parts` UCS-2 or GSM parts sent in `order`. */
  readonly sendInbound: (from: string, to: string, text: string, options?: { readonly parts?: number; readonly order?: ReadonlyArray<number>; readonly ucs2?: boolean; readonly reference?: number }) => Promise<ReadonlyArray<number>>
  readonly dropLink: () => void
  readonly close: () => Promise<void>
}

const gsmDecode = (bytes: Uint8Array, packed: boolean, udhLength: number): string => {
  if (!packed) return smpp.gsmCoder.decode(bytes)
  // The SMSC's own unpacking: septets start after the fill bits that align the UDH.
  const fill = udhLength === 0 ? 0 : (7 - ((udhLength * 8) % 7)) % 7
  const bits = bytes.length * 8 - fill
  const septets: Array<number> = []
  for (let position = fill; position + 7 <= bytes.length * 8; position += 7) {
    let value = 0
    for (let bit = 0; bit < 7; bit++) if (((bytes[(position + bit) >> 3] ?? 0) >> ((position + bit) & 7)) & 1) value |= 1 << bit
    septets.push(value)
  }
  if (bits % 7 === 0 && septets[septets.length - 1] === 0x0d) septets.pop()
  return smpp.gsmCoder.decode(Uint8Array.from(septets))
}

const read = (pdu: Pdu, systemId: string, messageId: string, packed: boolean): Accepted => {
  const bytes = Raw.bytes(pdu["short_message"])
  const esmClass = Number(pdu["esm_class"] ?? 0)
  const dataCoding = Number(pdu["data_coding"] ?? 0)
  let body = bytes
  let concatenation: Accepted["concatenation"]
  let udhLength = 0
  if ((esmClass & 0x40) !== 0) {
    udhLength = (bytes[0] ?? 0) + 1
    if (bytes[1] === 0x00) concatenation = { reference: bytes[3] ?? 0, total: bytes[4] ?? 0, sequence: bytes[5] ?? 0 }
    body = bytes.subarray(udhLength)
  }
  const text = dataCoding === 8 ? new TextDecoder("utf-16be").decode(body) : gsmDecode(body, packed, udhLength)
  return {
    messageId,
    systemId,
    source: String(pdu["source_addr"] ?? ""),
    destination: String(pdu["destination_addr"] ?? ""),
    dataCoding,
    esmClass,
    registeredDelivery: Number(pdu["registered_delivery"] ?? 0),
    ...(concatenation === undefined ? {} : { concatenation }),
    text
  }
}

const ucs2 = (text: string): Buffer => Buffer.from(new Uint8Array([...text].flatMap((char) => {
  const units: Array<number> = []
  for (let i = 0; i < char.length; i++) units.push(char.charCodeAt(i) >> 8, char.charCodeAt(i) & 0xff)
  return units
})))

/** A client of the SMSC on `port` with quick backoffs, as every carrier test binds. */
export const clientConfig = (port: number, overrides: Partial<SmppConfig.SmppConfig> = {}): SmppConfig.SmppConfig => ({
  ...SmppConfig.defaults,
  host: "127.0.0.1",
  port,
  systemId: "smsbook",
  password: "secret",
  reconnectMs: { initial: 20, max: 200 },
  throttleMs: { initial: 10, max: 100 },
  ...overrides
})

/** Starts a test SMSC on 127.0.0.1 on a free port. */
export const start = (script: Script = {}): Promise<TestSmsc> => {
  Raw.apply()
  const accepted: Array<Accepted> = []
  const unanswered: Array<Accepted> = []
  const receipts = new Map<string, Stat>()
  const drops = new Set(script.dropAtSubmit ?? [])
  let binds = 0
  let submits = 0
  let nextId = 1
  let maxOutstanding = 0
  let enquireLinks = 0
  // Binds in order: receipts and inbound SMS go to the latest one still open (several ESMEs may bind).
  const open: Array<Session> = []
  const boundSession = (): Session | undefined => open[open.length - 1]
  const sessions = new Set<Session>()

  const later = (ms: number, run: () => void) => setTimeout(run, ms)

  const receiptFields = (messageId: string, stat: Stat, form: "text" | "tlv", handset = "447400000000") => {
    const states: Record<Stat, number> = { DELIVRD: 2, EXPIRED: 3, DELETED: 4, UNDELIV: 5, REJECTD: 8 }
    const text = `id:${messageId} sub:001 dlvrd:${stat === "DELIVRD" ? "001" : "000"} submit date:2601011200 done date:2601011201 stat:${stat} err:000 text:`
    return {
      source_addr: handset,
      destination_addr: "smsbook",
      esm_class: 0x04,
      data_coding: 0,
      short_message: Buffer.from(text, "latin1"),
      ...(form === "tlv" ? { receipted_message_id: messageId, message_state: states[stat] } : {})
    }
  }

  // deliver_sm awaiting their response, per session: a closed session fails them (to be sent again).
  const awaiting = new Map<Session, Set<(error: Error) => void>>()
  const deliverOn = (session: Session | undefined, fields: Record<string, unknown>) =>
    new Promise<number>((resolve, reject) => {
      if (session === undefined) return reject(new Error("no ESME is bound"))
      const failers = awaiting.get(session) ?? new Set<(error: Error) => void>()
      awaiting.set(session, failers)
      failers.add(reject)
      const sent = session.deliver_sm(fields, (response) => {
        failers.delete(reject)
        resolve(response.command_status)
      })
      if (!sent) {
        failers.delete(reject)
        reject(new Error("the ESME link is not writable"))
      }
    })

  // Like a real SMSC, a receipt that cannot be delivered now (no bind) is tried again later (for a minute).
  const deliverLater = (fields: Record<string, unknown>, tries = 1200) => {
    deliverOn(boundSession(), fields).catch(() => {
      if (tries > 0) later(50, () => deliverLater(fields, tries - 1))
    })
  }

  // A dropped link answers nothing more; what it answered before still reaches the ESME (a flushed close).
  const dropping = new Set<Session>()
  const drop = (session: Session) => {
    dropping.add(session)
    session.socket.end()
    setTimeout(() => session.destroy(), 100)
  }

  const server = smpp.createServer({}, (session) => {
    sessions.add(session)
    session.socket.setNoDelay(true)
    let systemId = ""
    const pending = new Map<number, { readonly part: Accepted; readonly accept: () => void }>()
    session.on("error", () => undefined)
    session.on("close", () => {
      sessions.delete(session)
      if (open.includes(session)) open.splice(open.indexOf(session), 1)
      const take = !dropping.has(session) && script.acceptOnClose?.() === true
      for (const entry of pending.values()) {
        if (take) entry.accept()
        else unanswered.push(entry.part)
      }
      pending.clear()
      for (const fail of awaiting.get(session) ?? []) fail(new Error("the ESME link closed"))
      awaiting.delete(session)
    })
    session.on("bind_transceiver", (pdu: Pdu) => {
      binds++
      systemId = String(pdu["system_id"] ?? "")
      const status = script.bindStatus?.(binds, systemId, String(pdu["password"] ?? "")) ?? 0
      session.send(pdu.response({ command_status: status, system_id: "testsmsc" }))
      if (status !== 0) return session.close()
      open.push(session)
    })
    session.on("enquire_link", (pdu: Pdu) => {
      enquireLinks++
      if (script.answerEnquireLink !== false) session.send(pdu.response())
    })
    session.on("unbind", (pdu: Pdu) => {
      session.send(pdu.response())
      session.close()
    })
    session.on("submit_sm", (pdu: Pdu) => {
      submits++
      const n = submits
      if (dropping.has(session)) return
      if (drops.has(n)) {
        drops.delete(n)
        pending.set(-1, { part: read(pdu, systemId, "", script.packed === true), accept: () => undefined })
        return drop(session)
      }
      if ((script.throttleEvery !== undefined && n % script.throttleEvery === 0) || script.throttle?.(n) === true) {
        return later(script.respondDelayMs ?? 0, () => session.send(pdu.response({ command_status: script.throttleStatus ?? 0x58 })))
      }
      const messageId = `m${(nextId++).toString(16).padStart(8, "0")}`
      const part = read(pdu, systemId, messageId, script.packed === true)
      const index = n - 1
      const plan = script.receipt?.(part, index)
      // Only an accepted part gets a receipt (one dropped unanswered was never the SMSC's).
      const accept = () => {
        accepted.push(part)
        if (plan === undefined) return
        receipts.set(messageId, plan.stat)
        if (plan.beforeResponse === true) return
        later(plan.delayMs, () => {
          const fields = receiptFields(messageId, plan.stat, plan.form ?? "text", part.destination)
          deliverLater(fields)
          if (plan.duplicate === true) deliverLater(fields)
        })
      }
      pending.set(pdu.sequence_number, { part, accept })
      maxOutstanding = Math.max(maxOutstanding, pending.size)
      const respond = () => {
        if (dropping.has(session) || !pending.delete(pdu.sequence_number)) return
        accept()
        session.send(pdu.response({ message_id: messageId }))
      }
      if (plan?.beforeResponse === true) {
        // The receipt goes first; the response only after the ESME answered it.
        deliverOn(session, receiptFields(messageId, plan.stat, plan.form ?? "text", part.destination)).then(respond, respond)
        return
      }
      later(script.respondDelayMs ?? 0, respond)
    })
  })

  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      resolve({
        port,
        accepted,
        unanswered,
        receipts,
        binds: () => binds,
        submits: () => submits,
        maxOutstanding: () => maxOutstanding,
        enquireLinks: () => enquireLinks,
        reassembled: () => {
          const groups = new Map<string, { destination: string; parts: Map<number, string>; total: number }>()
          accepted.forEach((part, index) => {
            const key = part.concatenation === undefined ? `single/${index}` : `${part.destination}/${part.concatenation.reference}/${part.concatenation.total}`
            const group = groups.get(key) ?? { destination: part.destination, parts: new Map<number, string>(), total: part.concatenation?.total ?? 1 }
            group.parts.set(part.concatenation?.sequence ?? 1, part.text)
            groups.set(key, group)
          })
          return [...groups.values()].map((group) => ({
            destination: group.destination,
            parts: group.parts.size,
            text: [...group.parts.entries()].sort(([a], [b]) => a - b).map(([, text]) => text).join("")
          }))
        },
        sendReceipt: (messageId, stat, form = "text") => deliverOn(boundSession(), receiptFields(messageId, stat, form)),
        deliver: (fields) => deliverOn(boundSession(), fields),
        request: (pdu) =>
          new Promise<Pdu>((resolve, reject) => {
            const session = boundSession()
            if (session === undefined) return reject(new Error("no ESME is bound"))
            // Far from the session's own numbering, which counts from 1.
            const sequence = 0x70000000 + Math.floor(Math.random() * 0x0fffffff)
            const octets = Buffer.isBuffer(pdu) ? Buffer.from(pdu) : pdu.toBuffer()
            octets.writeUInt32BE(sequence, 12)
            const timer = setTimeout(() => {
              session.off("pdu", onPdu)
              reject(new Error("the ESME did not answer"))
            }, 1000)
            const onPdu = (answer: Pdu) => {
              if (!answer.isResponse() || answer.sequence_number !== sequence) return
              clearTimeout(timer)
              session.off("pdu", onPdu)
              resolve(answer)
            }
            session.on("pdu", onPdu)
            session.socket.write(octets)
          }),
        sendInbound: (from, to, text, options = {}) => {
          const count = options.parts ?? 1
          const useUcs2 = options.ucs2 ?? false
          const chars = [...text]
          const size = Math.ceil(chars.length / count)
          const pieces = Array.from({ length: count }, (_, i) => chars.slice(i * size, (i + 1) * size).join(""))
          const order = options.order ?? pieces.map((_, i) => i)
          const reference = options.reference ?? 7
          return Promise.all(order.map((i) => {
            const body = useUcs2 ? ucs2(pieces[i] ?? "") : smpp.gsmCoder.encode(pieces[i] ?? "")
            const udh = count > 1 ? Buffer.from([0x05, 0x00, 0x03, reference, count, i + 1]) : Buffer.alloc(0)
            return deliverOn(boundSession(), {
              source_addr: from,
              destination_addr: to,
              esm_class: count > 1 ? 0x40 : 0,
              data_coding: useUcs2 ? 8 : 0,
              short_message: Buffer.concat([udh, body])
            })
          }))
        },
        dropLink: () => {
          for (const session of sessions) drop(session)
        },
        close: () =>
          new Promise<void>((done) => {
            for (const session of sessions) session.destroy()
            server.close(() => done())
          })
      })
    })
  })
}

/**
 * Waits until `check` holds, polling, and fails naming `what` after `ms`: a test states what it waits for, not how
 * long that takes, so a loaded machine slows it down rather than failing it.
 */
export const waitFor = async (check: () => boolean, what = "the condition", ms = 10_000): Promise<void> => {
  const until = Date.now() + ms
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/** A port of 127.0.0.1 that nothing listens on: bound, then closed again. */
export const closedPort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

/** A server on 127.0.0.1 that takes every connection and never answers a byte (nor a bind). */
export interface SilentServer {
  readonly port: number
  /** Connections taken so far. */
  readonly connections: () => number
  /** What the connections sent, as Latin-1 text. */
  readonly received: () => string
  readonly close: () => Promise<void>
}

export const silentServer = (): Promise<SilentServer> =>
  new Promise((resolve, reject) => {
    const sockets = new Set<net.Socket>()
    let connections = 0
    let received = ""
    const server = net.createServer((socket) => {
      connections++
      sockets.add(socket)
      socket.on("data", (chunk: Buffer) => void (received += chunk.toString("latin1")))
      socket.on("error", () => undefined)
      socket.on("close", () => sockets.delete(socket))
    })
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      resolve({
        port: typeof address === "object" && address !== null ? address.port : 0,
        connections: () => connections,
        received: () => received,
        close: () =>
          new Promise<void>((closed) => {
            for (const socket of sockets) socket.destroy()
            server.close(() => closed())
          })
      })
    })
  })
