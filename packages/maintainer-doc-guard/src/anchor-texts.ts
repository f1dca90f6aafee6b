/**
 * Model-visible text of the objective anchor: the top-level and the delegated-child wording, and
 * the strict answer contract appended while strict on-topic mode is on. Titles, intros and
 * priorities are the defaults of the matching `anchor.*` options.
 */

/** Default `anchor.title`. */
export const ANCHOR_TITLE = "## Current objective — the user's latest instruction"

/** Default `anchor.intro`. */
export const ANCHOR_INTRO =
  "This is the instruction your current work answers to. It is quoted from the user's most recent message, so it outranks anything you have concluded since."

/** Default `anchor.priorities`. */
export const ANCHOR_PRIORITIES: readonly string[] = [
  "the user's latest instruction, quoted above",
  'the plan you stated in your own previous turn',
  'a lead, idea or side-quest you found on your own',
]

/** Closing line of the top-level anchor. */
export const ANCHOR_CLOSING =
  'Anything the first item does not cover is your own excursion, not the task. Say so in one line before you spend another step on it, and ask before it costs more than that.'

/** Default `anchor.childTitle`. */
export const CHILD_TITLE = '## Your delegated task — what you were sent here to do'

/** Default `anchor.childIntro`. */
export const CHILD_INTRO =
  'This is the task you were delegated, quoted from the message that started your session. It outranks anything you have concluded since, and it does not grow because something looks interesting.'

/** Default `anchor.childPriorities`. */
export const CHILD_PRIORITIES: readonly string[] = [
  'the delegated task, quoted above',
  'the plan you stated in your own previous turn',
  'a lead, idea or side-quest you found on your own',
]

/** Closing line of the child anchor (nobody answers questions inside a delegation). */
export const CHILD_CLOSING =
  'Anything the task does not cover is an excursion: mention it in your final answer instead of pursuing it.'

/** Heading line of the precedence list. */
export const PRECEDENCE_HEADING = 'When these disagree, follow this order:'

/** Appended while strict on-topic mode is on. */
export const STRICT_CONTRACT =
  'Strict on-topic mode is on. Open your final answer with the answer itself, not a recap or a status report. Put any reflection after it, marked as an addendum. Stop at the edge of the instruction and say that you stopped there. Take an excursion only when you can name the part of the instruction it serves; otherwise ask.'

/** Marker after a clipped quote. */
export const CLIPPED_MARKER = '… (truncated)'
