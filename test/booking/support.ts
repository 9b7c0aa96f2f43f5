import { expect } from "vitest"
import type { httpClient } from "../support/http"
import type { TestServer } from "../support/server"

/**
 * Pays a booking as a browser would: the checkout session from the API, then the sandbox's hosted
 * checkout form posted with a test card (the sandbox delivers its signed events to the app's webhook
 * before it redirects). Answers where the page sent the browser.
 */
export const payInSandbox = async (
  server: TestServer,
  api: ReturnType<typeof httpClient>,
  token: string,
  bookingId: string,
  card = "4242424242424242"
) => {
  const session = await api.post("/api/payments/checkout/session", { bookingId }, { token })
  expect(session.status, session.text).toBe(200)
  const url = new URL(session.body.data.url)
  const reply = await fetch(`${server.url}${url.pathname}/pay`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ number: card, expiry: "12/34", cvc: "123", name: "Test Client", lang: "fr" }),
    redirect: "manual"
  })
  await reply.arrayBuffer()
  // Cards that hold at once: the browser is sent back to the bookings.
  if (["4242424242424242", "5555555555554444", "4000000000005126"].includes(card)) {
    expect(reply.status).toBe(303)
    expect(reply.headers.get("location")).toContain(`/bookings?payment=success&booking=${bookingId}`)
  }
  return { status: reply.status, location: reply.headers.get("location") }
}
