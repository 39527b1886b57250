/**
 * Marks a personal slot (app/lib/personal-slots.ts) in a render for the page cache; renders just its
 * children everywhere else (a page rendered for one visitor, the browser).
 */
import type { ReactNode } from 'react'
import { useMarksPersonalSlots } from '../lib/personal.ts'
import { SLOT_CLOSE, slotOpenText, type PersonalSlotDescriptor } from '../lib/personal-slots.ts'

export function PersonalSlot({ slot, children }: { slot: PersonalSlotDescriptor; children: ReactNode }) {
  const marks = useMarksPersonalSlots()
  if (!marks) return children
  return (
    <>
      {slotOpenText(slot)}
      {children}
      {SLOT_CLOSE}
    </>
  )
}
