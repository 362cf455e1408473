/**
 * Types for the parts of the `smpp` package (pure JavaScript, untyped) that smsbook uses:
 * sessions (client and server side), PDUs, the command and TLV tables, and the status codes.
 */
declare module "smpp" {
  import type { EventEmitter } from "node:events"
  import type * as Net from "node:net"

  /** A decoded PDU: header fields plus the command's parameters and TLVs by name. */
  export interface Pdu {
    readonly command: string
    readonly command_id: number
    readonly command_status: number
    readonly sequence_number: number
    readonly [field: string]: unknown
    isResponse(): boolean
    response(options?: Record<string, unknown>): Pdu
    toBuffer(): Buffer
  }

  export type ResponseCallback = (pdu: Pdu) => void

  export class Session extends EventEmitter {
    readonly socket: Net.Socket
    send(pdu: Pdu, responseCallback?: ResponseCallback, sendCallback?: ResponseCallback): boolean
    bind_transceiver(options: Record<string, unknown>, callback?: ResponseCallback): boolean
    submit_sm(options: Record<string, unknown>, callback?: ResponseCallback): boolean
    deliver_sm(options: Record<string, unknown>, callback?: ResponseCallback): boolean
    enquire_link(options?: Record<string, unknown> | ResponseCallback, callback?: ResponseCallback): boolean
    unbind(options?: Record<string, unknown> | ResponseCallback, callback?: ResponseCallback): boolean
    pause(): void
    resume(): void
    close(callback?: () => void): void
    destroy(callback?: () => void): void
  }

  // The class's instances are `Pdu`s: declared once, merged into the class.
  export interface PDU extends Pdu {}
  export class PDU {
    constructor(command: string, options?: Record<string, unknown>)
    static maxLength: number
  }

  export class Server extends EventEmitter {
    readonly sessions: Array<Session>
    listen(port: number, host: string, callback?: () => void): this
    address(): Net.AddressInfo | string | null
    close(callback?: (error?: Error) => void): this
  }

  export interface ParamDef {
    type: unknown
    filter?: unknown
    default?: unknown
  }

  export interface CommandDef {
    readonly id: number
    params?: Record<string, ParamDef>
  }

  export interface TlvDef {
    readonly id: number
    type: unknown
    filter?: unknown
  }

  export interface ConnectOptions {
    readonly host: string
    readonly port: number
    readonly auto_enquire_link_period?: number
  }

  export function connect(options: ConnectOptions, listener?: () => void): Session
  export function createServer(options: Record<string, unknown>, listener?: (session: Session) => void): Server

  export const commands: Record<string, CommandDef>
  export const tlvs: Record<string, TlvDef>
  export const errors: Record<string, number>
  export const gsmCoder: {
    decode(bytes: Uint8Array, table?: number): string
    encode(text: string, table?: number): Buffer
  }

  const smpp: {
    readonly connect: typeof connect
    readonly createServer: typeof createServer
    readonly PDU: typeof PDU
    readonly commands: typeof commands
    readonly tlvs: typeof tlvs
    readonly errors: typeof errors
    readonly gsmCoder: typeof gsmCoder
  }
  export default smpp
}
