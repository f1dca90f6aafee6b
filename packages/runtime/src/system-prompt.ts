/**
 * System prompt assembly: ordered sections with `{{name}}` variables. An unregistered variable
 * is a programming error and throws, so a typo never reaches the model as literal braces.
 */
import type { PromptAssembly, PromptSection, SystemPromptService } from '@dsh/contracts'
import { DshError } from './errors.ts'

const variablePattern = /\{\{\s*([A-Za-z][\w.-]*)\s*\}\}/g

/** In-memory implementation of {@link SystemPromptService}. */
export class SystemPrompt implements SystemPromptService {
  readonly #sections = new Map<string, PromptSection[]>()
  readonly #variables = new Map<string, () => string>()

  section(section: PromptSection): () => void {
    const stack = this.#sections.get(section.name) ?? []
    stack.push(section)
    this.#sections.set(section.name, stack)
    return () => {
      const current = this.#sections.get(section.name) ?? []
      const index = current.indexOf(section)
      if (index >= 0) current.splice(index, 1)
      if (current.length === 0) this.#sections.delete(section.name)
    }
  }

  variable(name: string, provider: () => string): () => void {
    this.#variables.set(name, provider)
    return () => {
      if (this.#variables.get(name) === provider) this.#variables.delete(name)
    }
  }

  assemble(variables: Readonly<Record<string, string>> = {}, assembly: PromptAssembly = {}): string {
    const active = [...this.#sections.values()].flatMap((stack) => stack.slice(-1))
    active.sort((a, b) => a.order - b.order || a.name.localeCompare(b.name))
    return active
      .map((section) => this.#interpolate(section.name, typeof section.text === 'function' ? section.text(assembly) : section.text, variables))
      .filter((text) => text.trim() !== '')
      .join('\n\n')
  }

  #interpolate(sectionName: string, text: string, variables: Readonly<Record<string, string>>): string {
    return text.replace(variablePattern, (_match, name: string) => {
      const direct = variables[name]
      if (direct !== undefined) return direct
      const provider = this.#variables.get(name)
      if (provider === undefined) {
        throw new DshError('PROMPT_UNKNOWN_VARIABLE', `system prompt section "${sectionName}" uses unregistered variable {{${name}}}`)
      }
      return provider()
    })
  }
}
