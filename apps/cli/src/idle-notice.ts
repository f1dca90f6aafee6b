/**
 * How long a front end's prompt may wait for the person after a turn before the Notification
 * hooks hear `idle_prompt` (as Claude Code sends after a minute): `DSH_IDLE_NOTIFY_MS`, else a
 * minute. The chat, the web host and the ACP server read it the same way.
 */

/** The wait in ms. */
export function idleNoticeMs(env: Readonly<Record<string, string | undefined>>): number {
  const value = Number(env['DSH_IDLE_NOTIFY_MS'])
  return Number.isInteger(value) && value > 0 ? value : 60_000
}

/** The message of the notification. */
export const IDLE_MESSAGE = 'dsh is waiting for your input'
