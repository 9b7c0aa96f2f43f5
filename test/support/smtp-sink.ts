import * as net from "node:net"
import type { AddressInfo } from "node:net"

export interface ReceivedMail {
  readonly from: string
  readonly to: ReadonlyArray<string>
  /** The message as sent (headers and MIME body), quoted-printable soft line breaks removed. */
  readonly data: string
}

/**
 * A local SMTP server that accepts every mail and keeps it (enough of RFC 5321 for nodemailer:
 * EHLO, MAIL, RCPT, DATA, RSET, NOOP, QUIT, no TLS). `greetingDelayMs` makes it slow to answer.
 */
export const startSmtpSink = async (options: { readonly greetingDelayMs?: number } = {}) => {
  const received: Array<ReceivedMail> = []
  const sockets = new Set<net.Socket>()
  const server = net.createServer((socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
    let buffer = ""
    let inData = false
    let envelope = { from: "", to: [] as Array<string> }
    const reply = (line: string) => socket.write(`${line}\r\n`)
    setTimeout(() => reply("220 sink ESMTP"), options.greetingDelayMs ?? 0)
    socket.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8")
      for (;;) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n")
          if (end < 0) return
          received.push({ ...envelope, data: buffer.slice(0, end).replace(/=\r\n/g, "") })
          buffer = buffer.slice(end + 5)
          inData = false
          envelope = { from: "", to: [] }
          reply("250 OK queued")
          continue
        }
        const eol = buffer.indexOf("\r\n")
        if (eol < 0) return
        const line = buffer.slice(0, eol)
        buffer = buffer.slice(eol + 2)
        const verb = line.slice(0, 4).toUpperCase()
        if (verb === "EHLO" || verb === "HELO") reply("250 sink")
        else if (verb === "MAIL") (envelope.from = line.slice(10).trim()), reply("250 OK")
        else if (verb === "RCPT") envelope.to.push(line.slice(8).trim()), reply("250 OK")
        else if (verb === "DATA") (inData = true), reply("354 End data with <CR><LF>.<CR><LF>")
        else if (verb === "QUIT") reply("221 Bye"), socket.end()
        else if (verb === "RSET" || verb === "NOOP") reply("250 OK")
        else reply("502 Command not implemented")
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })
  }
}
