/**
 * The live `model` namespace of `$DSH_HOME/settings.yaml`: `thinking` and `reasoningEffort`, over
 * the config file's values as base, hot-reloaded. Providers are made before the host that owns the
 * settings service, so they read through a {@link LiveThinking} that is bound once the host exists;
 * until then (and for one-shot commands) the config file's values apply. Command-line flags win
 * over both (model-spec.ts).
 */
import { z } from 'zod'
import type { ThinkingModes } from '@dsh/llm-openai'
import type { Host } from '@dsh/runtime'
import type { SettingsScope } from '@dsh/settings'

/** Fields of the `model` namespace. */
export const modelSettingsSchema = z.strictObject({
  thinking: z.enum(['enabled', 'disabled']).optional().describe('DeepSeek thinking: enabled or disabled (applies from the next request)'),
  reasoningEffort: z.enum(['low', 'high', 'max']).optional().describe('DeepSeek reasoning_effort (applies from the next request)'),
})

/** Values of the `model` namespace. */
export type ModelSettings = z.infer<typeof modelSettingsSchema>

/** The live thinking modes, readable before the host exists. */
export class LiveThinking {
  readonly #base: ThinkingModes
  #scope: SettingsScope<ModelSettings> | undefined

  constructor(base: ThinkingModes) {
    this.#base = base
  }

  /** Registers the namespace on the host's settings service; later reads see settings.yaml. */
  bind(host: Host): void {
    const base: ModelSettings = {
      ...(this.#base.thinking === undefined ? {} : { thinking: this.#base.thinking }),
      ...(this.#base.reasoningEffort === undefined ? {} : { reasoningEffort: this.#base.reasoningEffort }),
    }
    this.#scope = host.ctx.settings.register('model', modelSettingsSchema, { base })
  }

  /** The modes in force now (never throws). */
  readonly read = (): ThinkingModes => this.#scope?.get() ?? this.#base
}
