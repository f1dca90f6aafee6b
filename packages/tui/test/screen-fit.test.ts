// The banner and the status line in narrow terminals: the banner wraps between its facts, and the
// status line keeps the context and cost figures while the other facts give way.
import { visibleWidth } from '@mariozechner/pi-tui'
import { describe, expect, it } from 'vitest'
import { Banner } from '../src/screen/banner.ts'
import { shortLabel, wrapParts } from '../src/screen/fit-parts.ts'
import { fittedStatusParts, StatusLine } from '../src/screen/status-line.ts'
import type { StatusSnapshot } from '../src/status/status-snapshot.ts'
import { createTheme } from '../src/theme.ts'

const plain = createTheme({ color: false, attributes: false })

const status: StatusSnapshot = {
  model: 'scripted:/home/dev/work/scripts/day.json',
  cwd: '~/src/project',
  roots: 2,
  approvals: 'ask before bash, run_code',
  context: 'ctx 9.5k/128k (7%)',
  cost: '$0.0028',
  sessionId: 's',
}

describe('the status line in a narrow terminal', () => {
  it('shows everything when it fits', () => {
    expect(new StatusLine({ theme: plain, now: () => 0, status }).render(160)).toEqual(['scripted:/home/dev/work/scripts/day.json · ~/src/project · +2 roots · ask before bash, run_code · ctx 9.5k/128k (7%) · $0.0028'])
  })

  it('keeps the context and cost figures at 80 and 40 columns, shortening the model and leaving out the rest in order', () => {
    expect(fittedStatusParts(status, 80)).toEqual(['scripted:…/day.json', '~/src/project', '+2 roots', 'ctx 9.5k/128k (7%)', '$0.0028'])
    expect(fittedStatusParts(status, 61)).toEqual(['scripted:…/day.json', '+2 roots', 'ctx 9.5k/128k (7%)', '$0.0028'])
    expect(fittedStatusParts(status, 50)).toEqual(['scripted:…/day.json', 'ctx 9.5k/128k (7%)', '$0.0028'])
    expect(fittedStatusParts(status, 30)).toEqual(['ctx 9.5k/128k (7%)', '$0.0028'])
    const running = new StatusLine({ theme: plain, now: () => 4200, status: { ...status, runningSince: 0 } }).render(60)
    expect(running).toEqual(['⠹ 4.2s · scripted:…/day.json · ctx 9.5k/128k (7%) · $0.0028'])
  })

  it('says it waits for the person instead of spinning while a question or picker is open', () => {
    let open = true
    const line = new StatusLine({ theme: plain, now: () => 4200, status: { ...status, runningSince: 0 }, waiting: () => open })
    expect(line.render(80)).toEqual(['waiting for you · scripted:…/day.json · +2 roots · ctx 9.5k/128k (7%) · $0.0028'])
    open = false
    expect(line.render(80)[0]).toMatch(/^⠹ 4\.2s · /)
  })

  it('never renders wider than the terminal', () => {
    for (const width of [1, 10, 25, 80, 120]) {
      for (const line of new StatusLine({ theme: createTheme({ color: true, attributes: true }), now: () => 0, status: { ...status, runningSince: 0 } }).render(width)) expect(visibleWidth(line)).toBeLessThanOrEqual(width)
    }
  })
})

describe('the banner in a narrow terminal', () => {
  it('wraps between facts instead of cutting the approval mode and the last key off', () => {
    const banner = new Banner({ version: '0.1.0', model: 'scripted:/tmp/a13/scripts/day.json', cwd: '/tmp/a13/ws', approvals: 'ask before bash, run_code' }, plain)
    expect(banner.render(120)).toEqual(['dsh 0.1.0 · scripted:/tmp/a13/scripts/day.json · /tmp/a13/ws · ask before bash, run_code', '/help for commands · Enter sends · Shift-Enter new line · Ctrl-C cancels · Ctrl-D exits'])
    expect(banner.render(80)).toEqual(['dsh 0.1.0 · scripted:/tmp/a13/scripts/day.json · /tmp/a13/ws', 'ask before bash, run_code', '/help for commands · Enter sends · Shift-Enter new line · Ctrl-C cancels', 'Ctrl-D exits'])
  })

  it('cuts only a single fact wider than the terminal', () => {
    // oxlint-disable-next-line no-control-regex -- pi-tui resets styles around the ellipsis it adds.
    expect(wrapParts(['abcdefghij', 'xy'], 6).map((line) => line.replace(/\x1b\[0m/g, ''))).toEqual(['abc...', 'xy'])
    expect(shortLabel('deepseek:deepseek-v4-flash')).toBe('deepseek:deepseek-v4-flash')
    expect(shortLabel('openai:a-very-long-model-name-from-some-provider')).toBe('openai:a-very-long-model-na…')
  })
})
