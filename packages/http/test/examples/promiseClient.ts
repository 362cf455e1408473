import { Client } from "@smsbook/http"

// A service without Effect: plain Promises, refusals thrown as SmsbookHttpError.
export async function remind(baseUrl: string, apiKey: string): Promise<string> {
  const smsbook = Client.promise({ baseUrl, apiKey })
  try {
    const contact = await smsbook.getContact("447400123456")
    const sent = await smsbook.sendToContact({ msisdn: contact.msisdn, message: `Hi ${contact.first_name}, see you at 9` })
    return sent.message_id ?? ""
  } catch (error) {
    if (error instanceof Client.SmsbookHttpError) return `refused: ${error.code} (${error.status})`
    throw error
  } finally {
    await smsbook.close()
  }
}
