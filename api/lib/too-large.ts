/**
 * A 413 ends its connection. A body over its cap is refused while it streams in
 * (server-shared/capped-body.ts), so the rest of it is still on the way when the answer is ready; keeping
 * the connection open leaves the client waiting with a body nobody reads until the keep-alive
 * timeout (65 s, api/lib/graceful.ts). RFC 9110 §15.5.14 lets the server close the connection
 * instead: the answer says `Connection: close`, and once it is written the socket is closed in
 * stages (RFC 9112 §9.6, "Tear-down"): the write side first, so the client sees the whole answer and
 * the end of the stream; what it still sends is discarded for at most {@link LINGER_MS}, then the
 * socket is destroyed. Destroying it at once, with unread bytes waiting, would send a TCP reset that
 * can wipe the unread answer on the client's side.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

/** Longest wait for the client to close its side after a 413, ms (nginx's `lingering_timeout` is 5 s). */
export const LINGER_MS = 2000

/** Half-closes `socket`, discards what still arrives, and destroys it when the client closes or after `lingerMs`. */
function closeInStages(socket: Socket, lingerMs: number): void {
  if (socket.destroyed) return
  const timer = setTimeout(() => socket.destroy(), lingerMs)
  timer.unref()
  socket.once('close', () => clearTimeout(timer))
  socket.end()
  socket.resume()
}

/**
 * Express middleware: a 413 answer carries `Connection: close`, and Node's HTTP server, which
 * closes such a connection once the answer is written (its `socket.destroySoon()`), closes it in
 * stages instead (see the module comment).
 */
export function closeAfterTooLarge(req: IncomingMessage, res: ServerResponse, next: () => void, lingerMs = LINGER_MS): void {
  const writeHead = res.writeHead
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
    if (args[0] === 413 && !this.headersSent) {
      this.setHeader('Connection', 'close')
      const socket = req.socket as Socket & { destroySoon?: () => void }
      socket.destroySoon = () => closeInStages(socket, lingerMs)
    }
    return writeHead.apply(this, args)
  } as ServerResponse['writeHead']
  next()
}
