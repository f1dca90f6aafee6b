/**
 * Lists of a markdown block, nested by indentation: an item line (`-`, `*`, `+`, `1.`, `1)`)
 * indented deeper than the item before it starts a list inside that item; a line that is not an
 * item continues the item before it. An ordered list keeps its first number.
 */
import type { JSX } from 'preact'
import { inline } from './markdown-inline.tsx'

interface ListItem {
  text: string
  readonly children: List[]
}

interface List {
  readonly ordered: boolean
  readonly start: number
  readonly indent: number
  readonly items: ListItem[]
}

/** An item line: indentation, marker, text. */
export const itemLine = /^(\s*)([-*+]|(\d{1,9})[.)])\s+(.*)$/

/** The lists of `lines` (the first line is an item line). */
export function parseLists(lines: readonly string[]): List[] {
  const top: List[] = []
  const stack: List[] = []
  for (const line of lines) {
    const match = itemLine.exec(line)
    if (match === null) {
      const item = stack.at(-1)?.items.at(-1)
      if (item !== undefined) item.text += `\n${line.trim()}`
      continue
    }
    const indent = (match[1] ?? '').length
    const ordered = match[3] !== undefined
    while (stack.length > 0 && (stack.at(-1)?.indent ?? 0) > indent) stack.pop()
    let list = stack.at(-1)
    if (list !== undefined && list.indent === indent && list.ordered !== ordered) {
      stack.pop()
      list = undefined
    }
    if (list === undefined || list.indent < indent) {
      const created: List = { ordered, start: Number(match[3] ?? 1), indent, items: [] }
      const parent = stack.at(-1)?.items.at(-1)
      if (parent === undefined) top.push(created)
      else parent.children.push(created)
      stack.push(created)
      list = created
    }
    list.items.push({ text: match[4] ?? '', children: [] })
  }
  return top
}

/** One list as elements. */
export function ListView(props: { readonly list: List }): JSX.Element {
  const items = props.list.items.map((item, index) => (
    <li key={index}>
      {inline(item.text)}
      {item.children.map((child, inner) => (
        <ListView key={inner} list={child} />
      ))}
    </li>
  ))
  return props.list.ordered ? <ol start={props.list.start === 1 ? undefined : props.list.start}>{items}</ol> : <ul>{items}</ul>
}
