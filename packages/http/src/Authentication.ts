/**
 * The server side of `Api.Authorization`: a bearer key checked against the `ApiKeyStore`, or
 * (`--no-auth`, loopback only) every request let through.
 */
import * as ApiKeyStore from "@smsbook/store/ApiKeyStore"
import { Effect, Layer, Option, Redacted, type Types } from "effect"
import type { HttpServerResponse } from "effect/http"
import { Authorization } from "./Api.ts"
import * as ErrorBody from "./ErrorBody.ts"

const missing = Effect.fail(ErrorBody.http("Unauthorized", "an API key is required: send Authorization: Bearer <key>"))
const unknown = Effect.fail(ErrorBody.http("Unauthorized", "the API key is unknown or revoked"))

/**
 * Requests need `Authorization: Bearer <key>` with a live key of the store. The check runs on every
 * request, so it is plain combinators (no generator) over the store's `verify`, which remembers the
 * keys it found live for a second.
 */
export const layer: Layer.Layer<Authorization, never, ApiKeyStore.ApiKeyStore> = Layer.effect(
  Authorization,
  Effect.map(Effect.service(ApiKeyStore.ApiKeyStore), (keys) =>
    Authorization.of({
      bearer: (httpEffect, { credential }) => {
        const secret = Redacted.value(credential)
        if (secret === "") return missing
        // A store that fails here is a defect of this request, answered by the outermost middleware as the store's
        // failure: 500 STORE_FAILURE, or 503 STORE_UNAVAILABLE when the store cannot be reached.
        return Effect.flatMap(
          Effect.orDie(keys.verify(secret)),
          (key): Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled | ErrorBody.BodyOf<401>> =>
            Option.isNone(key) ? unknown : httpEffect
        )
      }
    }))
)

/** Every request is let through (`--no-auth`; the server allows it only on a loopback host). */
export const layerOpen: Layer.Layer<Authorization> = Layer.succeed(
  Authorization,
  Authorization.of({ bearer: (httpEffect) => httpEffect })
)
