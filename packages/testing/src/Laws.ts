/**
 * Laws: the reliability laws every store kind must keep over several connections to one book (opt-out
 * races, edit races, tag races, inbound races, overlapping imports) and the suppression-list law; an adapter's test runs each on its `Kind`.
 */
export { account, type Env, type Kind, memory, on } from "./laws/Books.ts"
export * as EditRace from "./laws/EditRace.ts"
export * as SuppressionRace from "./laws/SuppressionRace.ts"
export * as ImportOverlap from "./laws/ImportOverlap.ts"
export * as InboundRace from "./laws/InboundRace.ts"
export * as OptOutRace from "./laws/OptOutRace.ts"
export * as Suppression from "./laws/Suppression.ts"
export * as TagRace from "./laws/TagRace.ts"
