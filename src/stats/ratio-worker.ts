/**
 * Entry of a statistics worker thread (bundled as dist/ratio-worker.js; see off-thread.ts):
 * computes each task it is sent and posts the figures, or the expected error, back.
 */
import { parentPort } from 'node:worker_threads'
import { computeTask, sendError, type OffThreadReply, type OffThreadTask } from './off-thread.js'

parentPort?.on('message', (task: OffThreadTask) => {
  let reply: OffThreadReply
  try {
    reply = { id: task.id, result: computeTask(task) }
  } catch (error) {
    reply = { id: task.id, error: sendError(error) }
  }
  parentPort?.postMessage(reply)
})
