/**
 * Service contracts provided by the runtime on the plugin host context.
 */
import type { AgentHandle } from './agent.ts'
import type { ToolDefinition } from './tools.ts'

/** Whom a system prompt is assembled for. */
export interface PromptAssembly {
  /**
   * The agent whose model request the prompt belongs to; absent when the prompt is assembled
   * outside an agent (previews, tests). Per-session sections read their session through it.
   */
  readonly agent?: AgentHandle
}

/** A system prompt section. */
export interface PromptSection {
  /** Unique name; registering the same name twice replaces the earlier section until disposed. */
  readonly name: string
  /** Ascending order (-100 identity, 0 persona, 100–199 tool guidance, 10000+ late). */
  readonly order: number
  /**
   * Text with `{{variable}}` placeholders, or a function re-evaluated at every assembly with the
   * agent it is assembled for. A function must not throw and must return quickly (it runs
   * synchronously inside every request); an empty result drops the section.
   */
  readonly text: string | ((assembly: PromptAssembly) => string)
}

/** Assembles the system prompt from sections. */
export interface SystemPromptService {
  /** Adds a section; returns its disposer. */
  section(section: PromptSection): () => void
  /** Registers a `{{name}}` variable; returns its disposer. */
  variable(name: string, provider: () => string): () => void
  /**
   * Renders every section in order. `variables` supplies per-agent values (such as `cwd`) that
   * win over registered ones; `assembly` is handed to function sections. Throws a
   * `PROMPT_UNKNOWN_VARIABLE` error on an unregistered name.
   */
  assemble(variables?: Readonly<Record<string, string>>, assembly?: PromptAssembly): string
}

/** Registry of tools offered to the model. */
export interface ToolRegistryService {
  /** Registers a tool; returns its disposer. Throws on a duplicate name. */
  register(tool: ToolDefinition): () => void
  /** Looks up a tool. */
  get(name: string): ToolDefinition | undefined
  /** Every registered tool, in registration order. */
  list(): readonly ToolDefinition[]
}
