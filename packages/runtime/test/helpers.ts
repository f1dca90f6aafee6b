// Shared fixtures for runtime tests: a host over a temp home with a scripted model.
import { z } from 'zod'
import type { ChatRequestBody, ToolDefinition, UserMessage } from '@dsh/contracts'
import { createScriptedProvider, type ModelScript } from '@dsh/llm-scripted'
import { tempTree, type TempTree } from '@dsh/testkit'
import { createHost, createUserMessage, type Host } from '../src/index.ts'

/** A tool that echoes its text and can attach an additional context. */
export const echoTool: ToolDefinition<{ text: string; context?: string | undefined }> = {
  name: 'echo',
  description: 'Echoes text.',
  parameters: z.object({ text: z.string(), context: z.string().optional() }),
  execute: (args) => Promise.resolve({ content: `echo: ${args.text}` }),
}

/** A tool that waits until aborted. */
export const hangTool: ToolDefinition<Record<string, never>> = {
  name: 'hang',
  description: 'Waits until cancelled.',
  parameters: z.object({}),
  execute: (_args, run) =>
    new Promise((resolve) => {
      run.signal.addEventListener('abort', () => resolve({ isError: true, content: 'hang: cancelled' }), { once: true })
    }),
}

/** A host plus its temp home. */
export interface Fixture {
  readonly tree: TempTree
  readonly host: Host
  readonly requests: ChatRequestBody[]
  /** Lines the host logged. */
  readonly logs: string[]
  dispose(): Promise<void>
}

/** Builds a host with the echo and hang tools. */
export async function fixture(): Promise<Fixture> {
  const tree = await tempTree({ 'work/': null })
  const logs: string[] = []
  const host = await createHost({ dshHome: tree.path('home'), tools: [echoTool, hangTool], log: (line) => logs.push(line) })
  return {
    tree,
    host,
    requests: [],
    logs,
    dispose: async () => {
      await host.dispose()
      await tree.dispose()
    },
  }
}

/** Starts an agent over a script. */
export function agentWith(f: Fixture, script: ModelScript, resume?: string) {
  return f.host.startAgent({ cwd: f.tree.path('work'), provider: createScriptedProvider(script), onRequest: (body) => f.requests.push(body), ...(resume === undefined ? {} : { resume }) })
}

/** The `text` argument of an echo execution. */
export function echoText(args: unknown): string {
  return z.object({ text: z.string() }).parse(args).text
}

/** Contents of a request's messages, after the system message. */
export function contents(body: ChatRequestBody | undefined): (string | null)[] {
  return (body?.messages ?? []).slice(1).map((message) => message.content)
}

/** A plugin-sourced context message. */
export function note(text: string): UserMessage {
  return createUserMessage({ text, source: { kind: 'plugin', plugin: 'test', form: 'notice' } })
}
