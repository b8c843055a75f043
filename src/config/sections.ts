/**
 * A gate-file section a measurement owns (docs/development.md "Adding a measurement"): its key at
 * the top of the gate file and how it is read. Config loading (config/load.ts) takes the sections
 * as a parameter and loops over them, so it names no measurement: the list is assembled above, in
 * src/pipeline/measurement-definitions.ts, from each measurement's own folder.
 */
import type { Fields } from './validate.js'

/** What a section's parser may check the section against: the rest of the gate file as read. */
export interface SectionContext {
  /** The gate file's path, for errors (file, field, value). */
  source: string
  /** Each side's deployment kind (`server`, `prod_env`, ...), or null without `deployments:`. */
  deployments: Record<'baseline' | 'candidate', { kind: string }> | null
}

export interface GateSection<Settings = unknown> {
  /** The top-level key of the gate file (`fidelity`). */
  readonly key: string
  /** The section's settings; a ConfigError naming file, field and value on bad input (fail closed). */
  parse(fields: Fields, context: SectionContext): Settings
}
