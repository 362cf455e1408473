/**
 * The end of keep-alive when the server stops: from then on every response says `Connection: close` (those under way
 * included, if their headers are not out yet), and idle connections are closed. Node's `close` closes the connections
 * idle at that moment only: one that finished a request a moment later stayed open until its keep-alive timeout, so
 * the process outlived its last request by seconds, and its clients kept sending on it while it drained.
 */
import type { Server, ServerResponse } from "node:http"

export interface Drain {
  /** Starts the drain: called as the server stops accepting. */
  readonly start: () => void
}

export const make = (server: Server): Drain => {
  let draining = false
  const unanswered = new Set<ServerResponse>()
  server.on("request", (_request, response: ServerResponse) => {
    if (draining) {
      response.shouldKeepAlive = false
      return
    }
    unanswered.add(response)
    response.once("close", () => unanswered.delete(response))
  })
  return {
    start: () => {
      draining = true
      for (const response of unanswered) if (!response.headersSent) response.shouldKeepAlive = false
      unanswered.clear()
      server.closeIdleConnections()
    }
  }
}
