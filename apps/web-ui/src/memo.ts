/**
 * `memo(Component)`: a wrapper that re-renders `Component` only when a prop changed (compared with
 * `Object.is`, prop by prop), without pulling preact/compat into the bundle. The transcript keeps
 * finished items (and an answer's finished blocks) as the same objects, so they are skipped.
 */
import { Component, h, type ComponentType, type FunctionComponent } from 'preact'

const sameProps = (a: object, b: object): boolean => {
  const left = Object.entries(a)
  return left.length === Object.keys(b).length && left.every(([key, value]) => Object.is(value, Object.getOwnPropertyDescriptor(b, key)?.value))
}

export function memo<P extends object>(inner: FunctionComponent<P>): ComponentType<P> {
  class Memo extends Component<P> {
    override shouldComponentUpdate(next: P): boolean {
      return !sameProps(this.props, next)
    }
    override render(): ReturnType<FunctionComponent<P>> {
      return h(inner, this.props)
    }
  }
  return Memo
}
