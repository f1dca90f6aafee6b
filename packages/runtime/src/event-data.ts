/**
 * Typed access to core event payloads. The session writes core payloads only through typed
 * appends and validates the envelope on load, so the type tag decides the payload's shape.
 */
import type { CoreSessionEventData, CoreSessionEventType, SessionEvent } from '@dsh/contracts'

/** The payload of `event` when it has type `type`, else undefined. */
export function dataOf<K extends CoreSessionEventType>(event: SessionEvent, type: K): CoreSessionEventData[K] | undefined {
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- the type tag is the payload's discriminant (see the module header)
  return event.type === type ? (event.data as CoreSessionEventData[K]) : undefined
}
