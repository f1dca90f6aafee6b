export function start(port: number): string {
  return `listening on ${port}`
}
