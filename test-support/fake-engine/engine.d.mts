/** Types of what the TypeScript tests use from engine.mjs. */
export function modelCapacity(
  options: object,
  workload: { promptTokens: number; outputTokens: number; cycles?: number; concurrency?: number }
): number
