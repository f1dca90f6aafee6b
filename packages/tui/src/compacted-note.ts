/** The line the chat shows where a compaction replaced the history before it (live, and when a session is replayed). */
export const COMPACTED_NOTE = '(earlier history was compacted into a summary)'
