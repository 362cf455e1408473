/**
 * One SMPP transceiver bind kept alive: connect and bind, rebind with backoff when the link drops,
 * enquire_link when idle, a window of outstanding submit_sm, a tps limit, and retries on throttling.
 * Over 400 lines as one module: the window, the session and the backoff share one state (what is
 * outstanding on which session), which split modules would hand back and forth.
 */
import smpp, { type Pdu, type Session } from "smpp"
import * as Backoff from "./backoff.ts"
import * as ConnectFailure from "./connectFailure.ts"
import * as Pending from "./pending.ts"
import * as Raw from "./raw.ts"

export interface Options {
  readonly host: string
  readonly port: number
  readonly systemId: string
  readonly password: string
  readonly systemType: string
  /** Most submit_sm awaiting their response at once. */
  readonly window: number
  /** Most submit_sm per second on this bind; 0 for no limit. */
  readonly tps: number
  /** enquire_link after this long without traffic. */
  readonly enquireLinkMs: number
  /** A request unanswered this long means the link is dead: it is dropped and bound again. */
  readonly responseTimeoutMs: number
  /**
   * An attempt to connect and bind that is not bound this long after it started is given up (and tried again after
   * the backoff): a host that never answers, or a server that takes the connection and never answers the bind.
   */
  readonly connectTimeoutMs: number
  /** Rebind backoff: first wait, doubled up to the maximum. */
  readonly reconnectMs: { readonly initial: number; readonly max: number }
  /** Backoff after ESME_RTHROTTLED / ESME_RMSGQFUL: first wait, doubled up to the maximum. */
  readonly throttleMs: { readonly initial: number; readonly max: number }
  /** Failed connects or binds in a row after which queued submissions fail (a later one starts a new round); 0 to try forever. */
  readonly maxBindAttempts: number
}

export const defaults: Omit<Options, "host" | "port" | "systemId" | "password"> = {
  systemType: "smsbook",
  window: 10,
  tps: 0,
  enquireLinkMs: 30_000,
  responseTimeoutMs: 30_000,
  connectTimeoutMs: 10_000,
  reconnectMs: { initial: 250, max: 30_000 },
  throttleMs: { initial: 100, max: 10_000 },
  maxBindAttempts: 0
}

/** What became of one submit_sm. */
export type Outcome =
  | { readonly _tag: "Accepted"; readonly messageId: string }
  | { readonly _tag: "Refused"; readonly status: number }
  /** The link gave up; `sent` when the submit_sm was on the wire unanswered (the SMSC may have it). */
  | { readonly _tag: "LinkFailed"; readonly reason: string; readonly sent: boolean }
  /** The journal did not allow it: never written. */
  | { readonly _tag: "Withheld" }

/** What the link tells its owner, to be logged. */
export type Event =
  | { readonly _tag: "Bound"; readonly attempt: number }
  | { readonly _tag: "BindRefused"; readonly status: number; readonly attempt: number }
  /** `inDoubt`: parts whose answer was lost, counted as sent (the carrier may have them). */
  | { readonly _tag: "Disconnected"; readonly reason: string; readonly requeued: number; readonly retryInMs: number; readonly inDoubt?: number }
  | { readonly _tag: "Throttled"; readonly status: number; readonly retryInMs: number }

/** An inbound PDU as the handler reads it: its command and fields by name. */
export interface InboundPdu {
  readonly command: string
  readonly [field: string]: unknown
}

/** Answers an inbound PDU (deliver_sm, data_sm): the command_status to respond with, once handled. */
export type InboundHandler = (pdu: InboundPdu) => Promise<number>

/** Where the owner records which submissions (by key) may be at the SMSC, so a crash tells them from the rest. */
export interface Journal {
  /**
   * Told before submissions are written, with their keys: answers the keys that may be written (the
   * others are settled `Withheld`). Failing settles them `LinkFailed` (not sent). A handler attached
   * directly to `submit`'s promise has run for every submission settled before it is told (the link
   * settles, then asks, several microtasks later), so an owner that stores outcomes can store those
   * first; one further down a promise chain may run later.
   */
  readonly beforeWrite: (keys: ReadonlyArray<number>) => Promise<ReadonlyArray<number>>
  /** Written submissions the SMSC did not take (throttled, or unanswered on a dropped link): queued here again. */
  readonly notTaken: (keys: ReadonlyArray<number>) => Promise<void>
}

interface Submission extends Pending.Entry {
  readonly params: Record<string, unknown>
  /** Answers that failed it for now (ESME_RSYSERR, ESME_RX_T_APPN). */
  failures: number
}

export interface Link {
  /** Queues a submit_sm (`key` for the journal); settles with its outcome. Each submission is on the wire at most once per accepted attempt. */
  readonly submit: (params: Record<string, unknown>, key?: number) => Promise<Outcome>
  /** Resolves once the submissions queued so far are all settled. */
  readonly idle: () => Promise<void>
  readonly isBound: () => boolean
  /** Submissions waiting or on the wire. */
  readonly outstanding: () => number
  /** Submissions on the wire: sent, not answered yet. */
  readonly onTheWire: () => number
  /** Unbinds and closes; queued submissions fail with LinkFailed. */
  readonly close: () => Promise<void>
}

/** ESME_RTHROTTLED and ESME_RMSGQFUL: the SMSC takes no more for now. */
const statusThrottled = 0x58
const statusQueueFull = 0x14
/** ESME_RINVCMDID: the answer to a request this ESME does not serve. */
const statusInvalidCommand = 0x03
/** Answer to an inbound PDU that could not be handled now: the SMSC retries it later. */
export const statusTemporaryError = 0x64
/** Answer to an inbound PDU that can never be handled (bad encoding): the SMSC drops it. */
export const statusPermanentError = 0x65
/** ESME_RSYSERR: the SMSC failed for now. */
const statusSystemError = 0x08
/**
 * Answers a submit_sm gets that fail it for now (ESME_RSYSERR, ESME_RX_T_APPN) before it counts as refused: sent again
 * like a throttled one (Kannel retries them too), but not for ever, so a part an SMSC always fails does not hold the bind.
 */
const temporaryTries = 4

/** `host:port` of the SMSC, as messages name it (an IPv6 address in brackets). */
const addressOf = (options: Pick<Options, "host" | "port">): string =>
  `${options.host.includes(":") ? `[${options.host}]` : options.host}:${options.port}`

/** The names of the command_status values an SMSC answers a bind with most often (SMPP 3.4, 5.1.3). */
const bindStatuses: { readonly [status: number]: string } = {
  0x05: "ESME_RALYBND, already bound",
  0x08: "ESME_RSYSERR, system error",
  0x0d: "ESME_RBINDFAIL, bind failed",
  0x0e: "ESME_RINVPASWD, invalid password",
  0x0f: "ESME_RINVSYSID, invalid system_id"
}

/** Why the SMSC refused a bind, and what to check. */
const bindRefusal = (options: Pick<Options, "host" | "port">, status: number): string => {
  const name = bindStatuses[status]
  return `the SMSC at ${addressOf(options)} refused the bind with status 0x${status.toString(16).padStart(8, "0")}` +
    `${name === undefined ? "" : ` (${name})`}; check the system_id, password and system_type of the carrier URL`
}

/** Why an attempt to connect failed, from the socket's error, and what to check (`ConnectFailure`). */
const connectFailure = (options: Options, error: Error & { readonly code?: unknown }): string =>
  ConnectFailure.describe({ address: addressOf(options), host: options.host, listener: ", and that the SMSC is running" }, error.code, error.message)

/** Opens the link and keeps it bound until `close`. */
export const open = (options: Options, onInbound: InboundHandler, onEvent: (event: Event) => void, journal?: Journal): Link => {
  Raw.apply()
  // `sentAt` times the answer; a submission's `written` keeps the order of parts written in one millisecond.
  const inflight = new Map<number, { readonly submission: Submission; readonly sentAt: number }>()
  let writes = 0
  let session: Session | undefined
  let bound = false
  let closed = false
  let attempt = 0
  // maxBindAttempts failed in a row: no attempt is under way until a submission comes.
  let gaveUp = false
  let reconnectWait = options.reconnectMs.initial
  const throttle = Backoff.make(options.throttleMs)
  let nextSlot = 0
  let lastTraffic = Date.now()
  let enquirePending: number | undefined
  // Gives up the attempt under way when it is not bound in time.
  let connectTimer: ReturnType<typeof setTimeout> | undefined
  // The next attempt after a drop: cleared on close, or it holds the process up to the backoff's maximum.
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined
  const interval = options.tps > 0 ? 1000 / options.tps : 0

  const destinationOf = (submission: Submission): string => String(submission.params["destination_addr"] ?? "")
  const pending = Pending.make<Submission>({
    journal,
    window: () => options.window,
    tps: options.tps,
    destinationOf,
    inflight: () => inflight.size,
    pump: () => pump()
  })
  const { queue, notifyIdle, putBack } = pending

  const dropLink = (reason: string) => {
    const current = session
    if (current === undefined) return
    session = undefined
    bound = false
    enquirePending = undefined
    clearTimeout(connectTimer)
    // Unanswered submissions were not accepted: back in the queue in the order they were written, among the
    // throttled ones already back there (written before or after them).
    const requeued = [...inflight.values()].map((entry) => entry.submission)
    inflight.clear()
    putBack(requeued)
    current.removeAllListeners()
    current.on("error", () => undefined)
    current.destroy()
    if (closed) return
    const wait = reconnectWait
    reconnectWait = Math.min(reconnectWait * 2, options.reconnectMs.max)
    onEvent({ _tag: "Disconnected", reason, requeued: requeued.length, retryInMs: wait })
    if (options.maxBindAttempts > 0 && attempt >= options.maxBindAttempts) {
      for (const submission of queue.splice(0)) submission.settle({ _tag: "LinkFailed", reason, sent: false })
      notifyIdle()
      gaveUp = true
      return
    }
    reconnectTimer = setTimeout(connect, wait)
  }

  const onPdu = (pdu: Pdu) => {
    lastTraffic = Date.now()
    if (pdu.command === "enquire_link") {
      session?.send(pdu.response())
    } else if (pdu.command === "deliver_sm" || pdu.command === "data_sm") {
      const answeredOn = session
      onInbound(pdu).then(
        (status) => answeredOn?.send(pdu.response({ command_status: status })),
        () => answeredOn?.send(pdu.response({ command_status: statusTemporaryError }))
      )
    } else if (pdu.command === "unbind") {
      session?.send(pdu.response())
      dropLink("the SMSC unbound")
    } else if (!pdu.isResponse() && pdu.command !== "alert_notification" && pdu.command !== "outbind") {
      // A request this ESME does not serve (query_sm, a second bind…) gets its _resp refused, one of an
      // unknown command_id a generic_nack (both ESME_RINVCMDID): an SMSC waiting for the answer would drop the link.
      session?.send(pdu.response({ command_status: statusInvalidCommand }))
    }
  }

  const onSubmitResponse = (sequence: number) => (pdu: Pdu) => {
    const entry = inflight.get(sequence)
    if (entry === undefined) return
    inflight.delete(sequence)
    const { submission } = entry
    const status = pdu.command_status
    const failedForNow = (status === statusSystemError || status === statusTemporaryError) && submission.failures + 1 < temporaryTries
    if (failedForNow) submission.failures++
    if (status === statusThrottled || status === statusQueueFull || failedForNow) {
      // Refused for now: the same part goes back to the head, and the whole bind slows down (once per burst).
      const wait = throttle.refused(submission.written ?? 0, writes)
      // Back at the head, after the parts written before it that came back too: the order is kept.
      putBack([submission])
      onEvent({ _tag: "Throttled", status, retryInMs: wait })
    } else {
      throttle.ease()
      submission.settle(
        status === 0
          ? { _tag: "Accepted", messageId: typeof pdu["message_id"] === "string" ? pdu["message_id"] : "" }
          : { _tag: "Refused", status }
      )
    }
    pump()
    notifyIdle()
  }

  const pump = () => {
    const current = session
    if (!bound || current === undefined || closed || pending.isClearing()) return
    const now = Date.now()
    const pausedUntil = throttle.pausedUntil()
    if (now < pausedUntil) return pending.schedule(pausedUntil - now)
    // With a journal, one submission per destination is unanswered at a time: a crash then leaves at
    // most one part of a number in doubt, and a receipt from that number can only be for it.
    const busy = new Set(journal === undefined ? [] : [...inflight.values()].map((entry) => destinationOf(entry.submission)))
    while (queue.length > 0 && inflight.size < options.window) {
      const slot = Math.max(Date.now(), nextSlot)
      if (slot > Date.now()) return pending.schedule(slot - Date.now())
      const index = queue.findIndex((candidate) => !busy.has(destinationOf(candidate)))
      const head = queue[index]
      if (head === undefined) break
      if (!head.cleared && journal !== undefined) return pending.clear(journal, busy)
      nextSlot = slot + interval
      const [submission] = queue.splice(index, 1)
      if (submission === undefined) break
      if (journal !== undefined) busy.add(destinationOf(submission))
      const pdu = new smpp.PDU("submit_sm", submission.params)
      const sent = current.send(pdu, (response) => onSubmitResponse(pdu.sequence_number)(response))
      if (!sent) {
        queue.unshift(submission)
        return dropLink("the socket is not writable")
      }
      submission.written = ++writes
      inflight.set(pdu.sequence_number, { submission, sentAt: Date.now() })
      lastTraffic = Date.now()
    }
  }

  const connect = () => {
    if (closed) return
    attempt++
    const current = smpp.connect({ host: options.host, port: options.port })
    session = current
    let connected = false
    const address = addressOf(options)
    const seconds = `${options.connectTimeoutMs / 1000} s`
    connectTimer = setTimeout(() => {
      if (session !== current || bound) return
      dropLink(
        connected
          ? `${address} took the connection but did not answer bind_transceiver within ${seconds}; check that the carrier URL's port is the SMSC's SMPP port`
          : `no answer from ${address} within ${seconds}; check the host and port of the carrier URL, and that no firewall stands between`
      )
    }, options.connectTimeoutMs)
    // Small PDUs written back to back would wait for delayed ACKs under Nagle's algorithm (40 ms each).
    current.socket.setNoDelay(true)
    current.on("error", (error: Error) => dropLink(connected ? error.message : connectFailure(options, error)))
    current.on("close", () =>
      dropLink(
        bound
          ? "the connection closed"
          : `${address} closed the connection before answering the bind; check that the carrier URL's port is the SMSC's SMPP port`
      ))
    current.on("pdu", onPdu)
    current.on("connect", () => {
      connected = true
      current.bind_transceiver({
        system_id: options.systemId,
        password: options.password,
        system_type: options.systemType,
        interface_version: 0x34
      }, (response) => {
        if (response.command_status !== 0) {
          onEvent({ _tag: "BindRefused", status: response.command_status, attempt })
          return dropLink(bindRefusal(options, response.command_status))
        }
        clearTimeout(connectTimer)
        bound = true
        reconnectWait = options.reconnectMs.initial
        onEvent({ _tag: "Bound", attempt })
        attempt = 0
        lastTraffic = Date.now()
        pump()
      })
    })
  }

  // Liveness: enquire_link after idle time; anything unanswered past the timeout drops the link.
  const watchdog = setInterval(() => {
    if (closed || !bound || session === undefined) return
    const now = Date.now()
    for (const entry of inflight.values()) {
      if (now - entry.sentAt > options.responseTimeoutMs) return dropLink("a submit_sm was not answered in time")
    }
    if (enquirePending !== undefined && now - enquirePending > options.responseTimeoutMs) {
      return dropLink("enquire_link was not answered in time")
    }
    if (enquirePending === undefined && now - lastTraffic >= options.enquireLinkMs) {
      enquirePending = now
      session.enquire_link({}, () => {
        enquirePending = undefined
      })
    }
  }, Math.max(10, Math.min(1000, options.enquireLinkMs / 4, options.responseTimeoutMs / 4)))

  connect()

  return {
    submit: (params, key) =>
      new Promise<Outcome>((resolve) => {
        if (closed) return resolve({ _tag: "LinkFailed", reason: "the link is closed", sent: false })
        queue.push({ params, settle: resolve, key, cleared: journal === undefined, forgetting: undefined, failures: 0, written: undefined })
        if (gaveUp) {
          // The SMSC may be back: a new round of at most maxBindAttempts, rather than a submission held forever.
          gaveUp = false
          attempt = 0
          reconnectWait = options.reconnectMs.initial
          return connect()
        }
        pump()
      }),
    idle: pending.idle,
    isBound: () => bound,
    outstanding: () => queue.length + inflight.size,
    onTheWire: () => inflight.size,
    close: () =>
      new Promise<void>((resolve) => {
        closed = true
        clearInterval(watchdog)
        clearTimeout(connectTimer)
        clearTimeout(reconnectTimer)
        pending.drain("the link is closed")
        for (const entry of inflight.values()) entry.submission.settle({ _tag: "LinkFailed", reason: "the link is closed", sent: true })
        inflight.clear()
        notifyIdle()
        const current = session
        session = undefined
        if (current === undefined) return resolve()
        current.removeAllListeners()
        current.on("error", () => undefined)
        const finish = () => {
          current.destroy()
          resolve()
        }
        if (!bound) return finish()
        bound = false
        const timer = setTimeout(finish, 1000)
        current.unbind({}, () => {
          clearTimeout(timer)
          finish()
        })
      })
  }
}
