/**
 * @smsbook/http: the smsbook interface over HTTP — one `HttpApi` definition giving the server,
 * typed and Promise clients, and the OpenAPI document.
 */
export * as Api from "./Api.ts"
export * as Authentication from "./Authentication.ts"
export * as Client from "./Client.ts"
export * as ErrorBody from "./ErrorBody.ts"
export * as Handlers from "./Handlers.ts"
export * as KannelCallbacks from "./KannelCallbacks.ts"
export * as ServeHeap from "./ServeHeap.ts"
export * as Server from "./Server.ts"
