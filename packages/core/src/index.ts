/**
 * @smsbook/core: the rules, wire shapes, errors, ports and use cases of the smsbook interface.
 * Every module is a namespace: `import { Sms, Msisdn } from "@smsbook/core"`.
 */
export * as Account from "./Account.ts"
export * as Carrier from "./Carrier.ts"
export * as Contact from "./Contact.ts"
export * as Country from "./Country.ts"
export * as ContactBook from "./ContactBook.ts"
export * as ContactStore from "./ContactStore.ts"
export * as CreatedOn from "./CreatedOn.ts"
export * as Errors from "./Errors.ts"
export * as ExternalId from "./ExternalId.ts"
export * as HttpDate from "./HttpDate.ts"
export * as MemoryStore from "./MemoryStore.ts"
export * as Message from "./Message.ts"
export * as Messaging from "./Messaging.ts"
export * as MessageStore from "./MessageStore.ts"
export * as Msisdn from "./Msisdn.ts"
export * as PartQueue from "./PartQueue.ts"
export * as Ports from "./Ports.ts"
export * as Query from "./Query.ts"
export * as Resumption from "./Resumption.ts"
export * as Sms from "./Sms.ts"
export * as Wire from "./Wire.ts"
export {
  CarrierFailure,
  ContactExists,
  ContactNotFound,
  DuplicateSend,
  ExternalIdTooLong,
  IllegalTransition,
  InvalidCreatedOn,
  InvalidField,
  InvalidHttpDate,
  InvalidMsisdn,
  InvalidParameter,
  InvalidStoreUrl,
  MessageNotFound,
  MessageTooLong,
  MissingTags,
  NoRecipients,
  RecipientOptedOut,
  StoreFailure,
  StoreUnavailable
} from "./Errors.ts"
export type { SmsbookError, StoreProblem } from "./Errors.ts"
