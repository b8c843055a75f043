/** Whether something accepts TCP connections on a loopback port (a server that should be gone). */
import { connect } from 'node:net'

export function listening(port: number): Promise<boolean> {
  return new Promise(resolve => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}
