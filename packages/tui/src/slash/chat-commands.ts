/**
 * The chat's own commands besides the session and permission ones: `/help`, `/exit`, `/compact`,
 * `/context`, `/model`, `/status` and `/diff` (and `/mcp`, registered here too).
 */
import { deriveMessages, isAbortError, planCompaction, summarizeWithModel } from '@dsh/runtime'
import { oneLine, problemText } from '../text-safety.ts'
import { statusDetails } from '../status/status-details.ts'
import { contextReport } from './context-report.ts'
import { workspaceDiff } from './workspace-diff.ts'
import type { SlashCommandSpec, SlashContext, SlashOutput, SlashRegistry } from './slash-registry.ts'
import { modeCommand, permissionsCommand } from './permission-commands.ts'
import { mcpCommand } from './mcp-command.ts'
import { newCommand, resumeCommand, sessionsCommand } from './session-commands.ts'
import { todosCommand } from './todos-command.ts'

async function compact(context: SlashContext, args: readonly string[]): Promise<SlashOutput> {
  const { controller, view, signal } = context
  const agent = controller.agent
  const plan = planCompaction(agent.session, { scope: 'at-rest' })
  if (plan === undefined) return 'nothing to compact (the visible history is empty or already one checkpoint)'
  const instructions = args.join(' ')
  // PreCompact hooks may stop a compaction a person asked for.
  const stopped = await agent.beforeCompact({ instructions, signal })
  if (stopped !== undefined) return `compaction stopped by a PreCompact hook: ${oneLine(stopped)}`
  const before = agent.session.surface.length
  let summary: string | undefined
  if (controller.env.modelSummaries) {
    view.lines(['asking the model for a summary…'], 'notice')
    try {
      summary = await summarizeWithModel(agent.provider, plan.messages, signal, { onRequest: controller.env.onRequest, instructions })
    } catch (error) {
      // A cancelled summary cancels the compaction; any other failure falls back to the deterministic summary.
      if (signal.aborted || isAbortError(error)) return 'compaction cancelled'
      view.lines([`model summary failed (${oneLine(problemText(error))}); using the deterministic summary`], 'notice')
    }
  }
  // At rest (no turn runs while a command does), so agent.compact plans the same range again.
  agent.compact(summary === undefined ? {} : { summary, summarizer: 'model' })
  view.statusChanged()
  return `compacted: ${before} visible messages -> ${agent.session.surface.length}`
}

const helpCommand: SlashCommandSpec = {
  name: 'help',
  aliases: ['?'],
  usage: '/help',
  help: 'show this list',
  run: ({ controller }) => {
    const commands = controller.registry.list()
    const column = Math.max(...commands.map((spec) => spec.usage.length)) + 2
    return [
      ...commands.map((spec) => `${spec.usage.padEnd(column)}${spec.help}`),
      '',
      'Enter sends; Shift-Enter, Alt-Enter or Ctrl-J (or \\ at the end of a line) adds a line; Tab completes /commands and paths (@path)',
      'Up/Down: earlier prompts; Esc clears the input or cancels; Ctrl-C cancels a running step; Ctrl-C twice or Ctrl-D at an empty prompt exits',
      'Ctrl-O shows the last tool result in full; Ctrl-T shows or hides reasoning; //text sends /text',
      ...(controller.env.shell === undefined ? [] : ['!command runs the command yourself and gives its output to the model with your next prompt']),
    ]
  },
}

const modelCommand: SlashCommandSpec = {
  name: 'model',
  usage: '/model [SPEC]',
  help: 'show the model, or switch to SPEC (deepseek:<m>, openai:<m>, scripted:<file>)',
  run: ({ controller }, args) => {
    const spec = args[0]
    if (spec === undefined) return `model: ${controller.model.label}`
    const switchModel = controller.env.switchModel
    if (switchModel === undefined) return 'this chat cannot switch models'
    try {
      controller.setModel(switchModel(spec))
    } catch (error) {
      // A bad spec (unknown provider, missing key) keeps the current model.
      return `cannot switch to ${oneLine(spec, 60)}: ${problemText(error)}`
    }
    return `model: ${controller.model.label} (from the next step on)`
  },
}

/** Registers the chat's own commands. */
export function registerChatCommands(registry: SlashRegistry): void {
  registry.register(helpCommand)
  registry.register({ name: 'exit', aliases: ['quit'], usage: '/exit', help: 'end the chat', run: ({ controller }) => controller.exit() })
  registry.register({ name: 'compact', usage: '/compact [TEXT]', help: 'replace the history with a summary that keeps your last prompt verbatim', run: compact })
  registry.register({
    name: 'context',
    usage: '/context',
    help: 'show the instruction files here and which ones this session sees',
    run: async ({ controller, signal }) => {
      const workspace = await controller.env.inspectWorkspace(controller.agent.handle.cwd, signal)
      const session = contextReport(deriveMessages(controller.agent.session))
      return ['Instruction files for new sessions here:', ...workspace.map((line) => `  ${line}`), '', 'In this session:', ...session.map((line) => `  ${line}`)].map((line) => line.trimEnd())
    },
  })
  registry.register(modelCommand)
  registry.register({ name: 'status', usage: '/status', help: 'session, model, directories, approvals, context and cost', run: ({ controller }) => statusDetails(controller) })
  registry.register({
    name: 'diff',
    usage: '/diff',
    help: "the session's file changes (git diff of the working directory and additional roots)",
    run: async ({ controller, view, signal }) => {
      const report = await workspaceDiff({ roots: [controller.agent.handle.cwd, ...(controller.env.additionalRoots?.(controller.agent) ?? [])], signal })
      if (report.diff !== '') view.diff(report.diff)
      return report.notes
    },
  })
  registry.register(modeCommand)
  registry.register(permissionsCommand)
  registry.register(mcpCommand)
  registry.register(sessionsCommand)
  registry.register(resumeCommand)
  registry.register(newCommand)
  registry.register(todosCommand)
}
