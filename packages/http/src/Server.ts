/**
 * The smsbook HTTP server: `Api` on `@effect/platform-node`'s HTTP server over any store, with the
 * OpenAPI document, a reference page, bounded bodies, slow-client timeouts, a graceful stop and one
 * access-log line per request.
 */
import { createServer } from "node:http"
import { NodeHttpServer } from "@effect/platform-node"
import { Account, InvalidField, type InvalidStoreUrl, type StoreUnavailable } from "@smsbook/core"
import * as Store from "@smsbook/store/Store"
import { type Duration, Effect, Layer, References, Result, type Scope, Tracer } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { HttpApiBuilder, HttpApiScalar } from "effect/http-api"
import { NetAddress } from "effect/net"
import type { ServeError } from "effect/http/HttpServerError"
import { Api } from "./Api.ts"
import * as Authentication from "./Authentication.ts"
import * as Handlers from "./Handlers.ts"
import * as KannelCallbacks from "./KannelCallbacks.ts"
import * as AccessLog from "./internal/accessLog.ts"
import * as LineBatch from "./internal/lineBatch.ts"
import * as ClientErrors from "./internal/clientErrors.ts"
import * as Drain from "./internal/drain.ts"

export interface Options {
  /** Host to listen on (default 127.0.0.1). */
  readonly host?: string
  /** Port to listen on (default 8080; 0 picks a free one). */
  readonly port?: number
  /** The store URL (`./smsbook.db`, `sqlite:PATH`, `postgres://…`, `memory:`). */
  readonly store: string
  /** How long a write waits for another process's lock on a SQLite book before it fails (default `Store.defaultLockWait`). */
  readonly lockWait?: Duration.Input
  /** The account the server sends for (short name, short code, user, time zone, spam period). */
  readonly account: Account.Settings
  /** The country of inbound senders written nationally, on Kannel's `get-url` (`Messaging.ReceiveOptions`). */
  readonly defaultCountry?: string | undefined
  /** Let every request through without a key: refused unless `host` is a loopback address. */
  readonly noAuth?: boolean
  /** Where access-log lines go (default: stderr, one JSON object per line, written in batches). */
  readonly log?: (line: string) => void
  /** Slow clients: headers within this many ms (default 10 s), the whole request within `requestTimeout` (default 30 s). */
  readonly headersTimeout?: number
  readonly requestTimeout?: number
  /** An idle keep-alive connection is closed after this many ms (default 5 s). */
  readonly keepAliveTimeout?: number
  /** On stop, in-flight requests may finish for this many ms (default 10 s) before they are cut. */
  readonly drainTimeout?: number
  /**
   * A SQLite store's page cache in KiB (default 16 MiB): requests touch a few pages each, so the
   * 64 MiB an import wants would only be memory the server keeps growing into.
   */
  readonly cacheKiB?: number
}

export const defaults = {
  host: "127.0.0.1",
  port: 8080,
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  drainTimeout: 10_000,
  cacheKiB: 16 * 1024
} as const

/** Whether `host` only reaches this machine: `localhost`, 127.0.0.0/8 or `::1`. */
export const isLoopback = (host: string): boolean => {
  const name = host.trim().toLowerCase().replace(/^\[(.*)\]$/, "$1")
  return name === "localhost" || name === "::1" || /^127(\.\d{1,3}){3}$/.test(name) || name === "::ffff:127.0.0.1"
}

/** The store kind `/health` names. */
const storeKind = (url: string): string => {
  const location = Store.locate(url)
  return "kind" in location ? location.kind : "unknown"
}

/**
 * The checks made before anything opens, each naming the flag or setting at fault as typed: `--no-auth` only on a
 * loopback host, a valid port, an account `Account.make` takes, and a `memory:` store only with `--no-auth` (its keys
 * live in this process's memory, which no `smsbook keys create` of another process can reach: every request would
 * answer 401).
 */
export const check = (options: Options): Effect.Effect<void, InvalidField> => {
  const host = options.host ?? defaults.host
  const port = options.port ?? defaults.port
  if (options.noAuth === true && !isLoopback(host)) {
    return Effect.fail(new InvalidField({ field: "--no-auth", value: host, reason: "is allowed only on a loopback host (127.0.0.1, ::1, localhost)" }))
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    return Effect.fail(new InvalidField({ field: "--port", value: String(port), reason: "must be a whole number from 0 to 65535" }))
  }
  // An account built by hand (`{ ...Account.defaults, short_name }`) is checked as the command line's is.
  const account = Account.make(options.account)
  if (Result.isFailure(account)) return Effect.fail(account.failure)
  if (options.noAuth !== true && storeKind(options.store) === "memory") {
    return Effect.fail(new InvalidField({
      field: "--store",
      value: options.store,
      reason: "is a book in this process's memory, whose API keys no other process can create: serve it with --no-auth (loopback only), or serve a file or PostgreSQL book"
    }))
  }
  return Effect.void
}

/**
 * Where access-log lines go: to `log` when given, else to stderr in one write per turn of the event loop (a write per
 * request was a system call per request), what is pending written when the server stops.
 */
const logLines = (log: Options["log"]): Effect.Effect<(line: string) => void, never, Scope.Scope> =>
  log !== undefined ? Effect.succeed(log) : Effect.map(
    Effect.acquireRelease(
      Effect.sync(() => LineBatch.make((chunk) => void process.stderr.write(chunk))),
      (batch) => Effect.sync(batch.close)
    ),
    (batch) => batch.line
  )

/** Every route: the API, `/openapi.json`, the reference page at `/docs`, Kannel's callbacks, and the access log around them. */
const routes = (options: Options, log: (line: string) => void) =>
  Layer.mergeAll(
    HttpApiBuilder.layer(Api, { openapiPath: "/openapi.json" }).pipe(
      Layer.provide(Handlers.layer(storeKind(options.store)))
    ),
    HttpApiScalar.layer(Api, { path: "/docs" }),
    KannelCallbacks.layer({ store: options.store, open: options.noAuth === true, defaultCountry: options.defaultCountry, lockWait: options.lockWait }),
    AccessLog.layer(log)
  )

/**
 * Spans off when nothing would read them: with only Effect's in-memory tracer, every request and
 * use case made spans (random ids, clock reads) that no exporter collects. A tracer installed by
 * whoever embeds the server keeps them.
 */
const spansOnlyForABackend = Layer.unwrap(
  Effect.map(Effect.service(Tracer.Tracer), (tracer) =>
    tracer === Tracer.nativeTracer ? Layer.succeed(References.TracerEnabled, false) : Layer.empty)
)

/**
 * The server as a layer: building it opens the store and listens; releasing it stops accepting,
 * lets in-flight requests finish (up to `drainTimeout`), then closes the store.
 */
export const layer = (
  options: Options
): Layer.Layer<HttpServer.HttpServer, InvalidField | InvalidStoreUrl | StoreUnavailable | ServeError> => {
  const headersTimeout = options.headersTimeout ?? defaults.headersTimeout
  const requestTimeout = Math.max(options.requestTimeout ?? defaults.requestTimeout, headersTimeout)
  // The drain of the server the layer creates (built after it, so released before its `close`).
  let drain: Drain.Drain | undefined
  const listen = (log: (line: string) => void) => NodeHttpServer.layer(
    () => {
      const server = createServer({
        headersTimeout,
        requestTimeout,
        keepAliveTimeout: options.keepAliveTimeout ?? defaults.keepAliveTimeout,
        // Node's refusal of a request without Host has an empty body: the app refuses it (`ClientErrors.hostMissing`).
        requireHostHeader: false,
        // Node checks the two timeouts above on this period (30 s by default).
        connectionsCheckingInterval: Math.min(1000, headersTimeout)
      }).on("clientError", ClientErrors.onClientError(log)).on("connect", ClientErrors.onConnect(log))
      // Node answers an `Expect` other than 100-continue 417 with an empty body, which no endpoint declares; RFC 9110
      // §10.1.1 lets a server ignore an expectation it does not know, so such a request is served as one without it.
      server.on("checkExpectation", (request, response) => void server.emit("request", request, response))
      drain = Drain.make(server)
      return server
    },
    {
      host: options.host ?? defaults.host,
      port: options.port ?? defaults.port,
      gracefulShutdownTimeout: options.drainTimeout ?? defaults.drainTimeout
    }
  )
  const served = (log: (line: string) => void) => HttpRouter.serve(routes(options, log), {
    disableLogger: true,
    disableListenLog: true,
    // The router's default (100 characters) answered a longer `:msisdn` 404 ROUTE_NOT_FOUND, as if the path were no
    // endpoint: any length Node lets through (its 16 KiB of headers) reaches the endpoint, which says what is wrong.
    // Paths are the document's, exactly: by default the router also served `/CONTACTS`, `/contacts/` and `/contacts//`
    // (the list), which no document names and a cache or proxy would tell apart.
    routerConfig: { maxParamLength: 16 * 1024, caseSensitive: true, ignoreTrailingSlash: false, ignoreDuplicateSlashes: false }
  }).pipe(
    Layer.provideMerge(listen(log)),
    Layer.provide(spansOnlyForABackend),
    Layer.provide(options.noAuth === true ? Authentication.layerOpen : Authentication.layer),
    Layer.provide(Layer.mergeAll(Store.layer(options.store, {
      cacheKiB: options.cacheKiB ?? defaults.cacheKiB,
      groupCommit: true,
      ...(options.lockWait === undefined ? {} : { lockWait: options.lockWait })
    }), Account.layer(options.account)))
  )
  const draining = Layer.effectDiscard(Effect.addFinalizer(() =>
    Effect.callback<void>((resume) => drain === undefined ? resume(Effect.void) : drain.start(() => resume(Effect.void)))
  ))
  return Layer.unwrap(Effect.andThen(check(options), Effect.map(logLines(options.log), (log) => Layer.provideMerge(draining, served(log)))))
}

/**
 * Runs the server until the process is interrupted (SIGINT, SIGTERM under `NodeRuntime.runMain`):
 * then it stops accepting, drains, and closes the store. `onListening` receives the bound address.
 */
export const serve = (options: Options, onListening: (url: string) => Effect.Effect<void> = () => Effect.void) =>
  Layer.launch(
    Layer.effectDiscard(
      Effect.flatMap(
        Effect.service(HttpServer.HttpServer),
        (server) => onListening(NetAddress.formatUrlUnsafe(server.address, "http"))
      )
    ).pipe(Layer.provideMerge(layer(options)))
  )
