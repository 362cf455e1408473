/**
 * smsbox's `sendsms` as the dispatcher's link: a window of requests in flight, a tps limit, backoff
 * while smsbox is unreachable or full (HTTP 503), and the journal told before each request is made.
 */
import * as Backoff from "./internal/backoff.ts"
import * as ConnectFailure from "./internal/connectFailure.ts"
import type * as Link from "./internal/link.ts"
import * as Pending from "./internal/pending.ts"
import type { KannelConfig } from "./KannelConfig.ts"

interface Submission extends Pending.Entry {
  readonly url: string
  readonly destination: string
  readonly id: string
}

/** What one sendsms answer means for its part. */
export type Verdict =
  | { readonly _tag: "Accepted" }
  /** smsbox did not take it for now (full, overloaded): the same part is asked again later. */
  | { readonly _tag: "Retry"; readonly status: number }
  | { readonly _tag: "Refused"; readonly status: number }

/**
 * smsbox answers 202 (`0: Accepted for delivery`, `3: Queued for later delivery`) when it took the
 * message; 503 (`Temporal failure, try again later.`: bearerbox's queue is full; a proxy's 429 alike)
 * when it could not take it now; other statuses (403 `Not routable. Do not try again.`, 400, 401…)
 * refuse it for good.
 */
export const verdict = (status: number): Verdict =>
  status >= 200 && status < 300
    ? { _tag: "Accepted" }
    : status === 503 || status === 429
    ? { _tag: "Retry", status }
    : { _tag: "Refused", status }

/** Failures of `fetch` that happen before a request leaves: smsbox cannot have it. */
const notConnected = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"])

/** The code of a `fetch` failure (undici puts the socket's error under `cause`). */
export const failureCode = (error: unknown): string | undefined => {
  let current: unknown = error
  for (let depth = 0; depth < 4 && typeof current === "object" && current !== null; depth++) {
    if ("code" in current && typeof current.code === "string") return current.code
    current = "cause" in current ? current.cause : undefined
  }
  return undefined
}

/** Whether a `fetch` failure left the request unsent (then it may be made again), rather than unanswered. */
export const unsent = (error: unknown): boolean => notConnected.has(failureCode(error) ?? "")

/** `host:port` of smsbox's sendsms, as messages name it. */
const addressOf = (config: Pick<KannelConfig, "sendsmsUrl">): string => new URL(config.sendsmsUrl).host

/** What a `fetch` failure says, with undici's code when it gives one. */
const describeFailure = (error: unknown): string =>
  error instanceof Error ? `${error.message}${failureCode(error) === undefined ? "" : ` (${failureCode(error)})`}` : String(error)

/** Why a request could not connect (it was never sent), and what to check (`ConnectFailure`). */
export const connectFailure = (config: Pick<KannelConfig, "sendsmsUrl">, error: unknown): string =>
  ConnectFailure.describe(
    { address: addressOf(config), host: new URL(config.sendsmsUrl).hostname, listener: " (smsbox's sendsms-port), and that smsbox is running" },
    failureCode(error),
    describeFailure(error)
  )

const field = (params: Record<string, unknown>, name: string): string => {
  const value = params[name]
  return typeof value === "string" ? value : ""
}

/** Why a probe failed: it could not connect, or the port took it and never answered (likely not smsbox). */
const probeFailure = (config: Pick<KannelConfig, "sendsmsUrl">, error: unknown): string =>
  unsent(error)
    ? connectFailure(config, error)
    : `${addressOf(config)} took the connection but did not answer (${describeFailure(error)}); check that the carrier URL's port is smsbox's sendsms-port`

/**
 * Opens the link: submissions are `KannelRequest.Request`s. No message goes out before smsbox has answered a probe
 * (made at once, and again with backoff until it is answered):
 * a sendsms request without a message or credentials, which smsbox refuses (403), so that any answer shows it is
 * there and nothing is sent. A port that takes requests and never answers (no smsbox, or one that hung) is then
 * found without a part being put in doubt. A request that smsbox answered is settled by its verdict; one that never
 * left (smsbox unreachable) or that smsbox could not take (503) waits and is made again, the journal told it was not
 * taken; one whose answer was lost (a timeout, a reset) is never made again: `Accepted` under its id, which its
 * report will name, and the next message waits for a probe again, with backoff. After a probe, one message at a time
 * goes out until smsbox answers one. On `close`, requests in flight are `LinkFailed` with `sent` (in doubt for the
 * next run). Events: `Bound` at smsbox's first answer to a message, and at the first after a failure; `Disconnected`
 * for each probe or request that failed, naming smsbox's address and what to check where it could not be reached.
 */
export const open = (
  config: KannelConfig,
  onEvent: (event: Link.Event) => void,
  journal?: Link.Journal,
  request: (url: string, signal: AbortSignal) => Promise<number> = async (url, signal) => {
    const response = await fetch(url, { signal })
    await response.arrayBuffer()
    return response.status
  }
): Link.Link => {
  const inflight = new Map<Submission, AbortController>()
  const busy = new Set<string>()
  // Whether smsbox answered the latest probe, and no request has failed to reach it or lost its answer since.
  let bound = false
  // Whether smsbox has answered a message since then: until it has, one message at a time goes out, so a port that
  // answers probes and loses every message (a hung smsbox) puts one part in doubt per attempt, not a window of them.
  let proven = false
  const windowNow = () => proven ? config.window : 1
  let probing: AbortController | undefined
  let closed = false
  let failures = 0
  // While smsbox is unreachable or full.
  const backoff = Backoff.make(config.retryMs)
  let nextSlot = 0
  const interval = config.tps > 0 ? 1000 / config.tps : 0
  const pending = Pending.make<Submission>({
    journal,
    window: windowNow,
    tps: config.tps,
    destinationOf: (submission) => submission.destination,
    inflight: () => inflight.size,
    pump: () => pump()
  })
  const { queue, notifyIdle } = pending

  // The link's requests counted: a failure of a request sent before the latest wait began is part of its burst.
  let writes = 0

  /**
   * smsbox could not be reached or lost an answer: nothing more goes out until it answers a probe. Answers whether
   * this failure unbound the link (the first of a window failing together), which alone makes the link back off.
   */
  const unbind = (): boolean => {
    const was = bound
    bound = false
    proven = false
    return was
  }

  /** Asks smsbox for an answer without a message (see {@link open}), within the connect timeout. */
  const probe = () => {
    const controller = new AbortController()
    probing = controller
    const timer = setTimeout(() => controller.abort(new Error(`no answer within ${config.connectTimeoutMs / 1000} s`)), config.connectTimeoutMs)
    request(config.sendsmsUrl, controller.signal).then(
      () => {
        if (!closed) bound = true
      },
      (error: unknown) => {
        if (closed) return
        failures++
        onEvent({ _tag: "Disconnected", reason: probeFailure(config, error), requeued: 0, retryInMs: backoff.begin(writes) })
      }
    ).finally(() => {
      clearTimeout(timer)
      probing = undefined
      pump()
    })
  }

  const finish = (submission: Submission) => {
    inflight.delete(submission)
    busy.delete(submission.destination)
  }

  const send = (submission: Submission) => {
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(new Error(`no answer within ${config.responseTimeoutMs / 1000} s`)), config.responseTimeoutMs)
    inflight.set(submission, controller)
    busy.add(submission.destination)
    const written = ++writes
    submission.written = written
    request(submission.url, controller.signal).then(
      (status) => {
        clearTimeout(timer)
        finish(submission)
        if (closed) return submission.settle({ _tag: "LinkFailed", reason: "the link is closed", sent: true })
        // smsbox answers messages (any status): the first answer, or the first since it failed, binds the link.
        if (!proven && bound) {
          proven = true
          onEvent({ _tag: "Bound", attempt: failures + 1 })
          failures = 0
        }
        const answer = verdict(status)
        if (answer._tag === "Retry") {
          pending.putBack([submission])
          // A window refused together waits once.
          onEvent({ _tag: "Throttled", status, retryInMs: backoff.refused(written, writes) })
        }
        else {
          backoff.ease()
          submission.settle(answer._tag === "Accepted" ? { _tag: "Accepted", messageId: submission.id } : { _tag: "Refused", status })
        }
      },
      (error: unknown) => {
        clearTimeout(timer)
        finish(submission)
        const reason = describeFailure(error)
        if (closed) return submission.settle({ _tag: "LinkFailed", reason, sent: true })
        failures++
        const unbound = unbind()
        if (unsent(error)) {
          pending.putBack([submission])
          return onEvent({ _tag: "Disconnected", reason: connectFailure(config, error), requeued: 1, retryInMs: unbound ? backoff.begin(writes) : 0 })
        }
        // smsbox may have it: never asked again. Its report names it, so it is taken as submitted
        // under its id and the report settles it (without reports it counts as sent: at most once).
        onEvent({
          _tag: "Disconnected",
          reason: `the answer to ${submission.id} was lost: ${reason}`,
          requeued: 0,
          retryInMs: unbound ? backoff.begin(writes) : 0,
          inDoubt: 1
        })
        submission.settle({ _tag: "Accepted", messageId: submission.id })
      }
    ).finally(() => {
      pump()
      notifyIdle()
    })
  }

  const pump = () => {
    if (closed || pending.isClearing()) return
    if (!bound) {
      // Parts the journal cleared to go out (stored as on the wire, some by a clearing that ended after the link
      // unbound) will wait for a probe: the journal hears they were not taken.
      const cleared = queue.filter((queued) => queued.cleared)
      if (cleared.length > 0 && journal !== undefined) pending.notTaken(cleared)
    }
    const now = Date.now()
    const pausedUntil = backoff.pausedUntil()
    if (now < pausedUntil) return pending.schedule(pausedUntil - now)
    if (!bound) {
      // Once what is still on the wire has been answered: the link is not bound until the probe is.
      if (probing === undefined && inflight.size === 0) probe()
      return
    }
    // One request per number at a time: a crash leaves at most one part of a number in doubt, which
    // a report from that number can then settle.
    while (queue.length > 0 && inflight.size < windowNow()) {
      const index = queue.findIndex((candidate) => !busy.has(candidate.destination))
      const head = queue[index]
      if (head === undefined) break
      if (!head.cleared && journal !== undefined) return pending.clear(journal, busy)
      const slot = Math.max(Date.now(), nextSlot)
      if (slot > Date.now()) return pending.schedule(slot - Date.now())
      nextSlot = slot + interval
      queue.splice(index, 1)
      send(head)
    }
  }

  // Probed at once, as an SMPP link binds: the dispatcher hands parts over only to a bound link.
  pump()

  return {
    submit: (params, key) =>
      new Promise<Link.Outcome>((resolve) => {
        if (closed) return resolve({ _tag: "LinkFailed", reason: "the link is closed", sent: false })
        queue.push({
          url: field(params, "url"),
          destination: field(params, "destination"),
          id: field(params, "id"),
          key,
          settle: resolve,
          cleared: journal === undefined,
          forgetting: undefined,
          written: undefined
        })
        pump()
      }),
    idle: pending.idle,
    isBound: () => bound,
    outstanding: () => queue.length + inflight.size,
    onTheWire: () => inflight.size,
    close: () => {
      closed = true
      pending.drain("the link is closed")
      // Requests in flight are cut: smsbox may have them, so they stay in doubt.
      for (const controller of inflight.values()) controller.abort(new Error("the link is closed"))
      probing?.abort(new Error("the link is closed"))
      notifyIdle()
      return Promise.resolve()
    }
  }
}
