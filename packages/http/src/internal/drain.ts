/**
 * The end of keep-alive when the server stops: from then on every response says `Connection: close` (those under way
 * included, if their headers are not out yet), and idle connections are closed. Node's `close` closes the connections
 * idle at that moment only: one that finished a request a moment later stayed open until its keep-alive timeout, so
 * the process outlived its last request by seconds, and its clients kept sending on it while it drained.
 *
 * Before the listener closes, the connections the kernel has already accepted are taken: Node takes one a turn of the
 * event loop, and closing the listener resets those still queued, whose requests were sent but never read. Then a
 * connection that has sent nothing for {@link silentGrace} is closed as an idle one is (Node counts it as a request
 * under way, so it held the stop for the whole drain).
 */
import type { Server, ServerResponse } from "node:http"
import type { Socket } from "node:net"

export interface Drain {
  /** Starts the drain; `ready` is called once the queued connections are taken, when the listener may close. */
  readonly start: (ready: () => void) => void
}

/** How long the stop keeps taking queued connections, at most: under a flood of new ones the listener closes anyway. */
export const acceptWindow = 1000

/** The response a connection is writing or about to write (Node's own field), if any. */
const responseOn = (socket: Socket): ServerResponse | undefined => {
  const response: unknown = Reflect.get(socket, "_httpMessage")
  return typeof response === "object" && response !== null && "headersSent" in response ? response as ServerResponse : undefined
}

/**
 * How long a connection may have sent nothing before the stop closes it: a request written as it was accepted may not
 * have been read yet (closed at once, 1–15 of 40 such connections got no answer in an independent review's runs).
 */
export const silentGrace = 250

export const make = (server: Server): Drain => {
  // Connections, not requests, each with when it was taken: nothing is added to the path of each request until the
  // drain starts.
  const sockets = new Map<Socket, number>()
  let accepted = false
  server.on("connection", (socket: Socket) => {
    accepted = true
    sockets.set(socket, performance.now())
    socket.once("close", () => sockets.delete(socket))
  })
  const closeSilent = () => {
    const now = performance.now()
    let wait = Infinity
    for (const [socket, taken] of sockets) {
      if (socket.bytesRead !== 0 || responseOn(socket) !== undefined) continue
      if (now - taken >= silentGrace) socket.destroy()
      else wait = Math.min(wait, taken + silentGrace - now)
    }
    if (wait !== Infinity) setTimeout(closeSilent, wait)
  }
  return {
    start: (ready) => {
      server.on("request", (_request, response: ServerResponse) => void (response.shouldKeepAlive = false))
      for (const socket of sockets.keys()) {
        const response = responseOn(socket)
        if (response !== undefined && !response.headersSent) response.shouldKeepAlive = false
      }
      server.closeIdleConnections()
      // A turn of the event loop polls the listener and every connection taken in the turn before: a turn that took
      // no connection found the queue empty, and a turn later every connection taken has had the bytes it sent read.
      const until = performance.now() + acceptWindow
      accepted = true
      const check = () => {
        if (accepted && performance.now() < until) {
          accepted = false
          return void setImmediate(check)
        }
        ready()
        setImmediate(closeSilent)
      }
      setImmediate(check)
    }
  }
}
