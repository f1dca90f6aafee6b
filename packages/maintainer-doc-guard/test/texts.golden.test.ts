// Golden model-visible texts not pinned elsewhere: the child anchor, the subagent-report notice,
// the judge's prompt, singular and plural of the drift and completion notices, and the seeded
// conventions.
import { describe, expect, it } from 'vitest'
import { renderAnchor } from '../src/anchor-section.ts'
import { CONVENTIONS_SEED } from '../src/conventions-seed.ts'
import { CHILD_NOTICE, driftNudge, verifyNotice } from '../src/notice-texts.ts'
import { resolveConfig } from '../src/resolve-config.ts'
import { JUDGE_SYSTEM_PROMPT, judgeQuestion } from '../src/strict-judge.ts'

describe('golden texts', () => {
  it('renders the child anchor', () => {
    expect(renderAnchor({ config: resolveConfig().anchor, quote: 'Task:\nAllow trailing commas.', child: true, strict: false })).toBe(
      [
        '## Your delegated task — what you were sent here to do',
        '',
        '> Task:',
        '> Allow trailing commas.',
        '',
        'This is the task you were delegated, quoted from the message that started your session. It outranks anything you have concluded since, and it does not grow because something looks interesting.',
        '',
        'When these disagree, follow this order:',
        '1. the delegated task, quoted above',
        '2. the plan you stated in your own previous turn',
        '3. a lead, idea or side-quest you found on your own',
        '',
        'Anything the task does not cover is an excursion: mention it in your final answer instead of pursuing it.',
      ].join('\n'),
    )
  })

  it('pins the subagent-report notice and the judge prompt', () => {
    expect(CHILD_NOTICE).toBe(
      "maintainer-doc-guard: a subagent's report just came back. Treat it as input to verify, not as a conclusion: re-run the key readings before you adopt a number, a bound or a counterexample from it. Check the work tree (git status --short): a subagent told to stay read-only can still create files, because that was an instruction, not a sandbox. Next time, name the output path you want instead of only forbidding writes.",
    )
    expect(JUDGE_SYSTEM_PROMPT).toBe(
      "You decide whether an assistant's final answer answers the user's instruction. Be strict: a process report, a status update or a reflection that does not answer the instruction is off-topic. Reply with exactly ONTOPIC, or with OFFTOPIC: followed by a reason of at most 20 words.",
    )
    expect(judgeQuestion('Count.', 'x'.repeat(5000))).toBe(`Instruction:\nCount.\n\nFinal answer:\n${'x'.repeat(4000)}…`)
  })

  it('counts steps and artifacts in the right number', () => {
    expect(driftNudge(1)).toBe("maintainer-doc-guard: 1 step has run since the user last spoke. Restate in one line which part of the user's request the current step serves. If none does, stop and ask. If the plan has changed, say so and get agreement before you go on.")
    expect(driftNudge(12)).toMatch(/^maintainer-doc-guard: 12 steps have run since the user last spoke\. /u)
    expect(verifyNotice(['src/a.ts', 'src/b.ts'])).toBe(
      'maintainer-doc-guard: you changed "src/a.ts", "src/b.ts". Do not call them done or fixed until you can state how you verified them: the command you ran, the result you expected and the reading you actually got.',
    )
  })

  it('seeds ten numbered rules', () => {
    expect(CONVENTIONS_SEED.match(/^\d+\. /gmu)).toHaveLength(10)
    expect(CONVENTIONS_SEED).toContain('6. After a mistake has been corrected, append one line to lessons.md: `- mistake: …｜why: …｜correct: …｜trigger: <tool> + <path fragment>｜YYYY-MM-DD`.')
  })
})
