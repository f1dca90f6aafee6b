/**
 * The ten rules `conventions.md` is seeded with when the guard creates it (never written into an
 * existing file). They are injected in full into the reminder section, so every model reads them.
 */

/** Content of a newly created `conventions.md`. */
export const CONVENTIONS_SEED = `# Conventions

The standing rules of this workspace. The operator owns this file; propose changes instead of making them.

1. Do not state anything you have not checked. Back every conclusion with evidence: a file and line, or a command and its output.
2. Settle the technical route before you execute it. If you have to deviate, say how and wait for agreement.
3. Conserve evidence. Before deleting text, check whether its numbers and conclusions live on somewhere else, and show that check.
4. The latest instruction does not silently override the scope in plan.md. When they conflict, raise the conflict first.
5. Every rewrite ends with a landing check: a list of what moved where.
6. After a mistake has been corrected, append one line to lessons.md: \`- mistake: …｜why: …｜correct: …｜trigger: <tool> + <path fragment>｜YYYY-MM-DD\`.
7. Never call something done or fixed without a verification method and the reading it actually produced.
8. Keep workspace notes short and sorted by kind, one topic per note.
9. Your own notes go in write/. Documents other people own are off limits.
10. Delegating to subagents is allowed; verify what they report before you adopt it.
`
