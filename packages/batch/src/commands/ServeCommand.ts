/**
 * `smsbook serve [--host 127.0.0.1] [--port 8080] [--store URL] [--no-auth]`: the interface over
 * HTTP until SIGTERM, SIGINT or SIGHUP, which stop it gracefully (in-flight requests finish, the store closes).
 */
import { ServeHeap, Server } from "@smsbook/http"
import { Console, Effect } from "effect"
import { Command, Flag } from "effect/cli"
import type { ServeError } from "effect/http/HttpServerError"
import { InvalidSettings } from "../CliErrors.ts"
import * as GlobalFlags from "../GlobalFlags.ts"
import * as Interruption from "../internal/interruption.ts"
import * as Output from "../Output.ts"

/** Why the server could not listen, as the flag at fault: Node's own error has no message worth showing alone. */
const cannotListen = (host: string, port: number) => (error: ServeError): InvalidSettings => {
  const code = typeof error.cause === "object" && error.cause !== null && "code" in error.cause ? String(error.cause.code) : ""
  const at = `${host}:${port}`
  switch (code) {
    case "EADDRINUSE":
      return new InvalidSettings({ setting: "--port", value: String(port), reason: `${at} is already in use: choose another --port, or stop what listens there` })
    case "EACCES":
      return new InvalidSettings({ setting: "--port", value: String(port), reason: `this user may not listen on ${at}: choose a port above 1023` })
    case "EADDRNOTAVAIL":
    case "ENOTFOUND":
      return new InvalidSettings({ setting: "--host", value: host, reason: `no interface of this machine has the address ${host}` })
    default:
      return new InvalidSettings({
        setting: "--host",
        value: at,
        reason: `cannot listen there: ${error.cause instanceof Error ? error.cause.message : String(error.cause)}`
      })
  }
}

/** What a stopped server says it did: its normal way to stop, not work lost (each request is its own transaction). */
const stopped = "the server stopped accepting requests, answered those in flight (a request still running " +
  "after 10 s was answered 503 and rolled back) and closed the store"

export const command = Command.make(
  "serve",
  {
    ...GlobalFlags.flags,
    host: Flag.String("host").pipe(Flag.withDescription("Host to listen on"), Flag.withDefault(Server.defaults.host)),
    port: Flag.Int("port").pipe(Flag.withDescription("Port to listen on (0: any free port)"), Flag.withDefault(Server.defaults.port)),
    defaultCountry: GlobalFlags.defaultCountry,
    noAuth: Flag.Boolean("no-auth").pipe(
      Flag.withDescription("Serve without API keys (only on a loopback host)"),
      Flag.withDefault(false)
    )
  },
  (input) =>
    Effect.gen(function*() {
      const resolved = yield* GlobalFlags.settings(input, { needsShortName: true })
      yield* GlobalFlags.checkResolvedStore(resolved, { create: false })
      const defaultCountry = yield* GlobalFlags.checkedCountry(input.defaultCountry)
      // This process only serves: V8's heap is sized so its memory stays flat (docs/benchmarks.md). The
      // executable did so already before loading anything for `smsbook serve …`; this covers other spellings.
      ServeHeap.limit()
      Interruption.keep(stopped)
      return yield* Server.serve(
        {
          host: input.host,
          port: input.port,
          store: resolved.store,
          account: resolved.account,
          noAuth: input.noAuth,
          defaultCountry,
          ...(resolved.lockWait === undefined ? {} : { lockWait: resolved.lockWait })
        },
        (url) => input.json ? Effect.andThen(Output.streamed, Console.log(JSON.stringify({ url }))) : Console.log(`smsbook serving on ${url} (reference: ${url}/docs)`)
      ).pipe(Effect.catchTag("ServeError", (error) => Effect.fail(cannotListen(input.host, input.port)(error))))
    })
).pipe(Command.withDescription("Serve the interface over HTTP (API keys: smsbook keys create)"))
