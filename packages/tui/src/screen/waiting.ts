/** What the full-screen chat says in place of a spinner while a question or picker waits for the person. */
export const WAITING = 'waiting for you'
