/**
 * Permission port: how a front end answers an `ask` verdict of the tool pipeline. The answer can
 * allow the one call, allow it and remember the approval for the rest of the session (a command
 * prefix of `bash`, or every call of the tool), or reject it with a note the model reads.
 */

/** What an "allow always" approval covers, for the rest of the session. */
export type ApprovalScope =
  | {
      /**
       * Every later `bash` call whose command is a simple command (no `;`, `&`, `|`, redirection,
       * substitution or newline) that starts with `prefix` followed by a space or the end.
       */
      readonly kind: 'command-prefix'
      /** The command words approved, e.g. `npm test` or `git status`. */
      readonly prefix: string
    }
  | {
      /** Every later call of the same tool (by name). */
      readonly kind: 'tool'
    }

/** A person's answer to one permission question. */
export type PermissionDecision =
  | {
      /** Run this call only. */
      readonly kind: 'allow-once'
    }
  | {
      /** Run this call and every later call the scope covers, in this session, without asking. */
      readonly kind: 'allow-always'
      /** What the approval covers. */
      readonly scope: ApprovalScope
    }
  | {
      /** Do not run the call; the model gets an error result. */
      readonly kind: 'reject'
      /** Shown to the model in the error result when present (one line; the person's words). */
      readonly note?: string
    }
