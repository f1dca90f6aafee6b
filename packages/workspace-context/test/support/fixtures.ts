/**
 * Shared fixtures: a small repository in the fake filesystem and helpers to read instruction
 * messages back out of a session.
 */
import type { UserMessage, WorkspaceInstructionsSource } from '@dsh/contracts'
import { userMessageOf } from '../../src/guards.ts'
import { instructionSource } from '../../src/visible-state.ts'
import { PLUGIN_NAME } from '../../src/message.ts'
import type { FakeSession } from './rig.ts'

/** A repository with a root and a nested instruction file and a user-global file. */
export const REPO: Readonly<Record<string, string>> = {
  '/repo/.git/HEAD': 'ref',
  '/repo/AGENTS.md': 'Root rules.\n',
  '/repo/pkg/AGENTS.md': 'Pkg rules.\n',
  '/repo/pkg/a.ts': 'a',
  '/repo/pkg/deep/b.ts': 'b',
  '/repo/other/c.ts': 'c',
  '/home/user/.dsh/AGENTS.md': 'Global rules.\n',
}

/** Instruction source of a message (undefined for other messages). */
export const sourceOf = (message: UserMessage): WorkspaceInstructionsSource | undefined => instructionSource(message.source, PLUGIN_NAME)

/** Text of a message. */
export const textOf = (message: UserMessage): string => message.content.map((block) => block.text).join('')

/** Instruction messages of a session in log order (visible or not). */
export function instructionMessages(session: FakeSession): UserMessage[] {
  return session.events.flatMap((event) => {
    const message = userMessageOf(event)
    return message !== undefined && sourceOf(message) !== undefined ? [message] : []
  })
}

/** Flattened changes of a list of messages. */
export const changesOf = (messages: readonly UserMessage[]): { action: string; path: string }[] => messages.flatMap((m) => sourceOf(m)?.changes.map((c) => ({ action: c.action, path: c.path })) ?? [])
