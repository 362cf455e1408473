/**
 * Why a connection to a carrier could not be made (the request or the bind was never sent), from the system's error
 * code, and what to check. The address is named: a wrong host or port, or a carrier that is not running, is the usual
 * cause. Shared by the SMPP link and Kannel's.
 */

/** The carrier a connection was for, as its messages name it. */
export interface Target {
  /** `host:port`. */
  readonly address: string
  readonly host: string
  /** Said after "check the host and port of the carrier URL" when nothing listens: which port, and what runs there. */
  readonly listener: string
}

/** The message for a failed connection to `target`: by `code` (the socket's or undici's), else with `detail`. */
export const describe = (target: Target, code: unknown, detail: string): string => {
  switch (code) {
    case "ECONNREFUSED":
      return `connection refused: nothing listens on ${target.address}; check the host and port of the carrier URL${target.listener}`
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `cannot resolve the host name ${target.host}; check the host of the carrier URL`
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return `no route to ${target.address}; check the host of the carrier URL and this machine's network`
    case "ETIMEDOUT":
    case "UND_ERR_CONNECT_TIMEOUT":
      return `no answer from ${target.address} to the connection; check the host and port of the carrier URL, and that no firewall stands between`
    default:
      return `cannot connect to ${target.address} (${detail}); check the host and port of the carrier URL`
  }
}
