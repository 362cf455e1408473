/**
 * The interface's sample requests (spec/interface.md), as its text describes them: numeric msisdn
 * and id, the table's `misdn`, the create body's four fields, the edit's two names.
 */

export const msisdn = "447400123456"
export const other = "447400123457"

/** 4.6: a Contact object with country_code, first_name, last_name, msisdn (numeric in the samples). */
export const createContact = { country_code: "44", first_name: "Ann", last_name: "Lee", msisdn: 447400123456 }

/** 4.7: the sample sends first_name and last_name. */
export const editContact = { first_name: "Anne", last_name: "Leigh" }

/** 4.2: the sample request uses msisdn, a number, and a numeric id returned as text. */
export const sendToContact = { msisdn: 447400123456, message: "Your order has shipped", id: 12345 }

/** 4.2: the parameter table's spelling. */
export const sendToContactMisdn = { misdn: "447400123457", message: "Hello from the table" }

/** 4.3: tags, message and an anti-spam id. */
export const sendToGroups = { tags: ["news", "VIP"], message: "Shop opens at 9", id: "news-2026-11-21" }

/** 4.1: the HTTP-date window of the sample (`D, d M Y H:i:s T`). */
export const messagesWindow = "start_date=Sat,%2021%20Nov%202020%2010:15:00%20GMT&end_date=Fri,%2031%20Dec%202100%2023:59:59%20GMT"
