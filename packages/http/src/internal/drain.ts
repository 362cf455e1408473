/**
 * The end of keep-alive when the server stops: from then on every response says `Connection: close` (those under way
 * included, if their headers are not out yet), and idle connections are closed. Node's `close` closes the connections
 * idle at that moment only: one that finished a request a moment later stayed open until its keep-alive timeout, so
 * the process outlived its last request by seconds, and its clients kept sending on it while it drained.
 */
import type { Server, ServerResponse } from "node:http"
import type { Socket } from "node:net"

export interface Drain {
  /** Starts the drain: called as the server stops accepting. */
  readonly start: () => void
}

/** The response a connection is writing or about to write (Node's own field), if any. */
const responseOn = (socket: Socket): ServerResponse | undefined => {
  const response: unknown = Reflect.get(socket, "_httpMessage")
  return typeof response === "object" && response !== null && "headersSent" in response ? response as ServerResponse : undefined
}

export const make = (server: Server): Drain => {
  // Connections, not requests: nothing is added to the path of each request until the drain starts.
  const sockets = new Set<Socket>()
  server.on("connection", (socket: Socket) => {
    sockets.add(socket)
    socket.once("close", () => sockets.delete(socket))
  })
  return {
    start: () => {
      server.on("request", (_request, response: ServerResponse) => void (response.shouldKeepAlive = false))
      for (const socket of sockets) {
        const response = responseOn(socket)
        if (response !== undefined && !response.headersSent) response.shouldKeepAlive = false
      }
      server.closeIdleConnections()
    }
  }
}
