/**
 * Entry of the efficiency worker thread (bundled as dist/ratio-worker.js; see off-thread.ts):
 * computes each task it is sent and posts the estimates, or the expected error, back.
 */
import { parentPort } from 'node:worker_threads'
import { sendError, type RatioReply, type RatioTask } from './off-thread.js'
import { ratiosOfQuantiles } from './ratio.js'

parentPort?.on('message', (task: RatioTask) => {
  let reply: RatioReply
  try {
    reply = { id: task.id, estimates: ratiosOfQuantiles(task.baseline, task.candidate, task.qs, task.settings) }
  } catch (error) {
    reply = { id: task.id, error: sendError(error) }
  }
  parentPort?.postMessage(reply)
})
