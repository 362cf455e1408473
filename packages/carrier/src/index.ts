/**
 * @smsbook/carrier: core's `Carrier` over SMPP 3.4 (throughput limit, window, retries, concatenation,
 * delivery receipts, inbound SMS) or Kannel's smsbox over HTTP. Every module is a namespace.
 */
export * as CarrierConfig from "./CarrierConfig.ts"
export * as Deliveries from "./Deliveries.ts"
export * as Dispatcher from "./Dispatcher.ts"
export * as KannelConfig from "./KannelConfig.ts"
export * as KannelRequest from "./KannelRequest.ts"
export * as Reassembly from "./Reassembly.ts"
export * as Receipt from "./Receipt.ts"
export * as ShortMessage from "./ShortMessage.ts"
export * as SmppCarrier from "./SmppCarrier.ts"
export * as SmppConfig from "./SmppConfig.ts"
