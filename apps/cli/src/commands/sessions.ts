/**
 * `dsh sessions list [--json]` and `dsh sessions show ID [--messages]` (ID: a whole id or a unique
 * prefix). Everything stored is shown terminal-safe: control characters become visible.
 */
import type { Message } from '@dsh/contracts'
import { rewoundLine, rewoundMessages } from '@dsh/checkpoints'
import { deriveMessages, messageText } from '@dsh/runtime'
import { terminalLine, terminalText } from '@dsh/workspace-context'
import { errLine, type CliIo } from '../cli-io.ts'
import { dshHomeFrom } from '../global-options.ts'
import { storeFor } from '../session-store-for.ts'
import { resolve } from 'node:path'
import { sessionJson, sessionTable } from './session-table.ts'
import { usageLines, usageTotals } from './session-usage.ts'

/** Lists sessions, most recently updated first. */
export function listSessions(io: CliIo, options: { readonly dshHome?: string; readonly json?: boolean }): number {
  const rows = storeFor(io, options.dshHome).list()
  if (options.json === true) {
    io.stdout.write(`${JSON.stringify(rows.map(sessionJson), null, 2)}\n`)
    return 0
  }
  if (rows.length === 0) {
    io.stdout.write('no sessions\n')
    return 0
  }
  io.stdout.write(`${sessionTable(rows, new Date()).join('\n')}\n`)
  return 0
}

function renderMessage(message: Message): string {
  switch (message.role) {
    case 'user': {
      const kind = message.source.kind === 'plugin' ? `plugin:${message.source.plugin}` : message.source.kind
      return `--- user (${kind})\n${messageText(message)}`
    }
    case 'assistant': {
      const calls = message.content.flatMap((block) => (block.type === 'tool-call' ? [`[tool call ${block.name} ${block.arguments}]`] : []))
      return [`--- assistant`, messageText(message), ...calls].filter((line) => line !== '').join('\n')
    }
    case 'tool':
      return `--- tool ${message.toolName}${message.isError ? ' (error)' : ''}\n${messageText(message)}`
    default: {
      const unreachable: never = message
      return String(unreachable)
    }
  }
}

/** Shows one session: header and event counts, or its model-visible history. */
export async function showSession(io: CliIo, id: string, options: { readonly dshHome?: string; readonly messages?: boolean; readonly config?: string }): Promise<number> {
  const session = storeFor(io, options.dshHome).load(id)
  if (options.messages === true) {
    // Messages carry repository and model text: shown terminal-safe (escape sequences made visible).
    io.stdout.write(`${terminalText(deriveMessages(session).map(renderMessage).join('\n'))}\n`)
    for (const { turn, messages } of rewoundMessages(dshHomeFrom(io, options.dshHome), session)) {
      io.stdout.write(`${terminalText([`=== turn ${turn} (rewound: the model no longer sees it)`, ...messages.map(renderMessage)].join('\n'))}\n`)
    }
    return 0
  }
  const counts = new Map<string, number>()
  for (const event of session.events) counts.set(event.type, (counts.get(event.type) ?? 0) + 1)
  const lines = [
    `session ${session.id}`,
    `created ${terminalLine(session.header.createdAt)}`,
    `cwd ${terminalLine(session.header.cwd)}`,
    ...(session.header.parentSession === undefined ? [] : [`parent ${terminalLine(session.header.parentSession)} (depth ${session.header.delegationDepth})`]),
    `events ${session.events.length}, visible messages ${session.surface.length}`,
    ...[rewoundLine(dshHomeFrom(io, options.dshHome), session) ?? []].flat(),
    ...[...counts.entries()].map(([type, count]) => `  ${terminalLine(type)}: ${count}`),
    ...usageLines(usageTotals(session.events), await pricesOf(io, options.config)),
  ]
  io.stdout.write(`${lines.join('\n')}\n`)
  return 0
}

/**
 * The `model.prices` of a `--config` file. The config loader (YAML, every plugin's schema) is
 * imported only here, so `dsh sessions list` never loads it.
 */
async function pricesOf(io: CliIo, config: string | undefined): Promise<Parameters<typeof usageLines>[1]> {
  if (config === undefined) return undefined
  const { loadConfigFile } = await import('../config-file.ts')
  return loadConfigFile(resolve(io.cwd, config), (line) => errLine(io, `warning: ${line}`)).model?.prices
}
