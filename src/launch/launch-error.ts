import { GateError } from '../errors.js'

/** Starting, readying or stopping a launched deployment failed (src/launch). */
export class LaunchError extends GateError {}
